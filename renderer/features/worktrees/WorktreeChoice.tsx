/**
 * "Work in a separate git worktree" when starting a session: the session then works on a branch
 * of its own in a worktree under Cove's data folder, so parallel sessions in one repository never
 * step on each other. Disabled, with main's reason, for a folder that cannot have one (not a git
 * repository, no commit yet, a detached HEAD).
 */
import { useEffect, useState } from 'react';
import type { RequestResult } from '../../../shared/contract';
import { call } from '../../transport/client';

export type WorktreeSupport = RequestResult<'workspace:worktreeSupport'>;

const REASON_ID = 'worktree-choice-reason';

/** What main says of the checked folder; null while there is none, or while it is being asked. */
export function useWorktreeSupport(folder: string | null): WorktreeSupport | null {
  const [support, setSupport] = useState<{ folder: string; value: WorktreeSupport } | null>(null);
  useEffect(() => {
    if (!folder) return;
    let current = true;
    void call('workspace:worktreeSupport', { path: folder }).then((response) => {
      if (current) setSupport({ folder, value: response.ok ? response.value : { available: false, reason: response.error.message } });
    });
    return () => {
      current = false;
    };
  }, [folder]);
  return folder && support?.folder === folder ? support.value : null;
}

export function WorktreeChoice({ support, checked, onChange }: { support: WorktreeSupport | null; checked: boolean; onChange(checked: boolean): void }) {
  const available = support?.available === true;
  const reason = support === null ? 'Check a folder first.' : available ? `A new branch from ${support.branch}; merge or discard it at the end.` : `Not available: ${support.reason}.`;
  return (
    <div className="worktree-choice">
      <label>
        <input type="checkbox" checked={checked && available} disabled={!available} aria-describedby={REASON_ID} onChange={(event) => onChange(event.target.checked)} />
        Work in a separate git worktree
      </label>
      <p id={REASON_ID} className="hint">
        {reason}
      </p>
    </div>
  );
}
