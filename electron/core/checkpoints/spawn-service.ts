/**
 * Starts short-lived commands (git, for checkpoints) from a small helper process instead of from
 * Cove's own. On Linux, Node 20's libuv starts a child with fork(), which copies the parent's
 * page tables in the event loop: 1–2 ms for a process of 50 MB, 7 at 150 MB, 12 at 360 MB
 * (measured here), during which no event reaches the window. Cove's engine holds megabytes of
 * output, sessions and rules, and every tool call that may change files takes checkpoints, each
 * a few git commands: the forks were a fifth to a third of `cove serve`'s CPU time in the
 * renderer benchmark's floods. The helper is a bare Node process (about 40 MB) that forks in
 * its own event loop; Cove's side of a command is two IPC messages.
 *
 * The helper's code is a string run with `-e` (nothing to bundle or unpack; Electron runs it as
 * Node with ELECTRON_RUN_AS_NODE). It starts on first use, does not keep Cove alive while idle,
 * dies with its parent (its IPC channel closes), and is started again after it exits; a command
 * it was running then fails with an error naming why. Where it cannot run (it does not start, or
 * exits before its first answer, as an Electron built without Node mode would), or after it has
 * died three times, commands are started directly, as before.
 */
import { spawn, type ChildProcess } from 'node:child_process';

export interface SpawnRequest {
  command: string;
  args: readonly string[];
  env: NodeJS.ProcessEnv;
  cwd: string;
  input?: string | Buffer;
  signal?: AbortSignal;
}

export interface SpawnResult {
  /** The exit code; null when a signal ended it. */
  code: number | null;
  stdout: Buffer;
  stderr: Buffer;
  /** The command could not run (ENOENT: not installed), or was aborted. */
  error?: { message: string; code?: string };
}

/** The helper: runs each request's command and answers with its exit code and output. */
const HELPER = `
const { spawn } = require('node:child_process');
const running = new Map();
const toBuffer = (bytes) => Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength);
process.on('message', (request) => {
  if (request.abort) return void running.get(request.id)?.kill();
  let answered = false;
  const answer = (message) => {
    if (answered) return;
    answered = true;
    running.delete(request.id);
    if (process.connected) process.send({ id: request.id, ...message });
  };
  let child;
  try {
    child = spawn(request.command, request.args, { env: request.env, cwd: request.cwd, stdio: ['pipe', 'pipe', 'pipe'] });
  } catch (error) {
    return answer({ code: null, error: { message: error.message, code: error.code } });
  }
  running.set(request.id, child);
  const out = [];
  const err = [];
  let failure;
  child.stdout.on('data', (chunk) => out.push(chunk));
  child.stderr.on('data', (chunk) => err.push(chunk));
  child.on('error', (error) => {
    failure = { message: error.message, code: error.code };
    if (child.pid === undefined) answer({ code: null, error: failure });
  });
  child.on('close', (code) => answer({ code, error: failure, stdout: Buffer.concat(out), stderr: Buffer.concat(err) }));
  child.stdin.on('error', () => {});
  child.stdin.end(request.input === undefined ? '' : typeof request.input === 'string' ? request.input : toBuffer(request.input));
});
process.on('disconnect', () => {
  for (const child of running.values()) child.kill();
  process.exit(0);
});
`;

interface Answer {
  id: number;
  code: number | null;
  stdout?: Uint8Array;
  stderr?: Uint8Array;
  error?: { message: string; code?: string };
}

const toBuffer = (bytes: Uint8Array | undefined): Buffer => (bytes ? Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength) : Buffer.alloc(0));

/** How many times a helper may die after it has worked before commands start directly instead. */
const MAX_DEATHS = 3;

interface Pending {
  request: SpawnRequest;
  resolve: (result: SpawnResult) => void;
}

export class SpawnService {
  private helper: ChildProcess | undefined;
  /** Whether the current helper has answered anything: one that dies before it has never worked here. */
  private helperWorked = false;
  private deaths = 0;
  /** The helper cannot run here (it could not start, or died before it answered, or too often): commands start directly. */
  private broken = false;
  private nextId = 1;
  private readonly pending = new Map<number, Pending>();

  constructor(private readonly startHelper: () => ChildProcess = startSpawnHelper) {}

  run(request: SpawnRequest): Promise<SpawnResult> {
    const helper = this.ensureHelper();
    if (!helper) return runDirectly(request);
    if (request.signal?.aborted) return Promise.resolve(aborted());
    const id = this.nextId++;
    return new Promise((resolve) => {
      const onAbort = () => {
        if (helper.connected) helper.send({ id, abort: true });
        settle(aborted());
      };
      const settle = (result: SpawnResult) => {
        if (!this.pending.delete(id)) return;
        request.signal?.removeEventListener('abort', onAbort);
        if (this.pending.size === 0) letGo(helper);
        resolve(result);
      };
      this.pending.set(id, { request, resolve: settle });
      request.signal?.addEventListener('abort', onAbort, { once: true });
      holdOpen(helper);
      helper.send({ id, command: request.command, args: request.args, env: request.env, cwd: request.cwd, input: request.input }, (error) => {
        // The channel closed under it: the helper's exit settles the command (see lost).
        if (error) this.lost(helper, `the helper process that starts commands could not be reached (${error.message})`);
      });
    });
  }

