/**
 * Writes a session's events to the store in batches, one transaction per batch. Events are
 * queued as they are published and flushed on the next turn of the event loop, so a burst of
 * streamed deltas costs one write; a process killed at any moment loses at most the batch of
 * the current tick. Consecutive text deltas of one block are merged before they are written:
 * the store keeps what is needed to redraw, not every network chunk.
 */
import type { CoveEvent, MessageUpdateEvent } from '../../../shared/events';
import type { Store } from '../store';

export class EventWriter {
  private queue: CoveEvent[] = [];
  private scheduled: NodeJS.Immediate | undefined;

  constructor(
    private readonly store: Store,
    private readonly sessionId: string,
    private readonly onError: (error: unknown) => void,
  ) {}

  push(event: CoveEvent): void {
    const last = this.queue.at(-1);
    if (event.type === 'messageUpdate' && last?.type === 'messageUpdate' && mergeable(last, event)) {
      this.queue[this.queue.length - 1] = merge(last, event);
    } else this.queue.push(event);
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

function mergeable(a: MessageUpdateEvent, b: MessageUpdateEvent): boolean {
  return (
    a.messageId === b.messageId &&
    a.subagentId === b.subagentId &&
    a.delta.type === b.delta.type &&
    a.delta.index === b.delta.index
  );
}

function merge(a: MessageUpdateEvent, b: MessageUpdateEvent): MessageUpdateEvent {
  if (a.delta.type === 'text' && b.delta.type === 'text') return { ...a, delta: { ...a.delta, text: a.delta.text + b.delta.text } };
  if (a.delta.type === 'thinking' && b.delta.type === 'thinking') return { ...a, delta: { ...a.delta, thinking: a.delta.thinking + b.delta.thinking } };
  if (a.delta.type === 'toolCallDelta' && b.delta.type === 'toolCallDelta') {
    return { ...a, delta: { ...a.delta, partialJson: a.delta.partialJson + b.delta.partialJson } };
  }
  return b;
}
