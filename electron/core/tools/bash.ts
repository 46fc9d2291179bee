/**
 * The `bash` tool: one command in a PTY at the first workspace root. NOT a sandbox: it gets an
 * environment allowlist and a deny-pattern guardrail, but the command can do whatever the user
 * can; the permission engine (a middleware) is its real gate.
 */
import { ToolError, type Tool, type ToolContext, type ToolResult } from '../agent/types';
import { DEFAULT_DENY_PATTERNS, matchDenyPattern, toDenyPattern, type DenyPattern } from './bash-guard';
import { ModelOutput, UiStream, type UiUpdate } from './bash-output';
import { spawnCommand, type PtyExit } from './bash-process';

export interface BashToolOptions {
  /** Extra environment variable names passed through, beyond the built-in allowlist. */
  envAllowlist?: readonly string[];
  /** Extra patterns to refuse: a string matches as a substring, a RegExp as itself. */
  denyPatterns?: ReadonlyArray<string | RegExp>;
  /** Where allowlisted variables are read from; `process.env` by default. */
  environment?: Readonly<Record<string, string | undefined>>;
  /** The longest `timeout` a call may ask for, in seconds (default 600). */
  maxTimeoutSeconds?: number;
}

export interface BashParams {
  command: string;
  timeout?: number;
}

export interface BashDetails {
  exitCode: number | null;
  /** The signal that ended the shell, when one did. */
  signal?: number;
  durationMs: number;
  /** Bytes of output the command produced. */
  bytes: number;
  /** Whether the model's copy left out the middle. */
  truncated: boolean;
  timedOut: boolean;
  /** Whether the UI stream stopped short of the whole output. */
  truncatedForUi: boolean;
}

const BASE_ALLOWLIST = ['PATH', 'HOME', 'LANG', 'LC_ALL', 'USER', 'SHELL', 'TMPDIR'];
/** Never handed to a command, whatever is configured: the agent's own credentials. */
const NEVER_PASSED = new Set(['ANTHROPIC_API_KEY', 'ANTHROPIC_AUTH_TOKEN']);
/** Pagers would wait for a keypress that never comes. */
const FIXED_ENV = { TERM: 'xterm-256color', PAGER: 'cat', GIT_PAGER: 'cat' };
const DEFAULT_TIMEOUT_SECONDS = 120;
const PROGRESS_EVERY_MS = 15_000;

const DESCRIPTION = `Run a shell command with bash in a terminal (PTY) whose working directory is the first workspace root.
- Returns the output (stdout and stderr interleaved, colors removed) and the exit code. A non-zero exit code is a normal result: read the output to see what failed.
- Long output is shortened to its first 10,000 and last 20,000 characters with a marker between; redirect to a file and search it if you need the middle.
- timeout is in seconds (default ${DEFAULT_TIMEOUT_SECONDS}); on timeout the whole process group is killed and you get the output so far.
- stdin is empty (/dev/null): interactive prompts get end-of-file, so pass flags such as --yes or -y instead.
- The environment is limited to an allowlist (PATH, HOME, LANG, USER, SHELL, TMPDIR and configured names); API keys are not available.
- Prefer read_file, search, list_files and the edit tools for reading and changing files.
This is not a sandbox: obviously destructive commands (rm -rf /, mkfs, …) are refused, and everything else is subject to the user's permission.`;

export function createBashTool(options: BashToolOptions = {}): Tool<BashParams> {
  const denyPatterns: DenyPattern[] = [...DEFAULT_DENY_PATTERNS, ...(options.denyPatterns ?? []).map(toDenyPattern)];
  const allowlist = [...BASE_ALLOWLIST, ...(options.envAllowlist ?? [])].filter((name) => !NEVER_PASSED.has(name));
  const maxTimeout = options.maxTimeoutSeconds ?? 600;

  return {
    name: 'bash',
    label: 'Run Command',
    description: DESCRIPTION,
    parameters: {
      type: 'object',
      properties: {
        command: { type: 'string', description: 'The command line, run with bash -c.' },
        timeout: {
          type: 'number',
          description: `Seconds before the command is killed (default ${DEFAULT_TIMEOUT_SECONDS}, at most ${maxTimeout}).`,
          exclusiveMinimum: 0,
          maximum: maxTimeout,
        },
      },
      required: ['command'],
      additionalProperties: false,
    },
    sensitivity: 'mutating',
    execute: async (params, ctx) => {
      const command = params.command;
      if (typeof command !== 'string' || command.trim() === '') {
        throw ToolError.invalidArgs('command must be a non-empty string');
      }
      const timeout = params.timeout ?? DEFAULT_TIMEOUT_SECONDS;
      if (typeof timeout !== 'number' || !(timeout > 0) || timeout > maxTimeout) {
        throw ToolError.invalidArgs(`timeout must be a number of seconds above 0 and at most ${maxTimeout}`);
      }
      const denied = matchDenyPattern(command, denyPatterns);
      if (denied) {
        throw ToolError.failed(
          `Refused: the command matches the deny pattern "${denied.name}". This guardrail blocks commands that could destroy the machine; do it another way or ask the user to run it.`,
        );
      }
      if (ctx.signal.aborted) throw ToolError.cancelled('Command cancelled before it started');
      const env = buildEnvironment(allowlist, options.environment ?? process.env, ctx);
      return run(command, timeout, env, ctx);
    },
  };
}

