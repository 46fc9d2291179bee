/**
 * A session's own git worktree (issue 13, build item 5): `git worktree add` of the person's
 * repository on a new branch `cove/<short session id>`, placed under
 * `COVE_HOME/worktrees/<hash of the repository>/<session id>/<repository's name>` (the name
 * last, so the folder reads as the project everywhere it is shown), never inside their tree. The
 * session's first root becomes the matching folder of the worktree, so its tools, bash, sandbox
 * and checkpoints all work there, and parallel sessions in one repository never touch each other
 * nor the person's files, HEAD or index. At the end the session's branch is merged into the
 * branch the repository was on (refused, with nothing changed, when it would conflict) or
 * discarded; either way the worktree and its branch are removed.
 *
 * What is known about a session's worktree is kept beside its folder, in `<session id>.json`.
 */
import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, readdirSync, readFileSync, rmSync, rmdirSync, writeFileSync } from 'node:fs';
import { basename, dirname, join, relative } from 'node:path';
import { gitOutput, runGit, WorktreeError } from './user-git';

export { WorktreeError } from './user-git';

export interface SessionWorktree {
  sessionId: string;
  /** The top folder of the person's repository. */
  repository: string;
  /** The session's workspace root as the person chose it (the repository or a folder in it). */
  workspace: string;
  /** The worktree's top folder. */
  path: string;
  /** The session's root inside the worktree: where `workspace` is in it. */
  root: string;
  branch: string;
  /** The branch the repository was on when the session started, which a merge goes into. */
  baseBranch: string;
  baseCommit: string;
}

export type WorktreeSupport = { available: true; repository: string; branch: string; commit: string } | { available: false; reason: string };

/** Whether a worktree can be made for `workspace`, and why not in words a person can act on. */
export async function worktreeSupport(workspace: string): Promise<WorktreeSupport> {
  const top = await runGit(workspace, ['rev-parse', '--show-toplevel']);
  if (top.code !== 0) return { available: false, reason: `${workspace} is not in a git repository` };
  const repository = top.stdout.trim();
  const commit = await runGit(repository, ['rev-parse', '--verify', '--quiet', 'HEAD^{commit}']);
  if (commit.code !== 0) return { available: false, reason: `the repository ${repository} has no commit yet; make one first` };
  const branch = await runGit(repository, ['symbolic-ref', '--quiet', '--short', 'HEAD']);
  if (branch.code !== 0) return { available: false, reason: `the repository ${repository} is on a detached HEAD; check out a branch for the session's work to merge into` };
  return { available: true, repository, branch: branch.stdout.trim(), commit: commit.stdout.trim() };
}

function worktreesFolder(coveHome: string): string {
  return join(coveHome, 'worktrees');
}

/** `<hash>/<session id>`: the worktree is the one folder in it. */
function sessionFolder(worktree: Pick<SessionWorktree, 'path'>): string {
  return dirname(worktree.path);
}

function recordPath(worktree: Pick<SessionWorktree, 'path'>): string {
  return `${sessionFolder(worktree)}.json`;
}

/** Makes the session's worktree and branch; a WorktreeError says why it cannot (not a repository, no commit, a detached HEAD). */
export async function createSessionWorktree(input: { coveHome: string; sessionId: string; workspace: string }): Promise<SessionWorktree> {
  const support = await worktreeSupport(input.workspace);
  if (!support.available) throw new WorktreeError(`no worktree for this session: ${support.reason}`);
  const hash = createHash('sha256').update(support.repository).digest('hex').slice(0, 16);
  const path = join(worktreesFolder(input.coveHome), hash, input.sessionId, basename(support.repository));
  const branch = `cove/${input.sessionId.slice(-8)}`;
  mkdirSync(dirname(path), { recursive: true });
  await gitOutput(support.repository, ['worktree', 'add', '--quiet', '-b', branch, path, support.commit]);
  const worktree: SessionWorktree = {
    sessionId: input.sessionId,
    repository: support.repository,
    workspace: input.workspace,
    path,
    root: join(path, relative(support.repository, input.workspace)),
    branch,
    baseBranch: support.branch,
    baseCommit: support.commit,
  };
  writeFileSync(recordPath(worktree), `${JSON.stringify(worktree, null, 2)}\n`);
  return worktree;
}

/** The session's worktree while it has one. */
export function worktreeOf(coveHome: string, sessionId: string): SessionWorktree | undefined {
  const folder = worktreesFolder(coveHome);
  if (!existsSync(folder)) return undefined;
  for (const hash of readdirSync(folder)) {
    const file = join(folder, hash, `${sessionId}.json`);
    if (!existsSync(file)) continue;
    try {
      return JSON.parse(readFileSync(file, 'utf8')) as SessionWorktree;
    } catch {
      throw new WorktreeError(`${file} is not readable JSON; remove the worktree by hand (git worktree remove) and that file`);
    }
  }
  return undefined;
}

