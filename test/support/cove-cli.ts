/**
 * Runs the built `cove` command as a person would, in a child process, against the scripted
 * model server, with its own COVE_HOME. Nothing of the test process leaks into its environment
 * except PATH and HOME.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, realpathSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import type { CoveEvent } from '../../shared/events';
import { startModelServer, type Script, type ScriptedServer } from './model-server';

export const COVE_BIN = resolve(import.meta.dirname, '../../bin/cove.js');

export interface CoveResult {
  code: number | null;
  signal: NodeJS.Signals | null;
  stdout: string;
  stderr: string;
  /** stdout parsed as JSON lines, when --json was given. */
  events: CoveEvent[];
}

export interface CoveOptions {
  env?: Record<string, string | undefined>;
  cwd?: string;
  input?: string;
}

export class CoveHome {
  readonly path = mkdtempSync(join(tmpdir(), 'cove-home-'));
  constructor(readonly baseUrl?: string) {}

  env(extra: Record<string, string | undefined> = {}): NodeJS.ProcessEnv {
    const env: NodeJS.ProcessEnv = {
      PATH: process.env.PATH,
      HOME: process.env.HOME,
      COVE_HOME: this.path,
      ANTHROPIC_API_KEY: 'test-key',
      COVE_RETRY_BASE_MS: '5',
      ...(this.baseUrl ? { ANTHROPIC_BASE_URL: this.baseUrl } : {}),
    };
    for (const [key, value] of Object.entries(extra)) {
      if (value === undefined) delete env[key];
      else env[key] = value;
    }
    return env;
  }

  spawn(args: string[], options: CoveOptions = {}): ChildProcess {
    const child = spawn(process.execPath, [COVE_BIN, ...args], {
      cwd: options.cwd ?? this.path,
      env: this.env(options.env),
      stdio: ['pipe', 'pipe', 'pipe'],
    });
    child.stdin!.end(options.input ?? '');
    return child;
  }

  run(args: string[], options: CoveOptions = {}): Promise<CoveResult> {
    return collect(this.spawn(args, options));
  }

  remove(): void {
    rmSync(this.path, { recursive: true, force: true });
  }
}

export function collect(child: ChildProcess): Promise<CoveResult> {
  let stdout = '';
  let stderr = '';
  child.stdout!.setEncoding('utf8').on('data', (chunk: string) => (stdout += chunk));
  child.stderr!.setEncoding('utf8').on('data', (chunk: string) => (stderr += chunk));
  return new Promise((resolve, reject) => {
    child.on('error', reject);
    child.on('close', (code, signal) => {
      const events: CoveEvent[] = [];
      for (const line of stdout.split('\n')) {
        if (!line.startsWith('{')) continue;
        try {
          events.push(JSON.parse(line) as CoveEvent);
        } catch {
          // not an event line (plain output)
        }
      }
      resolve({ code, signal, stdout, stderr, events });
    });
  });
}

export interface CliFixture {
  server: ScriptedServer;
  home: CoveHome;
  /** A fresh, real (symlink-free) workspace folder. */
  workspace: string;
  close(): Promise<void>;
}

/** A scripted model server, a COVE_HOME pointed at it, and an empty workspace. */
export async function cliFixture(script: Script): Promise<CliFixture> {
  const server = await startModelServer(script);
  const home = new CoveHome(server.url);
  const workspace = realpathSync(mkdtempSync(join(tmpdir(), 'cove-ws-')));
  return {
    server,
    home,
    workspace,
    async close() {
      await server.close();
      home.remove();
      rmSync(workspace, { recursive: true, force: true });
    },
  };
}
