/**
 * Runs `git` on the person's own repository, for the worktree of a session. Unlike the shadow
 * repositories' runner this one reads the person's config (their name for a commit, their merge
 * settings), but never runs their hooks, pagers or editors: a merge Cove makes must not start
 * code the person did not ask for, nor wait for an editor nobody sees.
 */
import { spawnService } from '../checkpoints/spawn-service';

export interface GitOutcome {
  code: number;
  stdout: string;
  stderr: string;
}

export class WorktreeError extends Error {}

/** The environment without GIT_* variables: a Cove started from a git hook must not act on that hook's repository. */
function environment(): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = {};
  for (const [key, value] of Object.entries(process.env)) if (!key.startsWith('GIT_')) env[key] = value;
  return { ...env, GIT_TERMINAL_PROMPT: '0', GIT_EDITOR: 'true', GIT_PAGER: 'cat', LC_ALL: 'C' };
}

/** Resolves with git's exit code and output; rejects only when git cannot start at all. */
export async function runGit(cwd: string, args: readonly string[]): Promise<GitOutcome> {
  // From the helper process, like the checkpoints' git (../checkpoints/spawn-service.ts).
  const result = await spawnService.run({ command: 'git', args: ['-c', 'core.hooksPath=/dev/null', '-c', 'core.quotePath=false', ...args], env: environment(), cwd });
  if (result.error || result.code === null) {
    const missing = result.error?.code === 'ENOENT';
    throw new WorktreeError(missing ? 'git is not installed (a worktree needs the git binary on PATH)' : `git could not run: ${result.error?.message ?? 'it was killed'}`);
  }
  return { code: result.code, stdout: result.stdout.toString('utf8'), stderr: result.stderr.toString('utf8') };
}

/** git's stdout, trimmed; a WorktreeError naming the command and git's last words when it fails. */
export async function gitOutput(cwd: string, args: readonly string[]): Promise<string> {
  const outcome = await runGit(cwd, args);
  if (outcome.code !== 0) {
    const words = outcome.stderr.trim().split('\n').slice(-2).join(' ');
    throw new WorktreeError(`git ${args[0]} failed in ${cwd}${words ? `: ${words}` : ` (exit ${outcome.code})`}`);
  }
  return outcome.stdout.trim();
}
