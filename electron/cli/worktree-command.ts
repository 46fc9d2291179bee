/**
 * `cove sessions --merge ID` and `cove sessions --discard ID`: the end of a worktree session
 * (`cove run --worktree`). Merge brings the session's branch into the branch the repository was
 * on and refuses, changing nothing, when it would conflict; Discard throws the work away. Both
 * remove the worktree and its branch, and the session works in the person's folder again.
 */
import { defaultDataDir, openStore } from '../core/store';
import { discardWorktree, mergeWorktree, WorktreeError, type WorktreeSessions } from '../core/worktrees';
import type { SessionsArgs } from './args';
import { EXIT } from './exit-codes';

export async function worktreeCommand(args: SessionsArgs): Promise<number> {
  const dataDir = defaultDataDir();
  const store = openStore(dataDir);
  try {
    store.recoverInterrupted();
    const sessions: WorktreeSessions = {
      getSession: (id) => store.getSession(id),
      // Another process's run shows in the store's status.
      isRunning: (id) => ['running', 'waiting'].includes(store.getSession(id)?.status ?? ''),
      updateSession: (id, patch) => {
        store.updateSession(id, patch);
        return store.getSession(id)!;
      },
    };
    try {
      if (args.merge !== undefined) {
        const merged = await mergeWorktree(sessions, dataDir, args.merge);
        const line = args.json
          ? JSON.stringify({ id: args.merge, merged: true, ...merged })
          : `merged session ${args.merge}: ${merged.commits} commit(s)${merged.fastForward ? ' (fast-forward)' : ''}, ${merged.workspace} is at ${merged.commit.slice(0, 12)}; its worktree and branch are removed`;
        process.stdout.write(`${line}\n`);
      } else {
        const discarded = await discardWorktree(sessions, dataDir, args.discard!);
        process.stdout.write(
          `${args.json ? JSON.stringify({ id: args.discard, discarded: true, ...discarded }) : `discarded the worktree and branch of session ${args.discard}; it works in ${discarded.workspace} again`}\n`,
        );
      }
      return EXIT.ok;
    } catch (error) {
      if (!(error instanceof WorktreeError)) throw error;
      process.stderr.write(`cove sessions: ${error.message}\n`);
      return EXIT.failed;
    }
  } finally {
    store.close();
  }
}