/** The tool with the built-in allowlist and deny patterns only. */
export const bashTool = createBashTool();

function buildEnvironment(
  allowlist: readonly string[],
  source: Readonly<Record<string, string | undefined>>,
  ctx: ToolContext,
): Record<string, string> {
  const env: Record<string, string> = {};
  for (const name of allowlist) {
    const value = source[name];
    if (value !== undefined) env[name] = value;
  }
  return { ...env, ...FIXED_ENV, PWD: workingDirectory(ctx) };
}

function workingDirectory(ctx: ToolContext): string {
  return ctx.workspaceRoots[0] ?? ctx.cwd;
}

async function run(command: string, timeoutSeconds: number, env: Record<string, string>, ctx: ToolContext): Promise<ToolResult> {
  const startedAt = Date.now();
  const model = new ModelOutput(undefined, ctx.secrets);
  const ui = new UiStream((update) => ctx.onUpdate(toPartialResult(update)), startedAt, undefined, undefined, ctx.secrets);
  const child = spawnCommand({ command, cwd: workingDirectory(ctx), env });
  child.onData((chunk) => {
    model.push(chunk);
    ui.push(chunk);
  });

  let stopReason: 'timeout' | 'cancel' | undefined;
  let stopped: Promise<void> = Promise.resolve();
  const stop = (reason: 'timeout' | 'cancel') => {
    if (stopReason) return;
    stopReason = reason;
    stopped = child.stop();
  };
  const onAbort = () => stop('cancel');
  ctx.signal.addEventListener('abort', onAbort, { once: true });
  const timer = setTimeout(() => stop('timeout'), timeoutSeconds * 1000);
  const progress = setInterval(
    () => ctx.onProgress(`running… ${Math.round((Date.now() - startedAt) / 1000)} s`),
    PROGRESS_EVERY_MS,
  );

  let exit: PtyExit;
  try {
    exit = await child.exited;
    await stopped;
  } finally {
    clearTimeout(timer);
    clearInterval(progress);
    ctx.signal.removeEventListener('abort', onAbort);
    ui.flush();
    ui.dispose();
  }

  const output = model.finish();
  const details: BashDetails = {
    exitCode: stopReason || exit.signal !== undefined ? null : exit.exitCode,
    durationMs: Date.now() - startedAt,
    bytes: ui.bytes,
    truncated: output.truncated,
    timedOut: stopReason === 'timeout',
    truncatedForUi: ui.truncatedForUi,
  };
  if (exit.signal !== undefined) details.signal = exit.signal;
  const text = output.text === '' ? '(no output)' : output.text.replace(/\n?$/, '\n');

  if (stopReason === 'cancel') {
    throw ToolError.cancelled(`Command cancelled after ${seconds(details.durationMs)}; its process group was stopped.`, {
      ...details,
      output: text,
    });
  }
  if (stopReason === 'timeout') {
    throw ToolError.failed(
      `Command timed out after ${timeoutSeconds} s; its process group was killed. Output so far:\n${text}`,
      details,
    );
  }
  const status =
    details.exitCode === null ? `[killed by signal ${exit.signal}]` : `[exit code ${details.exitCode}]`;
  return { content: [{ type: 'text', text: `${text}${status}` }], details };
}

function toPartialResult(update: UiUpdate): ToolResult {
  return {
    content: update.chunk === '' ? [] : [{ type: 'text', text: update.chunk }],
    details: update,
  };
}

function seconds(ms: number): string {
  return `${(ms / 1000).toFixed(1)} s`;
}
