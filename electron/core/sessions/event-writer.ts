/**
 * Writes a session's events to the store in batches, one transaction per batch. Events are
 * queued as they are published and flushed on the next turn of the event loop, so a burst of
 * streamed deltas costs one write; a process killed at any moment loses at most the batch of
 * the current tick. Consecutive text deltas of one block are merged before they are written:
 * the store keeps what is needed to redraw, not every network chunk.
 */
import type { CoveEvent } from '../../../shared/events';
import type { Store } from '../store';
import { mergeDeltas } from './delta-merge';
import { isLiveOnly } from './live-only';

export class EventWriter {
  private queue: CoveEvent[] = [];
  private scheduled: NodeJS.Immediate | undefined;

  constructor(
    private readonly store: Store,
    private readonly sessionId: string,
    private readonly onError: (error: unknown) => void,
  ) {}

  push(event: CoveEvent): void {
    if (isLiveOnly(event)) return;
    const last = this.queue.at(-1);
    const merged = event.type === 'messageUpdate' && last?.type === 'messageUpdate' ? mergeDeltas(last, event) : null;
    if (merged) this.queue[this.queue.length - 1] = merged;
    else this.queue.push(event);
    this.scheduled ??= setImmediate(() => this.flush());
  }

  flush(): void {
    if (this.scheduled) clearImmediate(this.scheduled);
    this.scheduled = undefined;
    if (this.queue.length === 0) return;
    const batch = this.queue;
    this.queue = [];
    try {
      this.store.appendEvents(this.sessionId, batch);
    } catch (error) {
      this.onError(error);
    }
  }
}
