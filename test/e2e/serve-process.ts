/**
 * Runs the built `cove serve` as a person would, in a child process with its own COVE_HOME,
 * and waits for the one line that says where it is. Shared by the integration tests of the
 * browser host and the end-to-end tests in Chromium.
 */
import type { ChildProcess } from 'node:child_process';
import WebSocket from 'ws';
import type { ClientFrame, Response, ServerFrame } from '../../shared/contract';
import type { CoveHome } from '../support/cove-cli';

export const URL_LINE = /^Cove is running at (http:\/\/\S+\/\?token=(\S+))$/m;

export interface ServeProcess {
  child: ChildProcess;
  /** The page URL as printed, token included. */
  url: string;
  port: number;
  token: string;
  origin: string;
  stdout(): string;
  stderr(): string;
  /** Resolves once stderr matches (lines are written after the URL one, so wait). */
  waitForStderr(pattern: RegExp, timeoutMs?: number): Promise<void>;
  /** Resolves with how the process ended. */
  exited: Promise<{ code: number | null; signal: NodeJS.Signals | null }>;
  /** Sends the signal and waits for the exit. */
  stop(signal?: NodeJS.Signals): Promise<{ code: number | null; signal: NodeJS.Signals | null }>;
}

export async function startServe(home: CoveHome, args: string[] = ['--port', '0'], env: Record<string, string | undefined> = {}): Promise<ServeProcess> {
  const child = home.spawn(['serve', ...args], { env });
  let out = '';
  let err = '';
  child.stdout!.setEncoding('utf8');
  child.stderr!.setEncoding('utf8').on('data', (chunk: string) => (err += chunk));
  const exited = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((resolve) => child.once('exit', (code, signal) => resolve({ code, signal })));
  const match = await new Promise<RegExpExecArray>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`cove serve printed no URL in 20 s; stdout: ${out}; stderr: ${err}`)), 20_000);
    child.stdout!.on('data', (chunk: string) => {
      out += chunk;
      const found = URL_LINE.exec(out);
      if (found) {
        clearTimeout(timer);
        resolve(found);
      }
    });
    void exited.then(({ code, signal }) => {
      clearTimeout(timer);
      reject(new Error(`cove serve exited (${code ?? signal}) before printing its URL; stderr: ${err}`));
    });
  });
  const url = new URL(match[1]!);
  return {
    child,
    url: match[1]!,
    port: Number(url.port),
    token: match[2]!,
    origin: url.origin,
    stdout: () => out,
    stderr: () => err,
    waitForStderr: (pattern, timeoutMs = 10_000) =>
      new Promise<void>((resolve, reject) => {
        const check = () => {
          if (!pattern.test(err)) return;
          clearTimeout(timer);
          child.stderr!.off('data', check);
          resolve();
        };
        const timer = setTimeout(() => {
          child.stderr!.off('data', check);
          reject(new Error(`stderr did not match ${pattern} in ${timeoutMs} ms: ${err}`));
        }, timeoutMs);
        child.stderr!.on('data', check);
        check();
      }),
    exited,
    async stop(signal = 'SIGINT') {
      if (child.exitCode === null && child.signalCode === null) child.kill(signal);
      return exited;
    },
  };
}

/** A contract client over `ws`, for tests that speak to the server without a browser. */
export class ApiSocket {
  private nextId = 1;
  readonly frames: ServerFrame[] = [];
  private readonly waiters = new Set<() => void>();

  private constructor(readonly socket: WebSocket) {
    socket.on('message', (data) => {
      this.frames.push(JSON.parse(String(data)) as ServerFrame);
      for (const waiter of this.waiters) waiter();
    });
    socket.on('close', () => {
      for (const waiter of this.waiters) waiter();
    });
  }

  static open(serve: ServeProcess, options: { token?: string; origin?: string | null } = {}): Promise<ApiSocket> {
    const token = options.token ?? serve.token;
    const origin = options.origin === undefined ? serve.origin : options.origin;
    const socket = new WebSocket(`ws://127.0.0.1:${serve.port}/api?token=${encodeURIComponent(token)}`, {
      ...(origin === null ? {} : { origin }),
      maxPayload: 64 * 1024 * 1024,
    });
    return new Promise((resolve, reject) => {
      socket.once('open', () => resolve(new ApiSocket(socket)));
      socket.once('unexpected-response', (_request, response) => reject(Object.assign(new Error(`upgrade refused: ${response.statusCode}`), { status: response.statusCode })));
      socket.once('error', reject);
    });
  }

  /** Resolves once a frame matching `test` has arrived (or already had). */
  waitFor(test: (frame: ServerFrame) => boolean, what = 'a frame', timeoutMs = 15_000): Promise<ServerFrame> {
    return new Promise((resolve, reject) => {
      const check = () => {
        const found = this.frames.find(test);
        if (found) {
          this.waiters.delete(check);
          clearTimeout(timer);
          resolve(found);
        } else if (this.socket.readyState === WebSocket.CLOSED) {
          this.waiters.delete(check);
          clearTimeout(timer);
          reject(new Error(`the socket closed while waiting for ${what}`));
        }
      };
      const timer = setTimeout(() => {
        this.waiters.delete(check);
        reject(new Error(`no ${what} within ${timeoutMs} ms`));
      }, timeoutMs);
      this.waiters.add(check);
      check();
    });
  }

  sendRaw(data: string | Buffer, options: { binary?: boolean } = {}): void {
    this.socket.send(data, { binary: options.binary ?? false });
  }

  async request<T = unknown>(name: string, input: unknown): Promise<Response<T>> {
    const id = this.nextId++;
    this.socket.send(JSON.stringify({ type: 'request', id, name, input } satisfies ClientFrame));
    const frame = await this.waitFor((candidate) => candidate.type === 'response' && candidate.id === id, `the answer to ${name}`);
    return (frame as Extract<ServerFrame, { type: 'response' }>).response as Response<T>;
  }

  /** Sets the sessions whose high-rate events this socket gets (a `watch` frame). */
  async watch(sessionIds: string[]): Promise<Response<{ watching: string[] }>> {
    const id = this.nextId++;
    this.socket.send(JSON.stringify({ type: 'watch', id, input: { sessionIds } } satisfies ClientFrame));
    const frame = await this.waitFor((candidate) => candidate.type === 'response' && candidate.id === id, 'the answer to watch');
    return (frame as Extract<ServerFrame, { type: 'response' }>).response as Response<{ watching: string[] }>;
  }

  close(): void {
    this.socket.close();
  }
}
