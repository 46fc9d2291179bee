/**
 * The hooks of one session: which ones may run (the person's own, and a project's once
 * approved), running the ones an event matches (in parallel, as Claude Code does), publishing a
 * `hookRun` event for each, and folding their outcomes into what the caller acts on. The agent
 * knows nothing of this; the session manager, the permission gate and a tool wrapper call it.
 */
import { makeEvent, type CoveEvent } from '../../../shared/events';
import type { SecretRedactor } from '../agent/types';
import { ApprovalStore } from './approvals';
import { hookHash, loadHooks, type HookEntry, type HookEventName } from './hook-config';
import { decisionWord, interpretHook, type HookOutcome, type PermissionVerdict } from './hook-output';
import { runHookProcess, type HookWrapper } from './hook-runner';

/** The agent's own credentials: a hook is the person's command, not a way to the API key. */
const NEVER_PASSED = ['ANTHROPIC_API_KEY', 'ANTHROPIC_AUTH_TOKEN'];

/** What a transcript line keeps of a hook's output. */
const EVENT_OUTPUT_CHARS = 4000;

export interface SessionHooksOptions {
  sessionId: string;
  workspaces: readonly string[];
  coveHome: string;
  secrets(): SecretRedactor | Promise<SecretRedactor>;
  emit(event: CoveEvent): void;
  /** Puts a hook's shell inside the bash OS sandbox, when it is on. */
  wrap?: HookWrapper;
  env?: NodeJS.ProcessEnv;
  /** Told once about each hook that is skipped (a Claude Code event Cove lacks). */
  log?(message: string): void;
}

export interface RunContext {
  /** What the matcher is tested against: a tool name, a SessionStart source, a PreCompact trigger. */
  subject?: string;
  toolCallId?: string;
  subagentId?: string;
  signal?: AbortSignal;
}

export interface PreToolVerdict {
  permission?: PermissionVerdict;
  reason?: string;
  updatedInput?: unknown;
}

const MATCHED_EVENTS = new Set<HookEventName>(['PreToolUse', 'PostToolUse', 'SessionStart', 'PreCompact']);

export class SessionHooks {
  private active: HookEntry[] = [];
  private skipped: HookEntry[] = [];
  /** Hooks started from an event handler that cannot wait for them (SubagentStop, Notification). */
  private readonly background = new Set<Promise<unknown>>();
  private readonly warned = new Set<string>();

  constructor(private readonly options: SessionHooksOptions) {}

  /** Reads the settings files again; throws `HookConfigError` naming the file of a malformed entry. */
  reload(): void {
    const approvals = new ApprovalStore(this.options.coveHome);
    approvals.check();
    const warnings: string[] = [];
    const all = loadHooks(this.options.coveHome, this.options.workspaces, warnings);
    for (const warning of warnings) {
      if (this.warned.has(warning)) continue;
      this.warned.add(warning);
      this.options.log?.(warning);
    }
    this.active = all.filter((entry) => entry.kind === 'user' || approvals.isApproved(entry.hash));
    this.skipped = all.filter((entry) => !this.active.includes(entry));
  }

  /** Project hooks that are not run until the person approves them. */
  get unapproved(): readonly HookEntry[] {
    return this.skipped;
  }

  has(event: HookEventName): boolean {
    return this.active.some((entry) => entry.event === event);
  }

  async run(event: HookEventName, fields: Record<string, unknown>, context: RunContext = {}): Promise<HookOutcome[]> {
    const matching = this.active.filter((entry) => entry.event === event && (!MATCHED_EVENTS.has(event) || context.subject === undefined || entry.matches(context.subject)));
    if (matching.length === 0) return [];
    const redactor = await this.options.secrets();
    const root = this.options.workspaces[0] ?? process.cwd();
    const input = { session_id: this.options.sessionId, cwd: root, hook_event_name: event, ...fields };
    const env: NodeJS.ProcessEnv = { ...(this.options.env ?? process.env), COVE_PROJECT_DIR: root, CLAUDE_PROJECT_DIR: root, COVE_SESSION_ID: this.options.sessionId };
    for (const name of NEVER_PASSED) delete env[name];
    return Promise.all(
      matching.map(async (entry) => {
        // A script the run itself edited since the approval is not what the person approved:
        // it does not run, and a call it guards is refused rather than let through unguarded.
        if (entry.kind !== 'user' && hookHash(entry) !== entry.hash) {
          const failure = 'was not run: a file it runs changed after it was approved; approve it again (cove approve)';
          const outcome = interpretHook(entry, { exitCode: null, stdout: '', stderr: '', timedOut: false, truncated: false, durationMs: 0, failure });
          if (event === 'PreToolUse') outcome.block = `the PreToolUse hook \`${entry.command}\` ${failure}`;
          this.publish(outcome, context);
          return outcome;
        }
        const result = await runHookProcess(entry.command, input, { cwd: root, env, timeoutMs: entry.timeoutMs, redactor, signal: context.signal, wrap: this.options.wrap });
        const outcome = interpretHook(entry, result);
        this.publish(outcome, context);
        return outcome;
      }),
    );
  }

  private publish(outcome: HookOutcome, context: RunContext): void {
    const { entry, process: result } = outcome;
    const output = [outcome.message, result.failure, result.stderr.trim(), result.stdout.trim(), result.truncated ? '[output cut: a hook may print at most 64 KiB per stream]' : '']
      .filter(Boolean)
      .join('\n');
    this.options.emit(
      makeEvent('hookRun', {
        sessionId: this.options.sessionId,
        ...(context.subagentId ? { subagentId: context.subagentId } : {}),
        hookEvent: entry.event,
        command: entry.command,
        file: entry.file,
        ...(context.toolCallId ? { toolCallId: context.toolCallId } : {}),
        exitCode: result.exitCode,
        decision: decisionWord(outcome),
        output: output.length > EVENT_OUTPUT_CHARS ? `${output.slice(0, EVENT_OUTPUT_CHARS)}…` : output,
        durationMs: result.durationMs,
        timedOut: result.timedOut,
        truncated: result.truncated,
      }),
    );
  }

