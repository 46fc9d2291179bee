/**
 * Puts a session's events in log order by their `seq` (pure). Every event carries the number it
 * was stored under, live or loaded, so a window merges what `session:open` answered with what
 * streams in by number alone: one it has is dropped, however often it comes; one that comes
 * early waits for those before it; a missing number is a gap to fetch by range
 * (`session:events`), after a reconnect, a dropped frame or a stream the window did not watch.
 */
import type { SessionEvent } from '../../../shared/contract';

export interface EventOrder {
  /** The seq of the latest event applied; null until `session:open` says where the log stands. */
  last: number | null;
  /** Events past a gap (or received before the open answered), by seq, each once. */
  ahead: SessionEvent[];
}

export const UNOPENED: EventOrder = { last: null, ahead: [] };

/** A range the window lacks: afterSeq < seq ≤ untilSeq. */
export interface MissingRange {
  afterSeq: number;
  untilSeq: number;
}

export interface Admitted {
  order: EventOrder;
  /** Events to apply now, in order, none seen before. */
  ready: SessionEvent[];
  missing: MissingRange | null;
}

/** Takes events in any order, duplicates included. */
export function admit(order: EventOrder, incoming: readonly SessionEvent[]): Admitted {
  const last = order.last;
  const bySeq = new Map<number, SessionEvent>();
  for (const event of [...order.ahead, ...incoming]) {
    if (!Number.isSafeInteger(event.seq) || (last !== null && event.seq <= last) || bySeq.has(event.seq)) continue;
    bySeq.set(event.seq, event);
  }
  const ahead = [...bySeq.values()].sort((a, b) => a.seq - b.seq);
  if (last === null) return { order: { last, ahead }, ready: [], missing: null };
  let next = last;
  let taken = 0;
  while (taken < ahead.length && ahead[taken]!.seq === next + 1) next = ahead[taken++]!.seq;
  const ready = ahead.slice(0, taken);
  const rest = ahead.slice(taken);
  return { order: { last: next, ahead: rest }, ready, missing: rest.length > 0 ? { afterSeq: next, untilSeq: rest[0]!.seq - 1 } : null };
}

/** The open answered: events up to `lastSeq` are in its answer; those held since are admitted. */
export function opened(order: EventOrder, lastSeq: number): Admitted {
  return admit({ last: lastSeq, ahead: order.ahead }, []);
}

/**
 * What a fetch of `range` answered: every event the log holds there. A number in the range it
 * did not answer was never stored (a crash between publishing and writing): nothing waits on it.
 */
export function filled(order: EventOrder, range: MissingRange, events: readonly SessionEvent[]): Admitted {
  let result = admit(order, events);
  const ready = result.ready.slice();
  while (result.missing && result.missing.untilSeq <= range.untilSeq) {
    result = admit({ last: result.missing.untilSeq, ahead: result.order.ahead }, []);
    ready.push(...result.ready);
  }
  return { ...result, ready };
}
