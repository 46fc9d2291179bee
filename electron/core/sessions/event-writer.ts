/**
 * Writes a session's events to the store in batches, one transaction per batch. Events are
 * queued as they are published and flushed on the next turn of the event loop, so a burst of
 * streamed deltas costs one write; a process killed at any moment loses at most the batch of
 * the current tick. Each event is stored as published, under the seq it was published with
 * (deltas are already coalesced by ./event-sequencer.ts), so stored and live are the same.
 */
import type { Store } from '../store';
import type { SequencedEvent } from './event-sequencer';

export class EventWriter {
  private queue: SequencedEvent[] = [];
  private scheduled: NodeJS.Immediate | undefined;

  constructor(
    private readonly store: Store,
    private readonly sessionId: string,
    private readonly onError: (error: unknown) => void,
  ) {}

  push(event: SequencedEvent): void {
    this.queue.push(event);
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
