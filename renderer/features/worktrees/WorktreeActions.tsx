/**
 * A worktree session's end, in its header: which branch it works on and from where, **Merge**
 * (into the branch the repository was on; a conflict is refused by main with nothing changed,
 * and said here) and **Discard** (asks once more: the work is thrown away). Both through the
 * contract, so `cove serve` and the desktop app behave alike. The same buttons are offered at
 * the end of a run (WorktreeEndOffer) and in the review pane's branch view.
 */
import { useEffect, useState } from 'react';
import { finishWorktree, loadWorktree, useWorktreeState } from './worktree-state';

export function WorktreeActions({ sessionId, running }: { sessionId: string; running: boolean }) {
  const worktree = useWorktreeState((state) => state.views[sessionId]);
  const outcome = useWorktreeState((state) => state.outcomes[sessionId]);

  useEffect(() => {
    void loadWorktree(sessionId);
  }, [sessionId]);

  if (!worktree)
    return outcome ? (
      <p role="status" className="worktree-outcome">
        {outcome.text}
      </p>
    ) : null;

  return (
    <div className="worktree-actions" role="group" aria-label="Worktree">
      <span className="worktree-branch">
        Worktree <code>{worktree.branch}</code> from <code>{worktree.baseBranch}</code>
      </span>
      <MergeDiscard sessionId={sessionId} running={running} baseBranch={worktree.baseBranch} />
      {outcome?.failed ? (
        <p role="alert" className="inline-error">
          {outcome.text}
        </p>
      ) : null}
    </div>
  );
}

/** Merge, and Discard behind a second click. */
export function MergeDiscard({ sessionId, running, baseBranch }: { sessionId: string; running: boolean; baseBranch: string }) {
  const busy = useWorktreeState((state) => state.busy[sessionId] === true);
  const [confirming, setConfirming] = useState(false);
  const finish = (action: 'merge' | 'discard') => {
    setConfirming(false);
    void finishWorktree(sessionId, action);
  };
  return (
    <>
      <button type="button" disabled={busy || running} onClick={() => finish('merge')}>
        Merge into {baseBranch}
      </button>
      {confirming ? (
        <span className="confirm">
          <button type="button" className="danger" disabled={busy} onClick={() => finish('discard')}>
            Discard the worktree&apos;s work
          </button>
          <button type="button" onClick={() => setConfirming(false)}>
            Keep it
          </button>
        </span>
      ) : (
        <button type="button" disabled={busy || running} onClick={() => setConfirming(true)}>
          Discard worktree
        </button>
      )}
    </>
  );
}
