/**
 * At the end of a worktree session's run (its last row is the run's end, nothing sent since),
 * the session offers what to do with the branch: review its diff against the base, merge it, or
 * discard it. Drawn again after a reload for as long as that holds; the header keeps the same
 * buttons for later.
 */
import { useCove } from '../../store';
import { openReview } from '../checkpoints/ReviewChanges';
import { MergeDiscard } from './WorktreeActions';
import { useWorktreeState } from './worktree-state';

export function WorktreeEndOffer({ sessionId }: { sessionId: string }) {
  const worktree = useWorktreeState((state) => state.views[sessionId]);
  const atRunEnd = useCove((state) => state.transcript?.sessionId === sessionId && !state.transcript.state.running && state.transcript.state.items.at(-1)?.kind === 'runEnd');
  const running = useCove((state) => state.sessions[sessionId]?.status === 'running' || state.sessions[sessionId]?.status === 'waiting');
  if (!worktree || !atRunEnd || running) return null;
  return (
    <section className="worktree-end-offer" aria-label="The session's branch">
      <p>
        The work of this run is on <code>{worktree.branch}</code>, not yet in <code>{worktree.baseBranch}</code>.
      </p>
      <div className="worktree-end-actions">
        <button type="button" className="primary" onClick={() => openReview(sessionId, 'branch')}>
          Review the branch
        </button>
        <MergeDiscard sessionId={sessionId} running={running} baseBranch={worktree.baseBranch} />
      </div>
    </section>
  );
}
