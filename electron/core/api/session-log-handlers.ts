/**
 * Opening a session: `session:open` answers the record, the latest events (enough for the
 * first screen, so a long session opens as fast as a short one) and the seq it read up to;
 * `session:events` answers any range of the log by seq, for the older part and for a gap the
 * window noticed in its live stream. Over a transport that writes JSON text the rows go out as
 * stored (./raw-events.ts).
 */
import type { SessionEvent, SessionSummary } from '../../../shared/contract';
import type { SessionManager } from '../sessions/session-manager';
import type { SessionRecord } from '../store';
import type { DispatchOptions, Handlers } from './dispatch';
import { RawEvents } from './raw-events';

/** Events in the first answer: a screen's worth of items with their deltas and tool output. */
export const FIRST_SCREEN_EVENTS = 400;

export function sessionLogHandlers(
  manager: SessionManager,
  requireSession: (id: string) => SessionRecord,
  summary: (record: SessionRecord) => SessionSummary,
): Pick<Handlers, 'session:open' | 'session:events'> {
  const store = manager.store;
  // RawEvents stands in for the events only where the transport said it writes them as text.
  const load = (sessionId: string, range: { afterSeq: number; untilSeq?: number; limit?: number }, options: DispatchOptions): SessionEvent[] =>
    options.rawEvents ? (new RawEvents(store.loadEventTexts(sessionId, range)) as unknown as SessionEvent[]) : (store.loadEvents(sessionId, range) as SessionEvent[]);
  return {
    'session:open': ({ sessionId }, options) => {
      const record = requireSession(sessionId);
      // Everything published so far is stored first, so no event numbered up to lastSeq is missing.
      const lastSeq = manager.settleEvents(sessionId);
      const fromSeq = store.redrawStart(sessionId, lastSeq, FIRST_SCREEN_EVENTS);
      const events = load(sessionId, { afterSeq: fromSeq, untilSeq: lastSeq }, options);
      return { session: summary(record), events, fromSeq, lastSeq, pending: manager.pendingPermissions(sessionId) };
    },
    'session:events': ({ sessionId, afterSeq, untilSeq, limit }, options) => {
      requireSession(sessionId);
      manager.settleEvents(sessionId);
      return { events: load(sessionId, { afterSeq, ...(untilSeq !== undefined ? { untilSeq } : {}), ...(limit !== undefined ? { limit } : {}) }, options) };
    },
  };
}
