/** Visible from anywhere: other sessions waiting for an answer, with a way to go there. */
import { useMemo } from 'react';
import { useCove } from '../../store';
import { displayTitle } from '../../ui/format';
import { pendingCounts, waitingSessions } from './sorted-sessions';

export function WaitingBanner() {
  const sessions = useCove((state) => state.sessions);
  const pending = useCove((state) => state.pending);
  const activeSessionId = useCove((state) => state.activeSessionId);
  const selectSession = useCove((state) => state.selectSession);
  const waiting = useMemo(() => waitingSessions(sessions, pendingCounts(sessions, pending), activeSessionId), [sessions, pending, activeSessionId]);
  if (waiting.length === 0) return null;
  const first = waiting[0]!;
  const title = displayTitle(first.title);
  const text = waiting.length === 1 ? `“${title}” is waiting for you` : `${waiting.length} sessions are waiting for you`;
  return (
    <div role="status" className="banner banner-attention waiting-banner">
      <span>{text}</span>
      <button type="button" onClick={() => selectSession(first.id)}>
        Go to “{title}”
      </button>
    </div>
  );
}
