/**
 * The review pane: per prompt and for the whole session, each file the session changed with its
 * diff, read from its checkpoints in main (`session:changes`, the same as `cove sessions
 * --changes`). Opened from the session header; read afresh each time it opens. Diffs show
 * unified or side by side (remembered); a file or one hunk can be reverted; comments on lines
 * are collected and sent to the agent as one prompt.
 */
import { useEffect, useState } from 'react';
import { create } from 'zustand';
import type { ChangedFileView, SessionChangesView, WorktreeChangesView } from '../../../shared/contract';
import { useCove } from '../../store';
import { MergeDiscard } from '../worktrees/WorktreeActions';
import { useWorktreeState } from '../worktrees/worktree-state';
import { ask } from '../../store/request';
import { cancelExpectedPrompt, expectPrompt } from '../../store/sent-here';
import { Dialog } from '../../ui/Dialog';
import { commentsPrompt, type LineComment, type ReviewHunk } from './review-diff';
import { ReviewDiff, type ReviewLayout } from './ReviewDiff';
import { useReviewComments, useSessionComments } from './review-comments';

const CHANGE_LABELS = { added: 'Added', modified: 'Modified', deleted: 'Deleted' } as const;

/** Puts one file back as it was before a prompt; a file changed by hand since is left alone, and the reason shown. */
type Revert = (file: ChangedFileView) => void;

const LAYOUT_KEY = 'cove.review.layout';

/** The layout last chosen, kept in localStorage so it outlives the window; storage may be off. */
function readLayout(): ReviewLayout {
  try {
    return window.localStorage.getItem(LAYOUT_KEY) === 'split' ? 'split' : 'unified';
  } catch {
    return 'unified';
  }
}

function writeLayout(layout: ReviewLayout): void {
  try {
    window.localStorage.setItem(LAYOUT_KEY, layout);
  } catch {
    // Not remembered after a restart; the pane keeps it while open.
  }
}

interface Review {
  layout: ReviewLayout;
  comments: readonly LineComment[];
  comment(comment: LineComment): void;
  removeComment(comment: LineComment): void;
  /** Reverts one hunk of a prompt's change, or of the whole session's when `prompt` is undefined. */
  revertHunk(file: ChangedFileView, hunk: ReviewHunk, prompt: number | undefined): void;
}

/** The branch view: comments, but no revert (its diff is git's, not the checkpoints'). */
type ReadOnlyReview = Omit<Review, 'revertHunk'>;

const sameFile = (comment: LineComment, file: ChangedFileView) => comment.root === file.root && comment.path === file.path;

function FileList({ files, label, revert, review, prompt }: { files: readonly ChangedFileView[]; label: string; revert?: Revert; review: Review | ReadOnlyReview; prompt?: number }) {
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
          {file.diff ? (
            <ReviewDiff
              file={file}
              layout={review.layout}
              comments={review.comments.filter((comment) => sameFile(comment, file))}
              onComment={review.comment}
              onRemoveComment={review.removeComment}
              onRevertHunk={'revertHunk' in review ? (hunk) => review.revertHunk(file, hunk, prompt) : undefined}
            />
          ) : null}
        </li>
      ))}
    </ul>
  );
}

/**
 * Which session's review pane is open. Kept outside the header, which draws its controls in
 * another place (or not at all) when the window narrows: the pane must stay open through that.
 */
const useReviewOpen = create<{ sessionId: string | null; scope?: ReviewScope }>(() => ({ sessionId: null }));

type ReviewScope = 'prompts' | 'session' | 'branch';

/** Opens the pane on a session, on one of its views when given (the run-end offer opens the branch). */
export function openReview(sessionId: string, scope?: ReviewScope): void {
  useReviewOpen.setState({ sessionId, scope });
}

/** The header's button; the pane itself is drawn by the session view (`ReviewChanges`). */
export function ReviewChangesButton({ sessionId }: { sessionId: string }) {
  const drafts = useSessionComments(sessionId).length;
  return (
    <button type="button" onClick={() => useReviewOpen.setState({ sessionId })}>
      Review changes{drafts > 0 ? ` (${drafts === 1 ? '1 comment' : `${drafts} comments`} not sent)` : ''}
    </button>
  );
}

/** A worktree session's branch against the commit it started from: what Merge would bring, with Merge and Discard beside it. */
function BranchChanges({ worktree, review, sessionId }: { worktree: WorktreeChangesView; review: Review; sessionId: string }) {
  const { revertHunk: _checkpointsOnly, ...commentsOnly } = review;
  const running = useCove((state) => state.sessions[sessionId]?.status === 'running' || state.sessions[sessionId]?.status === 'waiting');
  const open = useWorktreeState((state) => state.views[sessionId] !== null);
  const outcome = useWorktreeState((state) => state.outcomes[sessionId]);
  return (
    <section aria-label={`Branch ${worktree.branch}`}>
      <h3 className="review-prompt">
        <code>{worktree.branch}</code> against <code>{worktree.baseBranch}</code> ({worktree.baseCommit.slice(0, 12)}): its commits and the work not yet committed
      </h3>
      {open ? (
        <div className="review-branch-actions" role="group" aria-label="Finish the branch">
          <MergeDiscard sessionId={sessionId} running={running} baseBranch={worktree.baseBranch} />
        </div>
      ) : null}
      {outcome ? (
        <p role={outcome.failed ? 'alert' : 'status'} className={outcome.failed ? 'inline-error' : 'worktree-outcome'}>
          {outcome.text}
        </p>
      ) : null}
      <FileList files={worktree.files} label={`Files on ${worktree.branch}`} review={commentsOnly} />
    </section>
  );
}

