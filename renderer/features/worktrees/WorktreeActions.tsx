/**
 * A worktree session's end, in its header: which branch it works on and from where, **Merge**
 * (into the branch the repository was on; a conflict is refused by main with nothing changed,
 * and said here) and **Discard** (asks once more: the work is thrown away). Both through the
 * contract, so `cove serve` and the desktop app behave alike.
 */
import { useEffect, useState } from 'react';
import type { WorktreeView } from '../../../shared/contract';
import { call } from '../../transport/client';

export function WorktreeActions({ sessionId, running }: { sessionId: string; running: boolean }) {
  const [worktree, setWorktree] = useState<WorktreeView | null>(null);
  const [outcome, setOutcome] = useState<{ text: string; failed: boolean } | null>(null);
  const [confirming, setConfirming] = useState(false);
  const [busy, setBusy] = useState(false);

  useEffect(() => {
    let current = true;
    setOutcome(null);
    void call('session:worktree', { sessionId }).then((response) => {
      if (current) setWorktree(response.ok ? response.value.worktree : null);
    });
    return () => {
      current = false;
    };
  }, [sessionId]);

  if (!worktree)
    return outcome ? (
      <p role="status" className="worktree-outcome">
        {outcome.text}
      </p>
    ) : null;

  const finish = async (action: 'merge' | 'discard') => {
    setBusy(true);
    setConfirming(false);
    const response = action === 'merge' ? await call('session:mergeWorktree', { sessionId }) : await call('session:discardWorktree', { sessionId });
    setBusy(false);
    if (!response.ok) {
      setOutcome({ text: response.error.message, failed: true });
      return;
    }
    setWorktree(null);
    setOutcome({
      text:
        action === 'merge'
          ? `Merged ${worktree.branch} into ${worktree.baseBranch}; the session works in ${worktree.workspace} again.`
          : `Discarded ${worktree.branch}; the session works in ${worktree.workspace} again.`,
      failed: false,
    });
  };

  return (
    <div className="worktree-actions" role="group" aria-label="Worktree">
      <span className="worktree-branch">
        Worktree <code>{worktree.branch}</code> from <code>{worktree.baseBranch}</code>
      </span>
      <button type="button" disabled={busy || running} onClick={() => void finish('merge')}>
        Merge into {worktree.baseBranch}
      </button>
      {confirming ? (
        <span className="confirm">
          <button type="button" className="danger" disabled={busy} onClick={() => void finish('discard')}>
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
      {outcome ? (
        <p role={outcome.failed ? 'alert' : 'status'} className={outcome.failed ? 'inline-error' : 'worktree-outcome'}>
          {outcome.text}
        </p>
      ) : null}
    </div>
  );
}
