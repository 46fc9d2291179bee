/**
 * The stream of host events every window and tab receives: agent events, and session records
 * when they change. Streamed text arrives already coalesced to about one event per 16 ms per
 * block and numbered (sessions/event-sequencer.ts), so each event crosses the bridge as it
 * was stored, under the same seq; which windows get a session's high-rate events is the
 * transports' choice (./session-watch.ts).
 */
import type { HostEvent } from '../../../shared/contract';
import type { SessionManager } from '../sessions/session-manager';
import { summarize } from './handlers';

export function streamHostEvents(manager: SessionManager, emit: (event: HostEvent) => void): () => void {
  const offEvents = manager.subscribe((event) => emit({ kind: 'agent', event }));
  const offSessions = manager.subscribeSessions((record) => emit({ kind: 'sessionChanged', session: summarize(manager, record) }));
  return () => {
    offEvents();
    offSessions();
  };
}
