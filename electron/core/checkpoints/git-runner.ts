/**
 * Runs the `git` binary for a shadow repository with an environment built from nothing: the
 * person's system and global config, hooks, editors, pagers, credential helpers and
 * `GIT_*` variables never apply, so no user code runs and nothing outside the shadow
 * directory is read as git state or written.
 */
import { spawnService } from './spawn-service';

export class GitError extends Error {
  constructor(
    message: string,
    readonly stderr: string,
    readonly code: number | null,
  ) {
    super(message);
    this.name = 'GitError';
  }

  /** True when the failure came from a full disk, so the report can say so plainly. */
  get diskFull(): boolean {
    return /No space left on device|ENOSPC|Disk quota exceeded/i.test(this.stderr + this.message);
  }
}

/** Config given on every command line, so it holds whatever the shadow repo's own config says. */
const FORCED_CONFIG = [
  'core.hooksPath=/dev/null',
  'core.fsmonitor=false',
  'core.autocrlf=false',
  'core.safecrlf=false',
  'core.quotePath=false',
  'core.symlinks=true',
  'core.untrackedCache=true',
  // Each checkpoint rewrites only the entries it changed, not the whole index of a big tree.
  'core.splitIndex=true',
  'gc.auto=0',
  'maintenance.auto=false',
  'advice.addEmbeddedRepo=false',
  'advice.addIgnoredFile=false',
];

export interface GitInvocation {
  gitDir: string;
  workTree?: string;
  input?: string | Buffer;
  signal?: AbortSignal;
  /** Exit codes besides 0 that are an answer, not a failure (check-ignore's 1: nothing is ignored). */
  acceptExit?: readonly number[];
  /** check-ignore takes paths, not pathspecs, and refuses GIT_LITERAL_PATHSPECS. */
  pathsNotPathspecs?: boolean;
  /** `-c` settings for this command alone. */
  config?: readonly string[];
  /** An index of its own (GIT_INDEX_FILE), for building a tree without touching the repository's index. */
  indexFile?: string;
}

export function gitEnvironment(gitDir: string, workTree?: string): NodeJS.ProcessEnv {
  return {
    PATH: process.env.PATH ?? '/usr/bin:/bin',
    LANG: 'C',
    LC_ALL: 'C',
    // Where git would look for ~/.gitconfig and friends: the shadow directory itself.
    HOME: gitDir,
    XDG_CONFIG_HOME: gitDir,
    GIT_DIR: gitDir,
    ...(workTree ? { GIT_WORK_TREE: workTree } : {}),
    GIT_CONFIG_NOSYSTEM: '1',
    GIT_CONFIG_GLOBAL: '/dev/null',
    GIT_TERMINAL_PROMPT: '0',
    // A path such as `a[1].txt` is a file name, never a glob.
    GIT_LITERAL_PATHSPECS: '1',
    GIT_AUTHOR_NAME: 'Cove',
    GIT_AUTHOR_EMAIL: 'checkpoints@cove.invalid',
    GIT_COMMITTER_NAME: 'Cove',
    GIT_COMMITTER_EMAIL: 'checkpoints@cove.invalid',
  };
}

function withoutLiteralPathspecs(env: NodeJS.ProcessEnv, drop: boolean | undefined): NodeJS.ProcessEnv {
  if (!drop) return env;
  const { GIT_LITERAL_PATHSPECS: _literal, ...rest } = env;
  return rest;
}

/** Runs git and resolves with its stdout; rejects with a GitError naming the command and git's words. */
export async function git(args: readonly string[], invocation: GitInvocation): Promise<Buffer> {
  const argv = [...[...FORCED_CONFIG, ...(invocation.config ?? [])].flatMap((entry) => ['-c', entry]), ...args];
  // Started from a helper process: a fork from Cove's own would copy its memory map in the event loop (./spawn-service.ts).
  const result = await spawnService.run({
    command: 'git',
    args: argv,
    env: {
      ...withoutLiteralPathspecs(gitEnvironment(invocation.gitDir, invocation.workTree), invocation.pathsNotPathspecs),
      ...(invocation.indexFile ? { GIT_INDEX_FILE: invocation.indexFile } : {}),
    },
    cwd: invocation.workTree ?? invocation.gitDir,
    ...(invocation.input === undefined ? {} : { input: invocation.input }),
    ...(invocation.signal ? { signal: invocation.signal } : {}),
  });
  const stderr = result.stderr.toString('utf8').trim();
  if (result.error) {
    const reason = result.error.code === 'ENOENT' ? 'git is not installed (checkpoints need the git binary on PATH)' : `git failed to run: ${result.error.message}`;
    throw new GitError(reason, stderr, result.code);
  }
  const { code } = result;
  if (code === 0 || (code !== null && invocation.acceptExit?.includes(code))) return result.stdout;
  throw new GitError(`git ${args[0]} failed${stderr ? `: ${stderr.split('\n').slice(-2).join(' ')}` : ` (exit ${code})`}`, stderr, code);
}
