/**
 * `cove sessions --changes ID [--json]`: per prompt and for the whole session, each changed
 * file with its diff (redacted with the workspace's secrets). JSON is one object:
 * `{id, prompts: [{prompt, text, files: [{root, path, change, diff}]}], session: [...], problems}`.
 */
import type { RevertView } from '../../shared/contract';
import { defaultDataDir, openStore } from '../core/store';
import { sessionChanges, type FileChange } from '../core/checkpoints/changes';
import { timelineOf } from '../core/checkpoints/timeline';
import { workspaceSecrets } from '../core/tools/registry';
import { UsageError } from './args';
import { EXIT } from './exit-codes';
import { worktreeChanges, worktreeOf } from '../core/worktrees';

function fileLines(files: readonly FileChange[], withDiffs: boolean): string[] {
  if (files.length === 0) return ['  no files changed'];
  const marks = { added: 'A', modified: 'M', deleted: 'D' } as const;
  return files.flatMap((file) => [`  ${marks[file.change]} ${file.root}/${file.path}`, ...(withDiffs && file.diff ? [file.diff.trimEnd().replace(/^/gm, '    ')] : [])]);
}

function revertLine(revert: RevertView): string {
  const what = revert.scope === 'hunk' ? `the hunk ${revert.hunk} of ${revert.paths.join(', ')}` : revert.paths.join(', ');
  const of = revert.prompt === undefined ? "the session's change" : `prompt ${revert.prompt}'s change`;
  if (revert.undoes !== undefined) return `  #${revert.seq} undid #${revert.undoes}: ${what} is as the agent left it again`;
  return `  #${revert.seq} reverted ${what} (${of})${revert.undone ? ', undone since' : ''}`;
}

export async function changesCommand(sessionId: string, json: boolean): Promise<number> {
  const dataDir = defaultDataDir();
  const store = openStore(dataDir);
  try {
    const session = store.getSession(sessionId);
    if (!session) throw new UsageError(`cove sessions: --changes ${sessionId}: no such session (see cove sessions)`);
    const secrets = await workspaceSecrets(session.workspaces, (message) => process.stderr.write(`cove: ${message}\n`));
    const fromCheckpoints = await sessionChanges({ coveHome: dataDir, workspaceRoots: session.workspaces, timeline: timelineOf(store.loadEvents(session.id)), secrets });
    const worktree = worktreeOf(dataDir, session.id);
    const changes = worktree ? { ...fromCheckpoints, worktree: await worktreeChanges(worktree, secrets) } : fromCheckpoints;
    if (json) process.stdout.write(`${JSON.stringify({ id: session.id, ...changes })}\n`);
    else {
      const lines: string[] = [];
      for (const prompt of changes.prompts) lines.push(`prompt ${prompt.prompt}: ${prompt.text.split('\n')[0]}`, ...fileLines(prompt.files, true));
      lines.push('whole session:', ...fileLines(changes.session, false));
      if (changes.reverts) {
        lines.push('put back in the review pane:', ...changes.reverts.map(revertLine));
        const standing = changes.reverts.findLast((revert) => revert.undoes === undefined && !revert.undone);
        if (standing) lines.push(`  (cove rewind ${session.id} --undo-revert ${standing.seq} puts the agent's change back)`);
      }
      if (changes.worktree)
        lines.push(`branch ${changes.worktree.branch} against ${changes.worktree.baseBranch} (${changes.worktree.baseCommit.slice(0, 12)}):`, ...fileLines(changes.worktree.files, true));
      process.stdout.write(`${lines.join('\n')}\n`);
    }
    for (const problem of changes.problems) process.stderr.write(`cove: ${problem}\n`);
    return changes.problems.length > 0 ? EXIT.failed : EXIT.ok;
  } finally {
    store.close();
  }
}
