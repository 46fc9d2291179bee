/**
 * Runs the tool calls of one assistant reply under an execution strategy. Steering (queued
 * user messages) is checked between units: between calls when sequential, between batches when
 * batched, after all of them when parallel. Calls skipped because of steering or a cancel are
 * still answered, so every tool_use gets its tool_result.
 */
import { resolve } from 'node:path';
import { makeEvent } from '../../../shared/events';
import type { AssistantReply } from './provider';
import { runToolCall, type CallEnvironment, type CallOutcome, type PendingCall } from './tool-call';
import { nudgeText, type LoopGuard } from './loop-guard';

export type ExecutionStrategy = 'parallel' | 'sequential' | { batched: number };

export const CUT_OFF_MESSAGE =
  'Not run: your reply was cut off by the max_tokens limit, so the arguments of this call may be incomplete. ' +
  'Send the call again with less content (for example, split a large file into several smaller edits).';
export const STEERING_SKIP_MESSAGE = 'Skipped: the user sent a new message before this call ran. Read it, then decide what to do.';

function unitsOf<T>(items: T[], strategy: ExecutionStrategy): T[][] {
  if (strategy === 'parallel') return [items];
  const size = strategy === 'sequential' ? 1 : Math.max(1, Math.floor(strategy.batched));
  const units: T[][] = [];
  for (let i = 0; i < items.length; i += size) units.push(items.slice(i, i + size));
  return units;
}

/** The files a changing call names, resolved; undefined when it changes something else or names none (bash, MCP). */
function changedFiles(call: PendingCall, env: CallEnvironment): string[] | undefined {
  const tool = env.tools.get(call.name);
  if (!tool || tool.sensitivity === 'readOnly' || call.refusal || !tool.permission || tool.permission === 'none' || !('paths' in tool.permission)) return undefined;
  try {
    const paths = tool.permission.paths(call.input);
    return paths.length > 0 ? paths.map((path) => resolve(env.cwd, path)) : undefined;
  } catch {
    // Arguments the call's own check will refuse: nothing to order.
    return undefined;
  }
}

/**
 * Starts a unit's calls together, except that calls changing the same file run one after the
 * other in the reply's order. Two edits of one file in one reply would otherwise both read it
 * before either wrote, and the second would silently undo the first.
 */
function inFileOrder(unit: PendingCall[], env: CallEnvironment): Promise<CallOutcome>[] {
  const lastChange = new Map<string, Promise<unknown>>();
  return unit.map((call) => {
    const files = changedFiles(call, env);
    if (!files) return runToolCall(call, env);
    const before = files.flatMap((file) => lastChange.get(file) ?? []);
    const run = before.length === 0 ? runToolCall(call, env) : Promise.all(before).then(() => runToolCall(call, env));
    const settled = run.catch(() => undefined);
    for (const file of files) lastChange.set(file, settled);
    return run;
  });
}

export interface BatchOutcome {
  outcomes: Array<{ call: PendingCall; outcome: CallOutcome }>;
  /** The model repeated a call after being nudged: the run must stop. */
  loopStop: boolean;
}

export async function runToolBatch(options: { reply: AssistantReply; strategy: ExecutionStrategy; guard: LoopGuard; env: CallEnvironment; hasSteering(): boolean }): Promise<BatchOutcome> {
  const { reply, env } = options;
  const cutOff = reply.stopReason === 'max_tokens';
  let loopStop = false;
  const base = { sessionId: env.sessionId, ...(env.subagentId ? { subagentId: env.subagentId } : {}) };

  const calls: PendingCall[] = reply.content.flatMap((block) => {
    if (block.type !== 'tool_use') return [];
    const call: PendingCall = { id: block.id, name: block.name, input: block.input };
    const invalid = reply.invalidToolInput.get(block.id);
    if (cutOff) call.refusal = { kind: 'invalidArgs', message: CUT_OFF_MESSAGE };
    else if (invalid) call.refusal = { kind: 'invalidArgs', message: `Invalid arguments for ${block.name}: ${invalid}` };
    else {
      const verdict = options.guard.observe(block.name, block.input);
      if (verdict.action !== 'run') {
        env.emit(makeEvent('loopDetected', { ...base, toolName: block.name, count: verdict.count, action: verdict.action }));
        if (verdict.action === 'stop') loopStop = true;
        call.refusal = { kind: 'failed', message: nudgeText(block.name, verdict.count) };
      }
    }
    return [call];
  });

  const outcomes: BatchOutcome['outcomes'] = [];
  const units = unitsOf(calls, options.strategy);
  for (const [index, unit] of units.entries()) {
    if (index > 0 && options.hasSteering()) {
      for (const call of units.slice(index).flat()) call.refusal ??= { kind: 'cancelled', message: STEERING_SKIP_MESSAGE };
    }
    const results = await Promise.all(inFileOrder(unit, env));
    unit.forEach((call, i) => outcomes.push({ call, outcome: results[i]! }));
  }
  return { outcomes, loopStop };
}
