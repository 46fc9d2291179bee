/** The center view with no session open: pick a folder (typed, completed, or dropped), then start. */
import { useState } from 'react';
import { FOLDER_INPUT_ID } from '../../app/use-global-shortcuts';
import { useCove } from '../../store';
import { NEW_SESSION_DRAFT } from '../../store/composer-slice';
import type { FolderCheck } from '../../store/workspace-slice';
import { Composer } from '../composer/Composer';
import { FolderInput } from './FolderInput';
import { WorktreeChoice, useWorktreeSupport } from '../worktrees/WorktreeChoice';

const STATUS_ID = 'project-folder-status';

export function NewSession() {
  const folderDraft = useCove((state) => state.folderDraft);
  const folderCheck = useCove((state) => state.folderCheck);
  const setFolderDraft = useCove((state) => state.setFolderDraft);
  const checkFolder = useCove((state) => state.checkFolder);
  const createSession = useCove((state) => state.createSession);
  const sendFirstMessage = useCove((state) => state.sendFirstMessage);
  const [busy, setBusy] = useState(false);
  const [createError, setCreateError] = useState<string | null>(null);
  const [worktree, setWorktree] = useState(false);
  const worktreeSupport = useWorktreeSupport(folderCheck.status === 'ok' ? folderCheck.path : null);

  const checked = folderCheck.status !== 'idle' && folderCheck.status !== 'checking';
  const check = () => (folderDraft.trim() === '' ? Promise.resolve(folderCheck) : checkFolder(folderDraft));

  const start = async () => {
    setCreateError(null);
    const result = folderCheck.status === 'ok' ? folderCheck : await checkFolder(folderDraft);
    if (result.status !== 'ok') return;
    setBusy(true);
    const created = await createSession(result.path, { worktree: worktree && worktreeSupport?.available === true });
    setBusy(false);
    if (typeof created === 'string') {
      setCreateError(created);
      return;
    }
    setFolderDraft('');
    await sendFirstMessage(created.id);
  };

  return (
    <section className="new-session" aria-labelledby="new-session-title">
      <h1 id="new-session-title">New session</h1>
      <p className="hint">Choose the project folder Cove works in: drop it anywhere on this window, or type or paste its path.</p>
      <label className="field-label" htmlFor={FOLDER_INPUT_ID}>
        Project folder
      </label>
      <div className="folder-row">
        <FolderInput
          id={FOLDER_INPUT_ID}
          label="Project folder"
          value={folderDraft}
          autoFocus
          invalid={folderCheck.status === 'error'}
          describedBy={STATUS_ID}
          onChange={(value) => {
            setFolderDraft(value);
            setCreateError(null);
          }}
          onSubmit={() => void check()}
          onBlur={() => {
            if (!checked && folderDraft.trim() !== '') void check();
          }}
        />
        <button type="button" onClick={() => void check()}>
          Check folder
        </button>
      </div>
      <FolderStatus check={folderCheck} />
      <WorktreeChoice support={worktreeSupport} checked={worktree} onChange={setWorktree} />
      {createError ? (
        <p role="alert" className="inline-error">
          {createError}
        </p>
      ) : null}
      <Composer
        draftKey={NEW_SESSION_DRAFT}
        submitLabel="Start session"
        placeholder="What should Cove do? (optional — Enter starts the session)"
        allowEmpty
        busy={busy}
        onSubmit={() => void start()}
      />
    </section>
  );
}

function FolderStatus({ check }: { check: FolderCheck }) {
  if (check.status === 'error') {
    return (
      <p id={STATUS_ID} role="alert" className="inline-error">
        {check.message}
      </p>
    );
  }
  return (
    <p id={STATUS_ID} role="status" className="folder-status">
      {check.status === 'checking' ? 'Checking…' : check.status === 'ok' ? `✓ ${check.name} — ${check.path}` : ''}
    </p>
  );
}