export function ReviewChanges({ sessionId }: { sessionId: string }) {
  const [changes, setChanges] = useState<SessionChangesView | null>(null);
  const open = useReviewOpen((state) => state.sessionId === sessionId);
  const setOpen = (value: boolean) => useReviewOpen.setState({ sessionId: value ? sessionId : null });
  const [scope, setScope] = useState<ReviewScope>('prompts');
  const askedScope = useReviewOpen((state) => (state.sessionId === sessionId ? state.scope : undefined));
  const [outcome, setOutcome] = useState<string | null>(null);
  const [layout, setLayout] = useState<ReviewLayout>(readLayout);
  const comments = useSessionComments(sessionId);
  const [sending, setSending] = useState(false);

  const chooseLayout = (next: ReviewLayout) => {
    setLayout(next);
    writeLayout(next);
  };

  const review: Review = {
    layout,
    comments,
    comment: (comment) => useReviewComments.getState().add(sessionId, comment),
    removeComment: (comment) => useReviewComments.getState().remove(sessionId, comment),
    revertHunk: (file, hunk, prompt) => void revertHunk(file, hunk, prompt),
  };

  const revertHunk = async (file: ChangedFileView, hunk: ReviewHunk, prompt: number | undefined) => {
    const report = await ask('session:revertHunk', { sessionId, root: file.root, path: file.path, hunk: hunk.index, ...(prompt === undefined ? {} : { prompt }) });
    if (!report) return;
    setOutcome(report.reverted ? `Reverted the hunk ${report.hunk} of ${file.path}.` : `Not reverted: ${report.reason ?? `${file.path} changed since`}`);
    await load();
  };

  const sendComments = async () => {
    if (comments.length === 0 || sending) return;
    setSending(true);
    const taken = comments;
    expectPrompt(sessionId);
    const sent = await ask('session:send', { sessionId, text: commentsPrompt(taken) });
    setSending(false);
    if (!sent) return cancelExpectedPrompt(sessionId);
    useReviewComments.getState().clear(sessionId, taken);
    setOpen(false);
  };

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

  // Read afresh each time it opens.
  useEffect(() => {
    if (!open) return;
    if (askedScope) setScope(askedScope);
    setOutcome(null);
    setChanges(null);
    void load();
  }, [open]);

  return (
    <>
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
              {changes.worktree ? (
                <button type="button" aria-pressed={scope === 'branch'} onClick={() => setScope('branch')}>
                  Branch against {changes.worktree.baseBranch}
                </button>
              ) : null}
            </div>
            <div className="review-layout" role="group" aria-label="Diff layout">
              <button type="button" aria-pressed={layout === 'unified'} onClick={() => chooseLayout('unified')}>
                Unified
              </button>
              <button type="button" aria-pressed={layout === 'split'} onClick={() => chooseLayout('split')}>
                Side by side
              </button>
            </div>
            {outcome ? <p role="status">{outcome}</p> : null}
            {comments.length > 0 ? (
              <section className="review-comments" aria-label="Your review comments">
                <p>
                  {comments.length === 1 ? '1 comment' : `${comments.length} comments`} for the agent: {comments.map((comment) => `${comment.path}:${comment.line}`).join(', ')}
                </p>
                <button type="button" className="primary" disabled={sending} onClick={() => void sendComments()}>
                  {sending ? 'Sending…' : comments.length === 1 ? 'Send the comment to the agent' : `Send ${comments.length} comments to the agent`}
                </button>
              </section>
            ) : null}
            {changes.problems.map((problem) => (
              <p key={problem} role="alert">
                {problem}
              </p>
            ))}
            {scope === 'branch' && changes.worktree ? (
              <BranchChanges worktree={changes.worktree} review={review} sessionId={sessionId} />
            ) : scope === 'session' ? (
              <FileList files={changes.session} label="Files the session changed" review={review} />
            ) : (
              changes.prompts.map((prompt) => (
                <section key={prompt.prompt} aria-label={`Prompt ${prompt.prompt}`}>
                  <h3 className="review-prompt">
                    Prompt {prompt.prompt}: {prompt.text.split('\n')[0]}
                  </h3>
                  <FileList
                    files={prompt.files}
                    label={`Files prompt ${prompt.prompt} changed`}
                    revert={(file) => void revertTo(prompt.prompt)(file)}
                    review={review}
                    prompt={prompt.prompt}
                  />
                </section>
              ))
            )}
          </div>
        )}
      </Dialog>
    </>
  );
}