  /** The most restrictive answer wins: a block or deny, then ask, then allow. */
  async preToolUse(call: { toolName: string; toolCallId: string; args: unknown; subagentId?: string; signal: AbortSignal }): Promise<PreToolVerdict> {
    const outcomes = await this.run(
      'PreToolUse',
      { tool_name: call.toolName, tool_input: call.args },
      { subject: call.toolName, toolCallId: call.toolCallId, subagentId: call.subagentId, signal: call.signal },
    );
    const denials = outcomes.flatMap((o) => (o.block ? [o.block] : o.stop ? [o.stop] : o.permission === 'deny' ? [o.reason ?? 'a PreToolUse hook denied it'] : []));
    if (denials.length > 0) return { permission: 'deny', reason: denials.join('; ') };
    const updatedInput = outcomes.findLast((o) => o.updatedInput !== undefined)?.updatedInput;
    const withInput = updatedInput === undefined ? {} : { updatedInput };
    const asking = outcomes.filter((o) => o.permission === 'ask');
    if (asking.length > 0) return { permission: 'ask', reason: asking.map((o) => o.reason ?? 'a PreToolUse hook asks').join('; '), ...withInput };
    const allowing = outcomes.filter((o) => o.permission === 'allow');
    if (allowing.length > 0) return { permission: 'allow', reason: allowing.map((o) => o.reason ?? `allowed by the hook ${o.entry.command}`).join('; '), ...withInput };
    return withInput;
  }

  /** What PostToolUse hooks tell the model about a call that ran (a block's reason, added context). */
  async postToolUse(call: { toolName: string; toolCallId: string; args: unknown; response: unknown; subagentId?: string; signal: AbortSignal }): Promise<string[]> {
    const outcomes = await this.run(
      'PostToolUse',
      { tool_name: call.toolName, tool_input: call.args, tool_response: call.response },
      { subject: call.toolName, toolCallId: call.toolCallId, subagentId: call.subagentId, signal: call.signal },
    );
    return outcomes.flatMap((o) => [...(o.block ? [`PostToolUse hook: ${o.block}`] : o.stop ? [`PostToolUse hook: ${o.stop}`] : []), ...(o.context ? [o.context] : [])]);
  }

  /** A blocked prompt is not sent; otherwise the context the hooks printed goes with it. */
  async userPromptSubmit(prompt: string, signal?: AbortSignal): Promise<{ blocked?: string; context: string[] }> {
    const outcomes = await this.run('UserPromptSubmit', { prompt }, { signal });
    const blocks = outcomes.flatMap((o) => (o.block ? [o.block] : o.stop ? [o.stop] : []));
    if (blocks.length > 0) return { blocked: blocks.join('; '), context: [] };
    return { context: outcomes.flatMap((o) => (o.context ? [o.context] : [])) };
  }

  async sessionStart(source: 'startup' | 'resume', signal?: AbortSignal): Promise<string[]> {
    const outcomes = await this.run('SessionStart', { source }, { subject: source, signal });
    return outcomes.flatMap((o) => (o.context ? [o.context] : []));
  }

  /** A Stop hook that blocks asks the agent to go on, with its reason as the next prompt. */
  async stop(active: boolean, signal?: AbortSignal): Promise<string | undefined> {
    const outcomes = await this.run('Stop', { stop_hook_active: active }, { signal });
    const reasons = outcomes.flatMap((o) => (o.block && !o.stop ? [o.block] : []));
    return reasons.length > 0 ? reasons.join('\n') : undefined;
  }

  /** Runs without waiting; `idle` waits for it, so the run ends only after its hooks. */
  subagentStop(subagentId: string): void {
    this.track(this.run('SubagentStop', { stop_hook_active: false, subagent_id: subagentId }, { subagentId }));
  }

  async preCompact(trigger: 'auto' | 'manual', signal?: AbortSignal): Promise<void> {
    await this.run('PreCompact', { trigger, custom_instructions: '' }, { subject: trigger, signal });
  }

  notification(message: string): void {
    this.track(this.run('Notification', { message }));
  }

  /**
   * A message sent while a run is busy passes UserPromptSubmit too: delivered with its context
   * once the hooks are done, or not at all when one blocks it (its hookRun line says so).
   */
  steer(text: string, deliver: (text: string) => void): void {
    if (!this.has('UserPromptSubmit')) return deliver(text);
    this.track(
      this.userPromptSubmit(text).then((submitted) => {
        if (submitted.blocked === undefined) deliver(withHookContext(text, submitted.context));
      }),
    );
  }

  /** Resolves when every hook started in the background has finished. */
  async idle(): Promise<void> {
    while (this.background.size > 0) await Promise.allSettled([...this.background]);
  }

  private track(run: Promise<unknown>): void {
    const tracked = run.catch(() => {}).finally(() => this.background.delete(tracked));
    this.background.add(tracked);
  }
}

/** The text a prompt carries of what the hooks added, marked so the model knows where it came from. */
export function withHookContext(prompt: string, context: readonly string[]): string {
  if (context.length === 0) return prompt;
  return `${prompt}\n\n<hook-context>\n${context.join('\n\n')}\n</hook-context>`;
}
