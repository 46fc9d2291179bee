/**
 * Worktree sessions as the hosts use them: `cove run --worktree`, `cove sessions --merge` /
 * `--discard` and the contract's `session:create {worktree}`, `session:mergeWorktree`,
 * `session:discardWorktree` all go through these, so every host behaves alike.
 */
import type { WorktreeView } from '../../../shared/contract';
import type { SessionRecord } from '../store';
import type { SessionManager } from '../sessions/session-manager';
import { createSessionWorktree, discardSessionWorktree, mergeSessionWorktree, worktreeOf, worktreeSupport, WorktreeError, type MergeOutcome, type SessionWorktree } from './session-worktree';

export { worktreeOf, worktreeSupport, WorktreeError, type SessionWorktree } from './session-worktree';
export { worktreeChanges } from './worktree-changes';

export function worktreeView(worktree: SessionWorktree): WorktreeView {
  return { branch: worktree.branch, baseBranch: worktree.baseBranch, baseCommit: worktree.baseCommit, path: worktree.path, workspace: worktree.workspace };
}

/**
 * Creates a session whose first root is a worktree of its own. Whether one can be made is asked
 * before the session exists, so a refusal leaves nothing behind.
 */
export async function createWorktreeSession(
  manager: SessionManager,
  coveHome: string,
  input: { workspaces: string[]; model: string; permissionMode: string; title?: string },
): Promise<{ session: SessionRecord; worktree: SessionWorktree }> {
  const support = await worktreeSupport(input.workspaces[0]!);
  if (!support.available) throw new WorktreeError(`no worktree for this session: ${support.reason}`);
  const created = manager.createSession(input);
  let worktree: SessionWorktree;
  try {
    worktree = await createSessionWorktree({ coveHome, sessionId: created.id, workspace: input.workspaces[0]! });
  } catch (error) {
    manager.deleteSession(created.id);
    throw error;
  }
  const session = manager.updateSession(created.id, { workspaces: [worktree.root, ...input.workspaces.slice(1).filter((root) => root !== worktree.root)] });
  return { session, worktree };
}

/** What Merge and Discard need of the sessions: the session manager, or the CLI's store. */
export type WorktreeSessions = Pick<SessionManager, 'getSession' | 'isRunning' | 'updateSession'>;

function requireWorktree(manager: WorktreeSessions, coveHome: string, sessionId: string): { session: SessionRecord; worktree: SessionWorktree } {
  const session = manager.getSession(sessionId);
  if (!session) throw new WorktreeError(`${sessionId}: no such session`);
  const worktree = worktreeOf(coveHome, sessionId);
  if (!worktree) throw new WorktreeError(`session ${sessionId} has no worktree of its own (it works in ${session.workspaces.join(', ')})`);
  if (manager.isRunning(sessionId)) throw new WorktreeError(`session ${sessionId} is running; stop it before merging or discarding its worktree`);
  return { session, worktree };
}

/** After Merge or Discard the session works in the person's own folder again. */
function backToWorkspace(manager: WorktreeSessions, session: SessionRecord, worktree: SessionWorktree): void {
  manager.updateSession(session.id, { workspaces: [...new Set(session.workspaces.map((root) => (root === worktree.root ? worktree.workspace : root)))] });
}

export async function mergeWorktree(manager: WorktreeSessions, coveHome: string, sessionId: string): Promise<MergeOutcome & { workspace: string }> {
  const { session, worktree } = requireWorktree(manager, coveHome, sessionId);
  const outcome = await mergeSessionWorktree(worktree);
  backToWorkspace(manager, session, worktree);
  return { ...outcome, workspace: worktree.workspace };
}

export async function discardWorktree(manager: WorktreeSessions, coveHome: string, sessionId: string): Promise<{ workspace: string }> {
  const { session, worktree } = requireWorktree(manager, coveHome, sessionId);
  await discardSessionWorktree(worktree);
  backToWorkspace(manager, session, worktree);
  return { workspace: worktree.workspace };
}