  /** Ends the helper (tests; Cove's exit ends it by closing the channel). */
  close(): void {
    this.helper?.kill();
    this.helper = undefined;
  }

  private ensureHelper(): ChildProcess | undefined {
    if (this.helper || this.broken) return this.helper;
    let helper: ChildProcess;
    try {
      helper = this.startHelper();
    } catch {
      this.broken = true;
      return undefined;
    }
    this.helper = helper;
    this.helperWorked = false;
    helper.on('message', (answer: Answer) => {
      this.helperWorked = true;
      this.pending.get(answer.id)?.resolve({
        code: answer.code,
        stdout: toBuffer(answer.stdout),
        stderr: toBuffer(answer.stderr),
        ...(answer.error ? { error: answer.error } : {}),
      });
    });
    helper.on('error', () => this.lost(helper, 'the helper process that starts commands could not run'));
    helper.on('exit', (code, signal) => this.lost(helper, `the helper process that starts commands ended (${signal ?? `exit ${code}`})`));
    letGo(helper);
    return helper;
  }

  /**
   * The helper is gone. One that never answered cannot run here (Electron built without Node
   * mode, say): its commands and all later ones start directly. One that worked and died (killed,
   * out of memory) fails what it was running, naming why, and the next command starts another;
   * after MAX_DEATHS, commands start directly too.
   */
  private lost(helper: ChildProcess, why: string): void {
    if (this.helper !== helper) return;
    this.helper = undefined;
    this.deaths++;
    if (!this.helperWorked || this.deaths >= MAX_DEATHS) this.broken = true;
    for (const { request, resolve } of [...this.pending.values()]) {
      if (this.broken && !this.helperWorked) void runDirectly(request).then(resolve);
      else resolve({ code: null, stdout: Buffer.alloc(0), stderr: Buffer.alloc(0), error: { message: why } });
    }
  }
}

/** The helper process, running HELPER. */
export function startSpawnHelper(): ChildProcess {
  // Electron's binary is Node only with this variable; plain Node ignores it.
  return spawn(process.execPath, ['-e', HELPER], {
    stdio: ['ignore', 'ignore', 'inherit', 'ipc'],
    serialization: 'advanced',
    env: { ...process.env, ELECTRON_RUN_AS_NODE: '1' },
    windowsHide: true,
  });
}

interface Channel {
  ref(): void;
  unref(): void;
}
const channelOf = (helper: ChildProcess) => (helper as ChildProcess & { channel?: Channel }).channel;
/** While a command runs, the helper (its exit included) keeps Cove alive; idle, nothing does. */
function holdOpen(helper: ChildProcess): void {
  helper.ref();
  channelOf(helper)?.ref();
}
function letGo(helper: ChildProcess): void {
  helper.unref();
  channelOf(helper)?.unref();
}

const aborted = (): SpawnResult => ({ code: null, stdout: Buffer.alloc(0), stderr: Buffer.alloc(0), error: { message: 'The operation was aborted', code: 'ABORT_ERR' } });

/** Starts the command from this process (the helper could not start). */
function runDirectly(request: SpawnRequest): Promise<SpawnResult> {
  return new Promise((resolve) => {
    let child: ChildProcess;
    try {
      child = spawn(request.command, [...request.args], { env: request.env, cwd: request.cwd, stdio: ['pipe', 'pipe', 'pipe'], ...(request.signal ? { signal: request.signal } : {}) });
    } catch (error) {
      resolve({ code: null, stdout: Buffer.alloc(0), stderr: Buffer.alloc(0), error: { message: (error as Error).message } });
      return;
    }
    const out: Buffer[] = [];
    const err: Buffer[] = [];
    let failure: SpawnResult['error'];
    child.stdout!.on('data', (chunk: Buffer) => out.push(chunk));
    child.stderr!.on('data', (chunk: Buffer) => err.push(chunk));
    child.on('error', (error: NodeJS.ErrnoException) => (failure = { message: error.message, ...(error.code ? { code: error.code } : {}) }));
    child.on('close', (code) => resolve({ code, stdout: Buffer.concat(out), stderr: Buffer.concat(err), ...(failure ? { error: failure } : {}) }));
    child.stdin!.on('error', () => {});
    child.stdin!.end(request.input ?? '');
  });
}

/** The one Cove's git commands share. */
export const spawnService = new SpawnService();
