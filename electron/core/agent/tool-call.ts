/**
 * One tool call from the model's reply to its answer: checks, middleware, execution, redaction
 * and the start/update/end events. Every call gets exactly one toolExecutionStart and one
 * toolExecutionEnd, whatever happens to it, so a UI can draw a card for each.
 */
import { makeEvent, type CoveEvent, type ToolResultPayload } from '../../../shared/events';
import { checkArguments } from './validate';
import { ToolError, type ConversationMessage, type SecretRedactor, type SnapshotStore, type Tool, type ToolMiddleware, type ToolResult } from './types';
import { latestUserRequest } from './conversation';
import { markRedacted, redactResult } from './redaction';
import { describeCall } from './tool-facts';

export interface PendingCall {
  id: string;
  name: string;
  input: unknown;
  /** Set when the call must be answered without running (bad JSON, cut-off reply, loop). */
  refusal?: { kind: NonNullable<ToolResultPayload['errorKind']>; message: string };
}

export interface CallEnvironment {
  sessionId: string;
  subagentId?: string;
  tools: ReadonlyMap<string, Tool>;
  middleware: readonly ToolMiddleware[];
  workspaceRoots: readonly string[];
  cwd: string;
  secrets: SecretRedactor;
  snapshots: SnapshotStore;
  messages: readonly ConversationMessage[];
  runPrompts: readonly string[];
  signal: AbortSignal;
  emit(event: CoveEvent): void;
}

export interface CallOutcome {
  result: ToolResultPayload;
  isError: boolean;
}

function errorResult(kind: NonNullable<ToolResultPayload['errorKind']>, message: string, details?: unknown): ToolResultPayload {
  return { content: [{ type: 'text', text: message }], errorKind: kind, ...(details === undefined ? {} : { details }) };
}

type Gate = { ok: true; args: unknown } | { ok: false; result: ToolResultPayload };

async function runMiddleware(call: PendingCall, tool: Tool, env: CallEnvironment): Promise<Gate> {
  let args = call.input;
  for (const middleware of env.middleware) {
    let decision;
    try {
      decision = await middleware.beforeTool({
        sessionId: env.sessionId,
        toolCallId: call.id,
        toolName: call.name,
        args,
        sensitivity: tool.sensitivity,
        tool,
        workspaceRoots: env.workspaceRoots,
        signal: env.signal,
        messages: env.messages,
        runPrompts: env.runPrompts,
        userRequest: () => latestUserRequest(env.messages) ?? env.runPrompts.at(-1),
      });
    } catch (error) {
      if (env.signal.aborted) return { ok: false, result: errorResult('cancelled', 'Cancelled before the tool ran.') };
      const reason = `middleware ${middleware.name} failed (${(error as Error)?.message ?? String(error)})`;
      return { ok: false, result: errorResult('denied', `Tool call denied: ${reason}`) };
    }
    if (decision.action === 'deny') return { ok: false, result: errorResult('denied', `Tool call denied: ${decision.reason}`) };
    if (decision.action === 'modify') {
      const problem = await checkArguments(tool, decision.args);
      if (problem) return { ok: false, result: errorResult('invalidArgs', `${problem} (after middleware ${middleware.name} changed them)`) };
      args = decision.args;
    }
  }
  return { ok: true, args };
}

function failureOf(error: unknown, toolName: string, signal: AbortSignal): ToolResultPayload {
  if (error instanceof ToolError) return errorResult(error.kind, error.message, error.details);
  if (signal.aborted) return errorResult('cancelled', 'Cancelled while the tool was running.');
  const message = error instanceof Error ? error.message : String(error);
  return errorResult('failed', `Tool ${toolName} failed: ${message}`);
}

/** How long a cancelled tool may take to stop before the run stops waiting for it. */
const CANCEL_GRACE_MS = 3000;

/**
 * Waits for the tool; once the run is cancelled, waits at most CANCEL_GRACE_MS more, so a tool
 * that ignores its signal cannot keep a stopped run from ending.
 */
