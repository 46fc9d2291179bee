/**
 * Applies a frame's worth of host events to the store: session summaries, the cross-session
 * map of waiting prompts, and the open transcript (folded in one go).
 */
import type { HostEvent, SessionEvent } from '../../shared/contract';
import { useCove } from './index';

export function applyHostEvents(events: readonly HostEvent[]): void {
  const store = useCove.getState();
  const openId = store.transcript?.sessionId ?? null;
  const live: SessionEvent[] = [];
  let pending = store.pending;
  let answering = store.answering;

  for (const host of events) {
    if (host.kind === 'sessionChanged') store.upsertSession(host.session);
    else if (host.kind === 'sessionDeleted') store.removeSession(host.sessionId);
    else {
      const event = host.event;
      if (event.type === 'permissionRequest') pending = { ...pending, [event.requestId]: event };
      else if (event.type === 'permissionDecision') {
        if (pending[event.requestId]) {
          pending = { ...pending };
          delete pending[event.requestId];
        }
        if (answering[event.requestId]) {
          answering = { ...answering };
          delete answering[event.requestId];
        }
      }
      if (event.sessionId === openId) live.push(event);
    }
  }
  if (pending !== store.pending || answering !== store.answering) useCove.setState({ pending, answering });
  if (openId) store.foldLiveEvents(openId, live);
}
