/** What rewinds, reverts, the review pane and worktree sessions answer over the contract (SPEC §13; see contract.ts). */
/** What a rewind did or would do (SPEC §13): `applied` is false for a dry run or when it stopped at `conflicts`. */
export interface RewindReport {
  toPrompt: number;
  promptText: string;
  changes: Array<{ action: 'revert' | 'restore' | 'remove'; path: string }>;
  /** Files left as they are, each with why. */
  kept: string[];
  /** Files changed by hand since the last checkpoint that the rewind would overwrite; it does only with `force`. */
  conflicts: string[];
  applied: boolean;
  restored: string[];
  removed: string[];
  failed: string[];
  /** The conversation was (or, in a dry run, would be) cut back to before the prompt as well. */
  conversationCut?: boolean;
  /** The prompt asked for, when it was a message steered into a running turn: the rewind goes to `toPrompt`, which started that run. */
  steeredPrompt?: number;
}

/** One file a prompt (or the whole session) changed, with its unified diff (redacted, bounded). */
export interface ChangedFileView {
  root: string;
  path: string;
  change: 'added' | 'modified' | 'deleted';
  diff: string;
}

/** What the review pane's "Revert hunk" did: `reverted` false, with the reason, when the file changed since in those lines. */
export interface HunkRevertReport {
  reverted: boolean;
  root: string;
  path: string;
  /** The hunk's `@@ … @@` line. */
  hunk: string;
  reason?: string;
}

/** What undoing a hunk or file revert did: `undone` false, with the files named, when they changed since the revert. */
export interface UndoRevertReport {
  undone: boolean;
  restored: string[];
  removed: string[];
  /** Files changed since the revert, named when the undo was refused for them. */
  conflicts: string[];
  failed: string[];
}

/** What `cove sessions --changes` lists and the review pane shows. */
export interface SessionChangesView {
  prompts: Array<{ prompt: number; text: string; files: ChangedFileView[] }>;
  session: ChangedFileView[];
  problems: string[];
  /** A session working in its own git worktree: its branch against the base commit, what Merge would bring. */
  worktree?: WorktreeChangesView;
  /** The review pane's hunk and file reverts (and their undoing), oldest first; `session` ends at what they left. */
  reverts?: RevertView[];
}

/** One recorded revert, by the seq of its `revert` event; `undoes` names the revert it undid, `undone` says whether it was. */
export interface RevertView {
  seq: number;
  scope: 'hunk' | 'file';
  prompt?: number;
  paths: string[];
  hunk?: string;
  undoes?: number;
  undone: boolean;
}

/** A worktree session's branch (its commits and the work not yet committed) against the commit it started from. */
export interface WorktreeChangesView {
  branch: string;
  baseBranch: string;
  baseCommit: string;
  /** The worktree's folder, under COVE_HOME/worktrees. */
  path: string;
  files: ChangedFileView[];
}

/** A session's own git worktree, while it has one (see README "A worktree per session"). */
export interface WorktreeView {
  branch: string;
  /** The branch of the person's repository that Merge goes into. */
  baseBranch: string;
  baseCommit: string;
  path: string;
  /** The workspace root the person chose; the session works there again after Merge or Discard. */
  workspace: string;
}
