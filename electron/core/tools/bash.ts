/**
 * The `bash` tool: one command in a PTY at the first workspace root, inside the OS sandbox
 * (../bash-sandbox) when settings keep it enabled. It also gets an environment allowlist and a
 * deny-pattern guardrail; the permission engine (a middleware) decides whether it runs at all,
 * and asks about every call when the sandbox is enabled but cannot run here.
 */
import { z } from 'zod';
import { ToolError, type ToolContext, type ToolResult } from '../agent/types';
import { declareTool } from './define-tool';
import { DEFAULT_DENY_PATTERNS, matchDenyPattern, toDenyPattern, type DenyPattern } from './bash-guard';
import { ModelOutput, UiStream, type UiUpdate } from './bash-output';
import { spawnCommand, type PtyExit } from './bash-process';
import { describeShell } from './shell-choice';
import { prepareSandbox, probeSandbox, refusalNote, type SandboxLaunch, type SandboxOptions } from '../bash-sandbox';

export interface BashToolOptions {
  /** Extra environment variable names passed through, beyond the built-in allowlist. */
  envAllowlist?: readonly string[];
  /** Extra patterns to refuse: a string matches as a substring, a RegExp as itself. */
  denyPatterns?: ReadonlyArray<string | RegExp>;
  /** Where allowlisted variables are read from; `process.env` by default. */
  environment?: Readonly<Record<string, string | undefined>>;
  /** The longest `timeout` a call may ask for, in seconds (default 600). */
  maxTimeoutSeconds?: number;
  /** Where the sandbox settings are read (`coveHome`), and the platform to sandbox for. */
  sandbox?: Pick<SandboxOptions, 'coveHome' | 'platform' | 'environment'>;
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
  /** Whether the UI stream left out part of the output. */
  truncatedForUi: boolean;
  /** What a redraw shows in place of the live-only updates (see UiUpdate.live), when there were any. */
  uiTail?: string;
  /** The OS sandbox the command ran in; 'off' when settings disabled it, 'unavailable' when a person approved running without one. */
  sandbox: 'bubblewrap' | 'seatbelt' | 'off' | 'unavailable';
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
- It runs in an OS sandbox when one is available: writes only inside the workspace roots, the temp folder and configured paths; protected files (.cove, .claude, .mcp.json, .git/config, .git/hooks, .gitmodules, .npmrc, .envrc, shell start-up files) are read-only; the network is off unless the settings allow it. A write or connection the sandbox refuses is marked [sandbox] in the result: tell the user rather than working around it.
Obviously destructive commands (rm -rf /, mkfs, …) are refused, and everything else is subject to the user's permission.`;

/** Declared per options: the longest timeout is part of the schema the model sees. */
function declareBash(maxTimeout: number) {
  return declareTool({
    name: 'bash',
    label: 'Run Command',
    description: describeShell(DESCRIPTION),
    schema: z.strictObject({
      command: z.string().describe('The command line, run with bash -c.'),
      timeout: z.number().positive().max(maxTimeout).optional().describe(`Seconds before the command is killed (default ${DEFAULT_TIMEOUT_SECONDS}, at most ${maxTimeout}).`),
    }),
    sensitivity: 'mutating',
    kind: 'execute',
    permission: { command: (args) => args.command },
    summary: (args) => args.command,
  });
}

export function createBashTool(options: BashToolOptions = {}) {
  const denyPatterns: DenyPattern[] = [...DEFAULT_DENY_PATTERNS, ...(options.denyPatterns ?? []).map(toDenyPattern)];
  const allowlist = [...BASE_ALLOWLIST, ...(options.envAllowlist ?? [])].filter((name) => !NEVER_PASSED.has(name));
  const maxTimeout = options.maxTimeoutSeconds ?? 600;

  return declareBash(maxTimeout).implement(async (params, ctx) => {
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
    // Started in the background by the host; the first call waits for its answer here.
    await probeSandbox(options.sandbox);
    const sandbox = startSandbox(ctx, options.sandbox);
    try {
      return await run(command, timeout, env, ctx, sandbox);
    } finally {
      if (typeof sandbox === 'object') sandbox.release();
    }
  });
}

/** The tool with the built-in allowlist and deny patterns only. */
export const bashTool = createBashTool();

function buildEnvironment(allowlist: readonly string[], source: Readonly<Record<string, string | undefined>>, ctx: ToolContext): Record<string, string> {
  const env: Record<string, string> = {};
  for (const name of allowlist) {
    const value = source[name];
    if (value !== undefined) env[name] = value;
  }
  return { ...env, ...FIXED_ENV, PWD: workingDirectory(ctx) };
}

/** The sandbox for one call; a sandbox that cannot be set up fails the call, never runs it bare. */
function startSandbox(ctx: ToolContext, options: BashToolOptions['sandbox']): SandboxLaunch | 'off' | 'unavailable' {
  try {
    const prepared = prepareSandbox({ ...options, workspaceRoots: ctx.workspaceRoots, cwd: workingDirectory(ctx) });
    // 'unavailable' reaches here only when the permission engine asked and a person allowed it.
    return prepared.state === 'on' ? prepared.launch : prepared.state;
  } catch (error) {
    throw ToolError.failed(`The bash sandbox could not be set up, so the command did not run: ${(error as Error).message}`);
  }
}

function workingDirectory(ctx: ToolContext): string {
  return ctx.workspaceRoots[0] ?? ctx.cwd;
}

async function run(command: string, timeoutSeconds: number, env: Record<string, string>, ctx: ToolContext, sandbox: SandboxLaunch | 'off' | 'unavailable'): Promise<ToolResult> {
  const startedAt = Date.now();
  const model = new ModelOutput(undefined, ctx.secrets);
  // UiStream redacts each update with ctx.secrets before it cuts it down.
  const ui = new UiStream((update) => ctx.onUpdate(toPartialResult(update), { redacted: true }), startedAt, undefined, undefined, ctx.secrets);
  const launcher = typeof sandbox === 'object' ? sandbox : undefined;
  const child = spawnCommand({ command, cwd: workingDirectory(ctx), env, ...(launcher ? { launcher } : {}) });
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
  const progress = setInterval(() => ctx.onProgress(`running… ${Math.round((Date.now() - startedAt) / 1000)} s`), PROGRESS_EVERY_MS);

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
    sandbox: launcher ? launcher.kind : (sandbox as 'off' | 'unavailable'),
  };
  if (exit.signal !== undefined) details.signal = exit.signal;
  const uiTail = ui.redrawTail;
  if (uiTail !== undefined) details.uiTail = uiTail;
  let text = output.text === '' ? '(no output)' : output.text.replace(/\n?$/, '\n');
  if (launcher && !stopReason && !exit.completed && SANDBOX_FAILED.test(output.text)) {
    throw ToolError.failed(`The bash sandbox (${launcher.kind}) failed to start, so the command did not run: ${output.text.trim()}`, details);
  }
  const note = launcher ? refusalNote(output.text, launcher.policy, launcher.kind) : undefined;
  if (note) text += `${note}\n`;

  if (stopReason === 'cancel') {
    throw ToolError.cancelled(`Command cancelled after ${seconds(details.durationMs)}; its process group was stopped.`, {
      ...details,
      output: text,
    });
  }
  if (stopReason === 'timeout') {
    throw ToolError.failed(`Command timed out after ${timeoutSeconds} s; its process group was killed. Output so far:\n${text}`, details);
  }
  const status = details.exitCode === null ? `[killed by signal ${exit.signal}]` : `[exit code ${details.exitCode}]`;
  return { content: [{ type: 'text', text: `${text}${status}` }], details };
}

/** What bwrap and sandbox-exec print when they cannot set up, before bash ever runs. */
const SANDBOX_FAILED = /^(?:bwrap|sandbox-exec): /;

/** The chunk travels once, in `details.chunk`: a partial result never reaches the model. */
function toPartialResult(update: UiUpdate): ToolResult {
  return { content: [], details: update };
}

function seconds(ms: number): string {
  return `${(ms / 1000).toFixed(1)} s`;
}