function settleOrAbandon(execution: Promise<ToolResult>, signal: AbortSignal): Promise<ToolResult> {
  return new Promise((resolve, reject) => {
    let timer: NodeJS.Timeout | undefined;
    const onAbort = () => {
      timer = setTimeout(() => reject(ToolError.cancelled('Cancelled; the tool did not stop in time and was abandoned.')), CANCEL_GRACE_MS);
    };
    if (signal.aborted) onAbort();
    else signal.addEventListener('abort', onAbort, { once: true });
    execution.then(resolve, reject).finally(() => {
      clearTimeout(timer);
      signal.removeEventListener('abort', onAbort);
    });
  });
}

/** Runs one call to its end and publishes its events. Never throws. */
export async function runToolCall(call: PendingCall, env: CallEnvironment): Promise<CallOutcome> {
  const base = { sessionId: env.sessionId, ...(env.subagentId ? { subagentId: env.subagentId } : {}) };
  const tool = env.tools.get(call.name);
  const start = (args: unknown) => env.emit(makeEvent('toolExecutionStart', { ...base, toolCallId: call.id, toolName: call.name, args, ...(tool ? describeCall(tool, args) : {}) }));
  const finish = (args: unknown, result: ToolResultPayload, isError: boolean, started: boolean): CallOutcome => {
    if (!started) start(args);
    env.emit(makeEvent('toolExecutionEnd', { ...base, toolCallId: call.id, toolName: call.name, result, isError }));
    return { result, isError };
  };

  if (!tool) return finish(call.input, errorResult('notFound', `Tool ${call.name} not found`), true, false);
  if (call.refusal) return finish(call.input, errorResult(call.refusal.kind, call.refusal.message), true, false);
  if (env.signal.aborted) return finish(call.input, errorResult('cancelled', 'Cancelled before the tool ran.'), true, false);
  const checked = checkArguments(tool, call.input);
  // Awaited only when it is a promise: `await` of a plain answer would reorder the ends of parallel calls.
  const problem = checked instanceof Promise ? await checked : checked;
  if (problem) return finish(call.input, errorResult('invalidArgs', problem), true, false);

  const gate = await runMiddleware(call, tool, env);
  if (!gate.ok) return finish(call.input, gate.result, true, false);
  if (env.signal.aborted) return finish(gate.args, errorResult('cancelled', 'Cancelled before the tool ran.'), true, false);

  start(gate.args);
  let settled = false;
  const controller = new AbortController();
  const onAbort = () => controller.abort(env.signal.reason);
  env.signal.addEventListener('abort', onAbort, { once: true });
  try {
    const execution = tool.execute(gate.args, {
      toolCallId: call.id,
      toolName: call.name,
      signal: controller.signal,
      workspaceRoots: env.workspaceRoots,
      secrets: env.secrets,
      sessionId: env.sessionId,
      cwd: env.cwd,
      snapshots: env.snapshots,
      onUpdate: (partial, options) => {
        if (settled) return;
        const partialResult = markRedacted(options?.redacted ? partial : redactResult(partial, env.secrets));
        env.emit(makeEvent('toolExecutionUpdate', { ...base, toolCallId: call.id, partialResult }));
      },
      onProgress: (text) => {
        if (settled) return;
        env.emit(makeEvent('progressMessage', { ...base, toolCallId: call.id, text: env.secrets.redact(text).text }));
      },
    });
    const result = await settleOrAbandon(execution, env.signal);
    settled = true;
    if (env.signal.aborted) return finish(gate.args, errorResult('cancelled', 'Cancelled while the tool was running.'), true, true);
    return finish(gate.args, redactResult(result, env.secrets), false, true);
  } catch (error) {
    settled = true;
    return finish(gate.args, redactResult(failureOf(error, call.name, env.signal), env.secrets), true, true);
  } finally {
    env.signal.removeEventListener('abort', onAbort);
  }
}
