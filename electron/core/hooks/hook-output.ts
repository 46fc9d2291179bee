/**
 * What a hook's exit code and output mean (Claude Code's semantics, SPEC §14). Exit 0 goes on,
 * and its stdout may be JSON that decides (`decision`/`reason`, `continue`/`stopReason`,
 * `hookSpecificOutput.permissionDecision`, `additionalContext`, `updatedInput`); exit 2 blocks
 * with stderr as the reason; any other exit, a crash or a timeout is shown to the person and the
 * run goes on as if the hook had said nothing.
 */
import type { HookEntry } from './hook-config';
import type { HookProcessResult } from './hook-runner';

export type PermissionVerdict = 'allow' | 'deny' | 'ask';

export interface HookOutcome {
  entry: HookEntry;
  process: HookProcessResult;
  /** The hook blocks (exit 2, `decision: "block"`): the reason goes to the model. */
  block?: string;
  /** A PreToolUse decision. */
  permission?: PermissionVerdict;
  /** Why, for a permission decision. */
  reason?: string;
  /** Text to add to the model's context. */
  context?: string;
  /** PreToolUse: the tool's arguments as the hook rewrote them. */
  updatedInput?: unknown;
  /** For the person, not the model. */
  message?: string;
  /** `continue: false`: the run ends, with this reason. */
  stop?: string;
  /** A failure of the hook itself: shown to the person; the run goes on. */
  problem?: string;
}

function asObject(value: unknown): Record<string, unknown> | undefined {
  return typeof value === 'object' && value !== null && !Array.isArray(value) ? (value as Record<string, unknown>) : undefined;
}

function text(value: unknown): string | undefined {
  return typeof value === 'string' && value.trim() !== '' ? value.trim() : undefined;
}

/** Events whose plain stdout, on exit 0, is context for the model. */
const CONTEXT_EVENTS = new Set(['UserPromptSubmit', 'SessionStart']);
const PERMISSIONS = new Set(['allow', 'deny', 'ask']);

export function interpretHook(entry: HookEntry, result: HookProcessResult): HookOutcome {
  const outcome: HookOutcome = { entry, process: result };
  if (result.exitCode === 2) {
    outcome.block = text(result.stderr) ?? `the ${entry.event} hook blocked it (exit 2) without saying why`;
    return outcome;
  }
  if (result.exitCode !== 0) {
    const why = result.failure ?? `exited with code ${result.exitCode}`;
    outcome.problem = `${entry.event} hook \`${entry.command}\` ${why}${text(result.stderr) ? `: ${text(result.stderr)}` : ''}`;
    return outcome;
  }
  const stdout = result.stdout.trim();
  let json: Record<string, unknown> | undefined;
  if (stdout.startsWith('{')) {
    try {
      json = asObject(JSON.parse(stdout));
    } catch {
      // Not JSON after all: plain output.
    }
  }
  if (!json) {
    if (CONTEXT_EVENTS.has(entry.event) && stdout) outcome.context = stdout;
    return outcome;
  }
  const specific = asObject(json.hookSpecificOutput) ?? {};
  const reason = text(json.reason);
  if (json.decision === 'block') outcome.block = reason ?? `the ${entry.event} hook blocked it without saying why`;
  // Claude Code's older PreToolUse answers.
  if (json.decision === 'approve') outcome.permission = 'allow';
  const permission = specific.permissionDecision;
  if (typeof permission === 'string' && PERMISSIONS.has(permission)) {
    outcome.permission = permission as PermissionVerdict;
    outcome.reason = text(specific.permissionDecisionReason) ?? reason;
  } else if (outcome.permission) outcome.reason = reason;
  if (specific.updatedInput !== undefined && asObject(specific.updatedInput)) outcome.updatedInput = specific.updatedInput;
  const context = text(specific.additionalContext);
  if (context) outcome.context = context;
  const message = text(json.systemMessage);
  if (message) outcome.message = message;
  if (json.continue === false) outcome.stop = text(json.stopReason) ?? `the ${entry.event} hook stopped the run`;
  return outcome;
}

/** The word a transcript line shows for what the hook decided. */
export function decisionWord(outcome: HookOutcome): string | null {
  if (outcome.problem) return 'error';
  if (outcome.stop) return 'stop';
  if (outcome.block) return 'block';
  return outcome.permission ?? null;
}
