/**
 * The worktree requests of the contract: the session's worktree, Merge, Discard, and whether a
 * folder can have one (the New session checkbox is disabled, with this reason, when it cannot).
 */
import type { SessionManager } from '../sessions/session-manager';
import { discardWorktree, mergeWorktree, worktreeOf, worktreeSupport, worktreeView, WorktreeError } from '../worktrees';
import { ApiError, type Handlers } from './dispatch';
import { checkWorkspace } from './workspace-paths';

type WorktreeRequests = 'session:worktree' | 'session:mergeWorktree' | 'session:discardWorktree' | 'workspace:worktreeSupport';

/** A refusal (a conflict, a running session, another branch checked out) is an answer the person can act on. */
async function refusedAsConflict<T>(task: () => Promise<T>): Promise<T> {
  try {
    return await task();
  } catch (error) {
    if (error instanceof WorktreeError) throw ApiError.conflict(error.message);
    throw error;
  }
}

export function createWorktreeHandlers(manager: SessionManager, dataDir: string): Pick<Handlers, WorktreeRequests> {
  return {
    'session:worktree': ({ sessionId }) => {
      if (!manager.getSession(sessionId)) throw ApiError.notFound(`no session with id ${sessionId}`);
      const worktree = worktreeOf(dataDir, sessionId);
      return { worktree: worktree ? worktreeView(worktree) : null };
    },
    'session:mergeWorktree': ({ sessionId }) => refusedAsConflict(() => mergeWorktree(manager, dataDir, sessionId)),
    'session:discardWorktree': ({ sessionId }) => refusedAsConflict(() => discardWorktree(manager, dataDir, sessionId)),
    'workspace:worktreeSupport': async ({ path }) => {
      const checked = await checkWorkspace(path);
      const support = await worktreeSupport(checked.path);
      return support.available ? { available: true, branch: support.branch } : { available: false, reason: support.reason };
    },
  };
}
