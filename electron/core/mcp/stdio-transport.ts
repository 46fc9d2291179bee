/**
 * The stdio transport for MCP servers. The SDK ships one, but Cove needs three things it does
 * not give: the server runs in its own process group, so stopping it also stops whatever it
 * spawned (`npx` and shell wrappers start grandchildren); the transport closes as soon as the
 * process exits, even while a grandchild still holds the pipes, so pending calls fail at once;
 * and it knows how the process ended, for the error a person reads.
 */
import type { ChildProcess } from 'node:child_process';
// Windows: `npx`, `uvx` and most servers' commands are .cmd shims, which CreateProcess cannot
// start and Node refuses to run without a shell; cross-spawn finds them through PATHEXT and runs
// them through cmd.exe with the arguments escaped for it (the SDK's own stdio transport uses it
// for the same reason). Elsewhere it is child_process.spawn.
import spawn from 'cross-spawn';
import { stopTree } from '../tools/windows-kill';
import { deserializeMessage, serializeMessage } from '@modelcontextprotocol/sdk/shared/stdio.js';
import type { Transport } from '@modelcontextprotocol/sdk/shared/transport.js';
import type { JSONRPCMessage } from '@modelcontextprotocol/sdk/types.js';

/** Variables a server may need to run at all; everything else must be configured by name. */
const BASE_VARIABLES = [
  'PATH',
  'HOME',
  'USER',
  'LOGNAME',
  'SHELL',
  'LANG',
  'LC_ALL',
  'LC_CTYPE',
  'TERM',
  'TMPDIR',
  'TZ',
  // Windows needs these to start most programs.
  'SYSTEMROOT',
  'SystemRoot',
  'COMSPEC',
  'ComSpec',
  'PATHEXT',
  'TEMP',
  'TMP',
  'USERPROFILE',
  'APPDATA',
  'LOCALAPPDATA',
  'PROGRAMFILES',
];

/**
 * The environment of a stdio server: a minimal base from Cove's own environment, then the
 * server's configured `env`. Credentials such as ANTHROPIC_API_KEY reach a server only when its
 * configuration names them.
 */
export function serverEnvironment(configured: Record<string, string>, source: NodeJS.ProcessEnv = process.env): Record<string, string> {
  const environment: Record<string, string> = {};
  for (const name of BASE_VARIABLES) {
    const value = source[name];
    // Exported bash functions look like `() { …`; a server has no use for them.
    if (value !== undefined && !value.startsWith('()')) environment[name] = value;
  }
  return { ...environment, ...configured };
}

export interface StdioSpec {
  command: string;
  args: string[];
  env: Record<string, string>;
  cwd?: string;
  /** How long a stopping server may take after SIGTERM before it is killed. */
  killGraceMs: number;
  onStderr(text: string): void;
}

const usesProcessGroups = process.platform !== 'win32';

/**
 * Servers still running. Their own process groups do not get the terminal's Ctrl-C, so if Cove
 * exits without closing its hubs (process.exit, an uncaught error) they are killed on the way out.
 */
const running = new Set<ChildProcess>();
let exitHookInstalled = false;

function track(child: ChildProcess): void {
  running.add(child);
  child.once('exit', () => running.delete(child));
  child.once('error', () => {
    if (child.pid === undefined) running.delete(child);
  });
  if (exitHookInstalled) return;
  exitHookInstalled = true;
  process.once('exit', () => {
    for (const server of running) {
      try {
        if (usesProcessGroups && server.pid !== undefined) process.kill(-server.pid, 'SIGKILL');
        else server.kill('SIGKILL');
      } catch {
        // Already gone.
      }
    }
  });
}
/** The SDK's own limit for one message. */
const MAX_MESSAGE_BYTES = 10 * 1024 * 1024;
/** After the process exits, how long to keep reading what it wrote before it ended. */
const DRAIN_MS = 200;

export class ProcessTransport implements Transport {
  onclose?: () => void;
  onerror?: (error: Error) => void;
  onmessage?: (message: JSONRPCMessage) => void;
  /** How the process ended, once it has. */
  exitReason: string | undefined;
  private child: ChildProcess | undefined;
  /** Output not yet ended by a newline. */
  private pending: Buffer = Buffer.alloc(0);
  private closed = false;
  /**
   * Messages are handed on one microtask apart. The SDK runs notification handlers a microtask
   * late but answers responses at once, so a progress notification and the response right behind
   * it in one chunk would otherwise arrive response first, and the last progress would be lost.
   */
  private delivery: Promise<void> = Promise.resolve();
  private exited: Promise<void> = Promise.resolve();

  constructor(private readonly spec: StdioSpec) {}

  get pid(): number | undefined {
    return this.child?.pid;
  }