/** Commits what the session left uncommitted in its worktree, so a merge takes all of it. */
async function commitPending(worktree: SessionWorktree): Promise<void> {
  const status = await gitOutput(worktree.path, ['status', '--porcelain', '--untracked-files=all']);
  if (!status) return;
  await gitOutput(worktree.path, ['add', '--all']);
  // The person's own name where git has one; Cove's where it has none, rather than failing.
  const named = (await runGit(worktree.path, ['config', 'user.email'])).code === 0;
  const identity = named ? [] : ['-c', 'user.name=Cove', '-c', 'user.email=cove@localhost'];
  await gitOutput(worktree.path, [...identity, 'commit', '--quiet', '--no-verify', '-m', `Cove session ${worktree.sessionId}`]);
}

async function removeWorktree(worktree: SessionWorktree, branchDelete: '-d' | '-D'): Promise<void> {
  if (existsSync(worktree.path)) await gitOutput(worktree.repository, ['worktree', 'remove', '--force', worktree.path]);
  await runGit(worktree.repository, ['worktree', 'prune']);
  const branch = await runGit(worktree.repository, ['branch', branchDelete, worktree.branch]);
  if (branch.code !== 0 && !/not found/.test(branch.stderr)) throw new WorktreeError(`git branch ${branchDelete} ${worktree.branch} failed: ${branch.stderr.trim()}`);
  rmSync(recordPath(worktree), { force: true });
  rmSync(sessionFolder(worktree), { recursive: true, force: true });
  try {
    rmdirSync(dirname(sessionFolder(worktree)));
  } catch {
    // Another session of the same repository still has its worktree there.
  }
}

export interface MergeOutcome {
  /** The commit the base branch is at now. */
  commit: string;
  /** How many of the session's commits the base branch did not have. */
  commits: number;
  fastForward: boolean;
}

/**
 * Merges the session's branch into the branch the repository was on, then removes the worktree
 * and the branch. Refused, with the repository as it was, when the repository is on another
 * branch now, when the merge would conflict (asked of `git merge-tree` first, which touches no
 * tree nor index), or when git will not merge over the person's uncommitted changes.
 */
export async function mergeSessionWorktree(worktree: SessionWorktree): Promise<MergeOutcome> {
  const current = await runGit(worktree.repository, ['symbolic-ref', '--quiet', '--short', 'HEAD']);
  const on = current.code === 0 ? current.stdout.trim() : undefined;
  if (on !== worktree.baseBranch) {
    throw new WorktreeError(
      `the repository is on ${on ? `branch ${on}` : 'a detached HEAD'} now, not ${worktree.baseBranch} where the session started; check out ${worktree.baseBranch} to merge ${worktree.branch}`,
    );
  }
  if (existsSync(worktree.path)) await commitPending(worktree);
  const commits = Number(await gitOutput(worktree.repository, ['rev-list', '--count', `${worktree.baseBranch}..${worktree.branch}`]));
  const base = await gitOutput(worktree.repository, ['rev-parse', worktree.baseBranch]);
  const fastForward = (await runGit(worktree.repository, ['merge-base', '--is-ancestor', base, worktree.branch])).code === 0;
  if (commits > 0 && !fastForward) {
    const trial = await runGit(worktree.repository, ['merge-tree', '--write-tree', '--name-only', '--no-messages', worktree.baseBranch, worktree.branch]);
    if (trial.code === 1) {
      const files = trial.stdout.trim().split('\n').slice(1).filter(Boolean);
      throw new WorktreeError(
        `merging ${worktree.branch} into ${worktree.baseBranch} would conflict in ${files.join(', ')}; nothing was changed. Resolve it in ${worktree.path} (or discard the session's work)`,
      );
    }
    if (trial.code !== 0) throw new WorktreeError(`git merge-tree failed: ${trial.stderr.trim()}`);
  }
  if (commits > 0) {
    const merged = await runGit(worktree.repository, ['merge', '--no-edit', '-m', `Merge Cove session ${worktree.sessionId} (${worktree.branch})`, worktree.branch]);
    if (merged.code !== 0) {
      // Never left half-merged: a merge git stopped in the middle is undone.
      if ((await runGit(worktree.repository, ['rev-parse', '--quiet', '--verify', 'MERGE_HEAD'])).code === 0) await runGit(worktree.repository, ['merge', '--abort']);
      const words = `${merged.stderr}\n${merged.stdout}`.trim().split('\n').slice(0, 6).join(' ');
      throw new WorktreeError(`git would not merge ${worktree.branch} into ${worktree.baseBranch}: ${words}; the repository is as it was`);
    }
  }
  await removeWorktree(worktree, '-D');
  return { commit: await gitOutput(worktree.repository, ['rev-parse', 'HEAD']), commits, fastForward };
}

/** Removes the session's worktree and its branch, with all the work on them. */
export async function discardSessionWorktree(worktree: SessionWorktree): Promise<void> {
  await removeWorktree(worktree, '-D');
}
