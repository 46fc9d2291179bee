/**
 * Consecutive streamed deltas of one content block can be joined into one event without losing
 * anything: the session manager does so before it numbers them (./event-sequencer.ts), so the
 * store and every host see fewer, larger events under one seq.
 */
import type { MessageUpdateEvent } from '../../../shared/events';

/** The two deltas as one event, or null when they belong to different blocks. */
export function mergeDeltas(a: MessageUpdateEvent, b: MessageUpdateEvent): MessageUpdateEvent | null {
  if (a.messageId !== b.messageId || a.subagentId !== b.subagentId || a.delta.index !== b.delta.index) return null;
  if (a.delta.type === 'text' && b.delta.type === 'text') return { ...a, delta: { ...a.delta, text: a.delta.text + b.delta.text } };
  if (a.delta.type === 'thinking' && b.delta.type === 'thinking') return { ...a, delta: { ...a.delta, thinking: a.delta.thinking + b.delta.thinking } };
  if (a.delta.type === 'toolCallDelta' && b.delta.type === 'toolCallDelta') {
    return { ...a, delta: { ...a.delta, partialJson: a.delta.partialJson + b.delta.partialJson } };
  }
  return null;
}
