/**
 * Opening a session: `session:open` answers the record, the latest events (enough for the
 * first screen, so a long session opens as fast as a short one) and the seq it read up to;
 * `session:events` answers any range of the log by seq, for the older part and for a gap the
 * window noticed in its live stream.
 */
import type { SessionEvent, SessionSummary } from '../../../shared/contract';
import type { SessionManager } from '../sessions/session-manager';
import type { SessionRecord } from '../store';
import type { Handlers } from './dispatch';

/** Events in the first answer: a screen's worth of items with their deltas and tool output. */
export const FIRST_SCREEN_EVENTS = 400;

export function sessionLogHandlers(
  manager: SessionManager,
  requireSession: (id: string) => SessionRecord,
  summary: (record: SessionRecord) => SessionSummary,
): Pick<Handlers, 'session:open' | 'session:events'> {
  const store = manager.store;
  return {
    'session:open': ({ sessionId }) => {
      const record = requireSession(sessionId);
      // Everything published so far is stored first, so no event numbered up to lastSeq is missing.
      const lastSeq = manager.settleEvents(sessionId);
      const fromSeq = store.redrawStart(sessionId, lastSeq, FIRST_SCREEN_EVENTS);
      const events = store.loadEvents(sessionId, { afterSeq: fromSeq, untilSeq: lastSeq }) as SessionEvent[];
      return { session: summary(record), events, fromSeq, lastSeq, pending: manager.pendingPermissions(sessionId) };
    },
    'session:events': ({ sessionId, afterSeq, untilSeq, limit }) => {
      requireSession(sessionId);
      manager.settleEvents(sessionId);
      return { events: store.loadEvents(sessionId, { afterSeq, ...(untilSeq !== undefined ? { untilSeq } : {}), ...(limit !== undefined ? { limit } : {}) }) as SessionEvent[] };
    },
  };
}
