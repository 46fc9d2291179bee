/**
 * The stream of host events every window and tab receives: agent events, and session records
 * when they change. Streamed text is coalesced to about one message per 16 ms per stream
 * before it crosses the bridge, so the renderer never receives more than it can paint; any
 * other event first flushes what is waiting, so order is kept.
 */
import type { HostEvent } from '../../../shared/contract';
import type { CoveEvent } from '../../../shared/events';
import { mergeDeltas } from '../sessions/delta-merge';
import type { SessionManager } from '../sessions/session-manager';
import { summarize } from './handlers';

const FRAME_MS = 16;

export function streamHostEvents(manager: SessionManager, emit: (event: HostEvent) => void): () => void {
  let queue: CoveEvent[] = [];
  let timer: NodeJS.Timeout | undefined;
  const flush = () => {
    clearTimeout(timer);
    timer = undefined;
    const batch = queue;
    queue = [];
    for (const event of batch) emit({ kind: 'agent', event });
  };
  const offEvents = manager.subscribe((event) => {
    if (event.type !== 'messageUpdate') {
      flush();
      emit({ kind: 'agent', event });
      return;
    }
    // Deltas of other blocks (a subagent, a second session) may interleave; merge only with the same block.
    const index = queue.findLastIndex((queued) => queued.type === 'messageUpdate' && queued.sessionId === event.sessionId && queued.subagentId === event.subagentId);
    const merged = index >= 0 && index === queue.length - 1 ? mergeDeltas(queue[index] as typeof event, event) : null;
    if (merged) queue[index] = merged;
    else queue.push(event);
    timer ??= setTimeout(flush, FRAME_MS);
  });
  const offSessions = manager.subscribeSessions((record) => {
    flush();
    emit({ kind: 'sessionChanged', session: summarize(manager, record) });
  });
  return () => {
    flush();
    offEvents();
    offSessions();
  };
}
