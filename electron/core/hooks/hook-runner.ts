/**
 * Runs one hook command: JSON on stdin, stdout and stderr kept up to a bound (the rest is read
 * and dropped, so a chatty hook never blocks on a full pipe nor fills memory), killed with its
 * whole process group at its timeout or when the run is stopped, and its output redacted before
 * anyone sees it. The command runs through a shell, as in Claude Code; `wrap` lets a host put
 * that shell inside the bash OS sandbox.
 */
import { spawn } from 'node:child_process';
import type { SecretRedactor } from '../agent/types';

/** Per stream; enough for any decision or context a hook means to give. */
export const MAX_HOOK_OUTPUT_BYTES = 64 * 1024;

/** How a hook's shell is started; a sandbox wraps it in its own launcher. */
export interface HookLaunch {
  file: string;
  args: string[];
}
/**
 * Puts the shell inside the bash OS sandbox: the launcher to run instead (and what to clean up
 * once it exited), or why none can run here, in which case the hook does not run.
 */
export type WrappedLaunch = (HookLaunch & { release?(): void }) | { refused: string };
/** May answer later: the sandbox check runs in the background, and a hook waits for it rather than blocking the event loop. */
export type HookWrapper = (launch: HookLaunch, cwd: string) => WrappedLaunch | Promise<WrappedLaunch>;

export interface HookRunOptions {
  cwd: string;
  env: NodeJS.ProcessEnv;
  timeoutMs: number;
  redactor: SecretRedactor;
  signal?: AbortSignal;
  wrap?: HookWrapper;
  maxOutputBytes?: number;
}

export interface HookProcessResult {
  /** Null when the hook was killed or could not start. */
  exitCode: number | null;
  stdout: string;
  stderr: string;
  timedOut: boolean;
  /** True when a stream was longer than the bound and was cut. */
  truncated: boolean;
  durationMs: number;
  /** Why it could not start, or was stopped. */
  failure?: string;
}

function shellLaunch(command: string): HookLaunch {
  if (process.platform === 'win32') return { file: process.env.ComSpec ?? 'cmd.exe', args: ['/d', '/s', '/c', command] };
  return { file: '/bin/sh', args: ['-c', command] };
}

class BoundedText {
  private readonly chunks: Buffer[] = [];
  private kept = 0;
  truncated = false;
  constructor(private readonly limit: number) {}
  add(chunk: Buffer): void {
    const room = this.limit - this.kept;
    if (room <= 0) {
      this.truncated = true;
      return;
    }
    if (chunk.length > room) this.truncated = true;
    const part = chunk.length > room ? chunk.subarray(0, room) : chunk;
    this.chunks.push(part);
    this.kept += part.length;
  }
  text(): string {
    return Buffer.concat(this.chunks).toString('utf8');
  }
}

function killGroup(pid: number | undefined): void {
  if (pid === undefined) return;
  // Windows has no process groups to signal; taskkill /T walks the tree of children instead.
  if (process.platform === 'win32') {
    spawn('taskkill', ['/pid', String(pid), '/T', '/F'], { stdio: 'ignore', windowsHide: true }).on('error', () => {});
    return;
  }
  try {
    process.kill(-pid, 'SIGKILL');
  } catch {
    // Already gone.
  }
}

export async function runHookProcess(command: string, input: unknown, options: HookRunOptions): Promise<HookProcessResult> {
  const started = Date.now();
  const limit = options.maxOutputBytes ?? MAX_HOOK_OUTPUT_BYTES;
  const stdout = new BoundedText(limit);
  const stderr = new BoundedText(limit);
  const launch: WrappedLaunch = options.wrap ? await options.wrap(shellLaunch(command), options.cwd) : shellLaunch(command);
  if ('refused' in launch) {
    return { exitCode: null, stdout: '', stderr: '', timedOut: false, truncated: false, durationMs: 0, failure: `was not run: ${launch.refused}` };
  }
  return new Promise((resolve) => {
    let timedOut = false;
    let failure: string | undefined;
    let settled = false;
    // Its own process group, so the timeout reaches everything the hook started.
    const child = spawn(launch.file, launch.args, { cwd: options.cwd, env: options.env, stdio: ['pipe', 'pipe', 'pipe'], detached: process.platform !== 'win32' });
    const finish = (exitCode: number | null) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      launch.release?.();
      options.signal?.removeEventListener('abort', onAbort);
      const redact = (text: string) => options.redactor.redact(text).text;
      resolve({
        exitCode,
        stdout: redact(stdout.text()),
        stderr: redact(stderr.text()),
        timedOut,
        truncated: stdout.truncated || stderr.truncated,
        durationMs: Date.now() - started,
        ...(failure ? { failure } : {}),
      });
    };
    const timer = setTimeout(() => {
      timedOut = true;
      failure = `timed out after ${Math.round(options.timeoutMs / 100) / 10} s and was killed`;
      killGroup(child.pid);
    }, options.timeoutMs);
    const onAbort = () => {
      failure = 'stopped with the run';
      killGroup(child.pid);
    };
    if (options.signal?.aborted) onAbort();
    else options.signal?.addEventListener('abort', onAbort, { once: true });
    child.stdout.on('data', (chunk: Buffer) => stdout.add(chunk));
    child.stderr.on('data', (chunk: Buffer) => stderr.add(chunk));
    child.on('error', (error) => {
      failure = `could not start (${error.message})`;
      finish(null);
    });
    child.on('exit', (code) => {
      // A background process of the hook may hold the pipes open; do not wait on it for long.
      const grace = setTimeout(() => {
        child.stdout.destroy();
        child.stderr.destroy();
        finish(timedOut || failure ? null : code);
      }, 500);
      child.on('close', () => {
        clearTimeout(grace);
        finish(timedOut || failure ? null : code);
      });
    });
    // A hook that never reads stdin makes the write fail with EPIPE; that is its choice.
    child.stdin.on('error', () => {});
    child.stdin.end(`${JSON.stringify(input)}\n`);
  });
}
