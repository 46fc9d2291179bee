/**
 * What a worktree session's branch holds against its base commit: its commits and the work not
 * yet committed in the worktree (new files included), file by file with diffs, the review pane's
 * and `cove sessions --changes`' view of a worktree session. Read-only: nothing is staged or
 * committed to answer it.
 */
import type { ChangedFileView, WorktreeChangesView } from '../../../shared/contract';
import type { SecretRedactor } from '../agent/types';
import { MAX_DIFF_CHARS } from '../checkpoints/changes';
import { gitOutput, runGit } from './user-git';
import type { SessionWorktree } from './session-worktree';

const CHANGE_NAMES: Record<string, ChangedFileView['change']> = { A: 'added', D: 'deleted', M: 'modified', T: 'modified' };

function bounded(diff: string): string {
  return diff.length <= MAX_DIFF_CHARS ? diff : `${diff.slice(0, MAX_DIFF_CHARS)}\n… diff cut at ${MAX_DIFF_CHARS} characters (${diff.length} in all)\n`;
}

function nulList(text: string): string[] {
  return text.split('\0').filter((part) => part.length > 0);
}

export async function worktreeChanges(worktree: SessionWorktree, secrets: SecretRedactor): Promise<WorktreeChangesView> {
  const files: ChangedFileView[] = [];
  const diffArgs = ['diff', '--no-color', '--no-ext-diff', '--no-textconv', '--no-renames'];
  const names = nulList(await gitOutput(worktree.path, [...diffArgs, '-z', '--name-status', worktree.baseCommit]));
  for (let index = 0; index + 1 < names.length; index += 2) {
    const path = names[index + 1]!;
    const diff = await gitOutput(worktree.path, [...diffArgs, worktree.baseCommit, '--', path]);
    files.push({ root: worktree.path, path, change: CHANGE_NAMES[names[index]!.slice(0, 1)] ?? 'modified', diff: bounded(secrets.redact(`${diff}\n`).text) });
  }
  for (const path of nulList(await gitOutput(worktree.path, ['ls-files', '-z', '--others', '--exclude-standard']))) {
    // --no-index exits 1 when the files differ, which a new file always does.
    const diff = await runGit(worktree.path, [...diffArgs, '--no-index', '--', '/dev/null', path]);
    files.push({ root: worktree.path, path, change: 'added', diff: bounded(secrets.redact(diff.stdout).text) });
  }
  files.sort((a, b) => a.path.localeCompare(b.path));
  return { branch: worktree.branch, baseBranch: worktree.baseBranch, baseCommit: worktree.baseCommit, path: worktree.path, files };
}