  start(): Promise<void> {
    return new Promise((resolvePromise, reject) => {
      const child = spawn(this.spec.command, this.spec.args, {
        env: this.spec.env,
        cwd: this.spec.cwd,
        stdio: ['pipe', 'pipe', 'pipe'],
        detached: usesProcessGroups,
        windowsHide: true,
      });
      this.child = child;
      track(child);
      this.exited = new Promise((done) => child.once('exit', () => done()));
      child.once('error', (error: NodeJS.ErrnoException) => {
        const reason = describeSpawnError(this.spec.command, error);
        this.exitReason ??= reason;
        reject(new Error(reason));
        this.finish();
      });
      child.once('spawn', () => resolvePromise());
      child.once('exit', (code, signal) => {
        this.exitReason ??= signal ? `the process was killed by ${signal}` : `the process exited with code ${code}`;
        if (child.stdout?.readableEnded) this.finish();
        else setTimeout(() => this.finish(), DRAIN_MS).unref();
      });
      child.stdout?.on('data', (chunk: Buffer) => this.receive(chunk));
      child.stdout?.on('end', () => {
        if (child.exitCode !== null || child.signalCode !== null) this.finish();
      });
      child.stderr?.setEncoding('utf8');
      child.stderr?.on('data', (text: string) => this.spec.onStderr(text));
      // A write to a process that just died fails with EPIPE; the exit handler reports it.
      child.stdin?.on('error', () => {});
    });
  }

  send(message: JSONRPCMessage): Promise<void> {
    const stdin = this.child?.stdin;
    if (this.closed || !stdin?.writable) return Promise.reject(new Error(`the server process is not running${this.exitReason ? ` (${this.exitReason})` : ''}`));
    return new Promise((resolvePromise) => {
      if (stdin.write(serializeMessage(message))) resolvePromise();
      else stdin.once('drain', () => resolvePromise());
    });
  }

  /** Ends the server: SIGTERM to its process group, SIGKILL after the grace period. */
  async close(): Promise<void> {
    const child = this.child;
    if (child?.pid !== undefined && child.exitCode === null && child.signalCode === null) {
      this.exitReason ??= 'Cove stopped the server';
      // The MCP way to ask a stdio server to stop is closing its stdin; SIGTERM makes it prompt.
      child.stdin?.end();
      this.signal('SIGTERM');
      const timer = setTimeout(() => this.signal('SIGKILL'), this.spec.killGraceMs);
      await this.exited;
      clearTimeout(timer);
    }
    // Grandchildren that ignored SIGTERM still go.
    this.signal('SIGKILL');
    this.finish();
  }

  private signal(name: NodeJS.Signals): void {
    const pid = this.child?.pid;
    if (pid === undefined) return;
    try {
      if (usesProcessGroups) process.kill(-pid, name);
      // Windows has no groups, and ending cmd.exe (cross-spawn's shim runner) would orphan the
      // server under it: the whole tree goes, and the child itself if taskkill could not.
      else void stopTree(pid, Promise.resolve(), { settleMs: 0 }).then(() => this.child?.kill(name));
    } catch {
      // The group is already gone.
    }
  }

  private receive(chunk: Buffer): void {
    this.pending = this.pending.length === 0 ? chunk : Buffer.concat([this.pending, chunk]);
    for (let end = this.pending.indexOf(10); end !== -1; end = this.pending.indexOf(10)) {
      const line = this.pending.toString('utf8', 0, end).replace(/\r$/, '');
      this.pending = this.pending.subarray(end + 1);
      if (line.trim() === '') continue;
      let message: JSONRPCMessage;
      try {
        message = deserializeMessage(line);
      } catch {
        // Servers that log to stdout break the protocol; the line shows the person which one.
        this.onerror?.(new Error(`not an MCP message on stdout: ${line.length > 300 ? `${line.slice(0, 300)}…` : line}`));
        continue;
      }
      this.deliver(() => this.onmessage?.(message));
    }
    if (this.pending.length > MAX_MESSAGE_BYTES) {
      this.exitReason ??= `the server sent a message over ${MAX_MESSAGE_BYTES / 1024 / 1024} MB`;
      this.pending = Buffer.alloc(0);
      void this.close();
    }
  }

  private finish(): void {
    if (this.closed) return;
    this.closed = true;
    this.pending = Buffer.alloc(0);
    this.child?.stdout?.destroy();
    this.child?.stderr?.destroy();
    this.child?.stdin?.destroy();
    // After the messages already read: a server's last answer still counts.
    this.deliver(() => this.onclose?.());
  }

  private deliver(step: () => void): void {
    this.delivery = this.delivery.then(() => {
      try {
        step();
      } catch (error) {
        this.onerror?.(error as Error);
      }
    });
  }
}

function describeSpawnError(command: string, error: NodeJS.ErrnoException): string {
  if (error.code === 'ENOENT') return `command not found: ${command} (check "command" and PATH)`;
  if (error.code === 'EACCES') return `command is not executable: ${command}`;
  return `could not start ${command}: ${error.message}`;
}
