/**
 * Title, folders (with Add folder), permission mode, persona, the usage meter, and Delete. In a
 * window narrower than ONE_LINE_HEADER_WIDTH the header is one line (title, status and a
 * Session options button); the rest opens below it, over the transcript, so the transcript
 * keeps its height.
 */
import { WorktreeActions } from '../worktrees/WorktreeActions';
import { useId, useState } from 'react';
import { useOneLineHeader } from '../../app/use-panels';
import type { SessionSummary } from '../../../shared/contract';
import { useCove } from '../../store';
import { displayTitle, folderName } from '../../ui/format';
import { StatusBadge } from '../../ui/StatusBadge';
import { FolderInput } from '../workspace/FolderInput';
import { RevealFolderButton } from '../workspace/RevealFolderButton';
import { PersonaPicker, PersonaProblems } from './PersonaPicker';
import { UsageMeter } from './UsageMeter';
import { TodoChecklist } from './TodoChecklist';
import { ReviewChangesButton } from '../checkpoints/ReviewChanges';

export const MODE_LABELS: Record<string, string> = {
  default: 'Ask before changes',
  acceptEdits: 'Accept file edits',
  plan: 'Plan (read only)',
  bypass: 'Bypass (never ask)',
};

export function SessionHeader({ session }: { session: SessionSummary }) {
  const oneLine = useOneLineHeader();
  const [optionsOpen, setOptionsOpen] = useState(false);
  const optionsId = useId();
  const title = displayTitle(session.title);

  if (!oneLine) {
    return (
      <header className="session-header">
        <div className="session-heading">
          <h1 className="session-name" title={title}>
            {title}
          </h1>
          <StatusBadge status={session.status} />
          <UsageMeter session={session} />
        </div>
        <SessionControls session={session} />
        <TodoChecklist sessionId={session.id} />
      </header>
    );
  }
  return (
    <header
      className="session-header one-line"
      onKeyDown={(event) => {
        // A dialog opened from the options (Review changes) closes itself on Escape; the options stay.
        if (!optionsOpen || event.key !== 'Escape' || event.defaultPrevented || (event.target as Element).closest('dialog')) return;
        event.preventDefault();
        setOptionsOpen(false);
        event.currentTarget.querySelector<HTMLButtonElement>('.session-options-button')?.focus();
      }}
    >
      <div className="session-heading">
        <h1 className="session-name" title={title}>
          {title}
        </h1>
        <StatusBadge status={session.status} />
        <button
          type="button"
          className="session-options-button"
          aria-label="Session options"
          aria-expanded={optionsOpen}
          aria-controls={optionsOpen ? optionsId : undefined}
          onClick={() => setOptionsOpen(!optionsOpen)}
        >
          Options <span aria-hidden="true">{optionsOpen ? '▴' : '▾'}</span>
        </button>
      </div>
      {optionsOpen ? (
        // Below the one line, over the transcript; Escape closes it and gives focus back to its button.
        <div id={optionsId} className="session-options" role="group" aria-label="Session options">
          <UsageMeter session={session} />
          <SessionControls session={session} />
          <TodoChecklist sessionId={session.id} />
        </div>
      ) : null}
    </header>
  );
}

function SessionControls({ session }: { session: SessionSummary }) {
  const setSessionMode = useCove((state) => state.setSessionMode);
  const deleteSession = useCove((state) => state.deleteSession);
  const [confirming, setConfirming] = useState(false);
  const [adding, setAdding] = useState(false);
  return (
    <div className="session-controls">
      <ul className="folders" aria-label="Workspace folders">
        {session.workspaces.map((path) => (
          <li key={path} className="folder-chip" title={path}>
            {folderName(path)}
            <RevealFolderButton sessionId={session.id} path={path} name={folderName(path)} />
          </li>
        ))}
      </ul>
      {adding ? (
        <AddFolder sessionId={session.id} onDone={() => setAdding(false)} />
      ) : (
        <button type="button" onClick={() => setAdding(true)}>
          Add folder
        </button>
      )}
      <label className="inline-field mode-field" title="Permission mode">
        <span>Permission mode</span>
        <select value={session.permissionMode} onChange={(event) => void setSessionMode(session.id, event.target.value)}>
          {Object.entries(MODE_LABELS).map(([mode, label]) => (
            <option key={mode} value={mode}>
              {label}
            </option>
          ))}
        </select>
      </label>
      <PersonaPicker session={session} />
      <ReviewChangesButton sessionId={session.id} />
      <WorktreeActions sessionId={session.id} running={session.status === 'running' || session.status === 'waiting'} />
      {confirming ? (
        <span className="confirm">
          <button type="button" className="danger" onClick={() => void deleteSession(session.id)}>
            Confirm delete
          </button>
          <button type="button" onClick={() => setConfirming(false)}>
            Cancel
          </button>
        </span>
      ) : (
        <button type="button" onClick={() => setConfirming(true)}>
          Delete session
        </button>
      )}
      <PersonaProblems sessionId={session.id} />
    </div>
  );
}

function AddFolder({ sessionId, onDone }: { sessionId: string; onDone(): void }) {
  const addWorkspace = useCove((state) => state.addWorkspace);
  const [path, setPath] = useState('');
  const submit = async () => {
    if (path.trim() === '') return;
    if (await addWorkspace(sessionId, path.trim())) onDone();
  };
  return (
    <span className="add-folder">
      <FolderInput label="Folder to add" value={path} onChange={setPath} onSubmit={() => void submit()} autoFocus />
      <button type="button" onClick={() => void submit()}>
        Add
      </button>
      <button type="button" onClick={onDone}>
        Cancel
      </button>
    </span>
  );
}
