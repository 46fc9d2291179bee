/**
 * Says what "Interrupted" means and offers to go on. A session is interrupted when Cove quit
 * (or its process died) while a run was going: the calls that had not finished are answered to
 * the model as interrupted, and Resume goes on from the stored history without sending the
 * prompt again.
 */
import type { SessionSummary } from '../../../shared/contract';
import { useCove } from '../../store';

export function RunStateBanner({ session }: { session: SessionSummary }) {
  const retrySession = useCove((state) => state.retrySession);
  const offline = useCove((state) => state.connection.status !== 'open');
  if (session.status !== 'interrupted') return null;
  return (
    <div className="banner banner-warning run-state-banner" role="note" aria-label="Interrupted run">
      <span>
        <strong>Interrupted.</strong> Cove quit while this session was running. Tool calls that had not finished are marked interrupted, and the model will be told their results are unknown.
      </span>{' '}
      <button type="button" className="small" disabled={offline} onClick={() => void retrySession(session.id)}>
        Resume
      </button>
    </div>
  );
}
