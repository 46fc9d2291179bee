/**
 * The review pane: per prompt and for the whole session, each file the session changed with its
 * diff, read from its checkpoints in main (`session:changes`, the same as `cove sessions
 * --changes`). Opened from the session header; read afresh each time it opens.
 */
import { useState } from 'react';
import type { ChangedFileView, SessionChangesView } from '../../../shared/contract';
import { ask } from '../../store/request';
import { Dialog } from '../../ui/Dialog';
import { DiffView } from '../tools/DiffView';

const CHANGE_LABELS = { added: 'Added', modified: 'Modified', deleted: 'Deleted' } as const;

/** Puts one file back as it was before a prompt; a file changed by hand since is left alone, and the reason shown. */
type Revert = (file: ChangedFileView) => void;

function FileList({ files, label, revert }: { files: readonly ChangedFileView[]; label: string; revert?: Revert }) {
  if (files.length === 0) return <p className="review-none">No files changed.</p>;
  return (
    <ul className="review-files" aria-label={label}>
      {files.map((file) => (
        <li key={`${file.root}/${file.path}`} aria-label={`${CHANGE_LABELS[file.change]} ${file.path}`}>
          <div className="review-file">
            <span className={`badge review-${file.change}`}>{CHANGE_LABELS[file.change]}</span> <code>{file.path}</code>
            {revert ? (
              <button type="button" className="link-button" onClick={() => revert(file)}>
                Revert file
              </button>
            ) : null}
          </div>
          {file.diff ? <DiffView diff={file.diff} lineNumbers /> : null}
        </li>
      ))}
    </ul>
  );
}

export function ReviewChanges({ sessionId }: { sessionId: string }) {
  const [changes, setChanges] = useState<SessionChangesView | null>(null);
  const [open, setOpen] = useState(false);
  const [scope, setScope] = useState<'prompts' | 'session'>('prompts');
  const [outcome, setOutcome] = useState<string | null>(null);

  const revertTo = (prompt: number) => async (file: ChangedFileView) => {
    const report = await ask('session:rewind', { sessionId, toPrompt: prompt, paths: [`${file.root}/${file.path}`] });
    if (!report) return;
    if (report.conflicts.length > 0) setOutcome(`Not reverted: ${file.path} was changed by hand since the last checkpoint.`);
    else setOutcome(report.applied ? `Reverted ${file.path} to how it was before prompt ${prompt}.` : `${file.path} is already as it was before prompt ${prompt}.`);
    await load();
  };

  const load = async () => {
    setChanges((await ask('session:changes', { sessionId })) ?? { prompts: [], session: [], problems: ['the changes could not be read'] });
  };

  const show = async () => {
    setOpen(true);
    setOutcome(null);
    setChanges(null);
    await load();
  };

  return (
    <>
      <button type="button" onClick={() => void show()}>
        Review changes
      </button>
      <Dialog open={open} title="Changes in this session" onClose={() => setOpen(false)}>
        {changes === null ? (
          <p role="status">Reading the checkpoints…</p>
        ) : (
          <div className="review-pane">
            <div className="review-scope" role="group" aria-label="Show changes">
              <button type="button" aria-pressed={scope === 'prompts'} onClick={() => setScope('prompts')}>
                By prompt
              </button>
              <button type="button" aria-pressed={scope === 'session'} onClick={() => setScope('session')}>
                Whole session
              </button>
            </div>
            {outcome ? <p role="status">{outcome}</p> : null}
            {changes.problems.map((problem) => (
              <p key={problem} role="alert">
                {problem}
              </p>
            ))}
            {scope === 'session' ? (
              <FileList files={changes.session} label="Files the session changed" />
            ) : (
              changes.prompts.map((prompt) => (
                <section key={prompt.prompt} aria-label={`Prompt ${prompt.prompt}`}>
                  <h3 className="review-prompt">
                    Prompt {prompt.prompt}: {prompt.text.split('\n')[0]}
                  </h3>
                  <FileList files={prompt.files} label={`Files prompt ${prompt.prompt} changed`} revert={(file) => void revertTo(prompt.prompt)(file)} />
                </section>
              ))
            )}
          </div>
        )}
      </Dialog>
    </>
  );
}
