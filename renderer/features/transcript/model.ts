/**
 * Folds a session's events into transcript items (pure: no DOM, no store). The same fold
 * redraws a stored session (`session:open` gives its events oldest first) and follows a live
 * one, so both look the same; each event comes once and in seq order (./event-order.ts), so
 * nothing here has to tell a stored copy from a live one. Prompts are drawn from their
 * userMessage events only, steering included, so every window draws the same rows.
 *
 * Events of a subagent's own run stay out of the items: they feed the subagent sidebar and the
 * subagent's own transcript (folded the same way, in `subagentTranscripts`), and only its start
 * and end appear as markers. Permission prompts are the exception: whoever asks, the person has
 * to answer, so every prompt is a card, in both.
 *
 * Times come from the events' own `at` (when main numbered them), so a duration drawn after a
 * reload is the one drawn live; `now` stands in for events without one.
 */
import type { AssistantBlock, CoveEvent, MessageUpdateEvent, PermissionRequestEvent, ToolExecutionUpdateEvent, UserMessageEvent } from '../../../shared/events';
import { terminalAfterUpdate, terminalAtEnd } from '../tools/terminal-stream';
import { describedCall } from '../tools/tool-summary';
import { withRestore } from '../checkpoints/restore-items';
import type { AssistantItem, AssistantPart, SubagentState, ToolItem, TranscriptItem, TranscriptState, UserItem } from './model-types';

export const EMPTY_TRANSCRIPT: TranscriptState = {
  items: [],
  subagents: [],
  running: false,
  replaceKey: null,
  runStart: 0,
  counter: 0,
  todos: null,
  subagentTranscripts: {},
};

/** Applies events in order; returns `state` itself when there are none. `now` is the local clock. */
export function foldEvents(state: TranscriptState, events: readonly CoveEvent[], now: number): TranscriptState {
  if (events.length === 0) return state;
  const draft: TranscriptState = { ...state, items: state.items.slice(), subagents: state.subagents.slice() };
  // Folded once per subagent per batch, not once per event.
  const ofSubagents = new Map<string, CoveEvent[]>();
  for (const event of events) {
    apply(draft, event, event.at ?? now);
    if (event.subagentId === undefined) continue;
    const own = ofSubagents.get(event.subagentId) ?? [];
    if (own.length === 0) ofSubagents.set(event.subagentId, own);
    own.push(asOwnEvent(event));
  }
  if (ofSubagents.size > 0) {
    const transcripts = { ...draft.subagentTranscripts };
    for (const [id, own] of ofSubagents) transcripts[id] = foldEvents(transcripts[id] ?? EMPTY_TRANSCRIPT, own, now);
    draft.subagentTranscripts = transcripts;
  }
  return draft;
}

/** A subagent's event as its own transcript folds it: as if it were the main agent's. */
function asOwnEvent(event: CoveEvent): CoveEvent {
  const { subagentId: _subagentId, ...own } = event;
  return own as CoveEvent;
}

/** The subagents with a prompt of theirs still waiting for the person. */
export function waitingSubagentIds(state: TranscriptState): ReadonlySet<string> {
  const waiting = new Set<string>();
  // Prompts of settled runs were answered or expired; only the current run's can wait.
  for (let index = Math.min(state.runStart, state.items.length); index < state.items.length; index++) {
    const item = state.items[index]!;
    if (item.kind === 'permission' && !item.decision && !item.expired && item.request.subagentId !== undefined) waiting.add(item.request.subagentId);
  }
  return waiting;
}

/**
 * After a redraw from the store: prompts main still waits on that were not in the stored events
 * are added, and stored prompts main no longer waits on (answered while we were away, or lost
 * to a restart) stop offering buttons.
 */
export function reconcilePending(state: TranscriptState, pending: readonly PermissionRequestEvent[], now: number): TranscriptState {
  const waiting = new Set(pending.map((request) => request.requestId));
  const known = new Set<string>();
  const expired = expirePrompts(state, waiting, known);
  const added = pending.filter((request) => !known.has(request.requestId));
  return foldEvents(expired, added, now);
}

function expirePrompts(state: TranscriptState, waiting: ReadonlySet<string>, known: Set<string>): TranscriptState {
  const items = state.items.map((item) => {
    if (item.kind !== 'permission') return item;
    known.add(item.request.requestId);
    return item.decision || item.expired || waiting.has(item.request.requestId) ? item : { ...item, expired: true };
  });
  return { ...state, items, subagentTranscripts: mapTranscripts(state.subagentTranscripts, (own) => expirePrompts(own, waiting, known)) };
}

function mapTranscripts(transcripts: TranscriptState['subagentTranscripts'], change: (state: TranscriptState) => TranscriptState): TranscriptState['subagentTranscripts'] {
  const entries = Object.entries(transcripts);
  return entries.length === 0 ? transcripts : Object.fromEntries(entries.map(([id, own]) => [id, change(own)]));
}

/**
 * A stored run that never ended (the app was closed or crashed mid-run): nothing in it is still
 * streaming, and a new run of the same prompt is a new run.
 */
export function settleRun(state: TranscriptState, now: number): TranscriptState {
  const subagentTranscripts = mapTranscripts(state.subagentTranscripts, (own) => settleRun(own, now));
  if (!state.running) return subagentTranscripts === state.subagentTranscripts ? state : { ...state, subagentTranscripts };
  const draft: TranscriptState = { ...state, items: state.items.slice(), running: false, replaceKey: null, subagentTranscripts };
  cutOpenItems(draft, now);
  draft.runStart = draft.items.length;
  // Its subagents stopped with it, wherever they were.
  draft.subagents = draft.subagents.map((agent) => (agent.status === 'running' ? { ...agent, status: 'failed', latest: 'The run ended before it did.' } : agent));
  return draft;
}

function apply(draft: TranscriptState, event: CoveEvent, now: number): void {
  if (event.type === 'permissionRequest') return addPermission(draft, event);
  if (event.type === 'permissionDecision') {
    return update(draft, `permission:${event.requestId}`, (item) => (item.kind === 'permission' ? { ...item, decision: event, expired: false } : item));
  }
  if (event.subagentId !== undefined) return applySubagent(draft, event, now);

  switch (event.type) {
    case 'agentStart':
      // Its prompt's row came from the userMessage published before it.
      draft.running = true;
      draft.replaceKey = null;
      draft.runStart = draft.items.length;
      // Steering sent as the last run ended is this run's prompt (the session manager starts
      // it with them): its first turn reads them.
      while (draft.runStart > 0 && isUnreadSteering(draft.items[draft.runStart - 1]!)) draft.runStart--;
      if (event.resumed) append(draft, { kind: 'resume', key: nextKey(draft, 'resume', event) });
      return;
    case 'agentEnd':
      cutOpenItems(draft, now);
      // Stopped, the run's unread steering stays unread: no run starts from it (session-manager.ts).
      if (event.stopReason === 'aborted') markSteering(draft, { stopped: true });
      draft.running = false;
      draft.replaceKey = null;
      draft.runStart = draft.items.length + 1;
      return append(draft, {
        kind: 'runEnd',
        key: nextKey(draft, 'end', event),
        stopReason: event.stopReason,
        error: event.error ?? null,
        usage: event.usage,
        cost: event.cost,
        errorKind: event.errorKind ?? null,
      });
    case 'messageStart':
      return startMessage(draft, event.messageId);
    case 'messageUpdate':
      return update(draft, messageKey(event.messageId), (item) => (item.kind === 'assistant' ? applyDelta(item, event) : item));
    case 'messageEnd':
      if (!find(draft, messageKey(event.messageId))) startMessage(draft, event.messageId);
      return update(draft, messageKey(event.messageId), (item) => (item.kind === 'assistant' ? { ...item, parts: partsOf(event.content), streaming: false } : item));
    case 'toolExecutionStart':
      if (find(draft, toolKey(event.toolCallId))) return;
      return append(draft, { ...newTool(event.toolCallId, event.toolName, event.args, event.sensitivity ?? null, now), ...describedCall(event) });
    case 'toolExecutionUpdate':
      return update(draft, toolKey(event.toolCallId), (item) => (item.kind === 'tool' ? applyToolUpdate(item, event) : item));
    case 'progressMessage':
      return update(draft, toolKey(event.toolCallId), (item) => (item.kind === 'tool' ? { ...item, statusLine: event.text } : item));
    case 'toolExecutionEnd': {
      if (!find(draft, toolKey(event.toolCallId))) append(draft, newTool(event.toolCallId, event.toolName, null, null, now));
      return update(draft, toolKey(event.toolCallId), (item) =>
        item.kind === 'tool'
          ? { ...item, ...terminalAtEnd(item, event.result.details), status: event.isError ? 'error' : 'done', endedAt: now, result: event.result, isError: event.isError, progress: null }
          : item,
      );
    }
    case 'providerRetry': {
      const open = draft.items.findLast((item) => item.kind === 'assistant' && item.streaming);
      draft.replaceKey = open ? open.key : null;
      return append(draft, { kind: 'retry', key: nextKey(draft, 'retry', event), attempt: event.attempt, maxAttempts: event.maxAttempts, error: event.error, delayMs: event.delayMs });
    }
    case 'contextCompacted':
      return append(draft, {
        kind: 'compaction',
        key: nextKey(draft, 'compaction', event),
        removedMessages: event.removedMessages,
        tokensBefore: event.tokensBefore,
        summarized: event.summarized,
      });
    case 'todoUpdate':
      draft.todos = event.todos;
      return;
    case 'userMessage':
      return applyUserMessage(draft, event);
    case 'hookRun':
      return append(draft, {
        kind: 'hook',
        key: nextKey(draft, 'hook', event),
        hookEvent: event.hookEvent,
        command: event.command,
        file: event.file,
        decision: event.decision,
        exitCode: event.exitCode,
        output: event.output,
        durationMs: event.durationMs,
        timedOut: event.timedOut,
      });
    case 'loopDetected':
      return append(draft, { kind: 'loop', key: nextKey(draft, 'loop', event), toolName: event.toolName, count: event.count, action: event.action });
    case 'turnStart':
      return markSteering(draft, { read: true });
    case 'rewind':
    case 'revert':
      // Only between runs: nothing after these rows is looked up again.
      draft.items = withRestore(draft.items, event, nextKey(draft, event.type, event));
      draft.runStart = draft.items.length;
      return;
    case 'subagentStart':
    case 'subagentEnd':
    case 'turnEnd':
      // A subagent's start and end always carry its subagentId; turns show in the cost meter.
      return;
  }
}

/**
 * A prompt as typed, with its attachments: one row per event. Its run's agentStart carries what
 * the model got (a command's expanded text); the row shows what the person typed. A built-in
 * command's answer starts no run; a steered prompt went to the running agent.
 */
function applyUserMessage(draft: TranscriptState, event: UserMessageEvent): void {
  const item: UserItem = { kind: 'user', key: nextKey(draft, 'prompt', event), text: event.text, steered: event.steered };
  if (event.attachments) item.attachments = event.attachments;
  if (event.answer !== undefined) item.answer = event.answer;
  append(draft, item);
}

function isUnreadSteering(item: TranscriptState['items'][number]): item is UserItem {
  return item.kind === 'user' && item.steered && !item.read && !item.stopped;
}

/**
 * The steering of this run not read yet, marked: `read` when a turn began (it went to the model
 * with that turn), `stopped` when the person stopped the run first (no run reads it after).
 */
function markSteering(draft: TranscriptState, mark: { read: true } | { stopped: true }): void {
  for (let index = Math.min(draft.runStart, draft.items.length); index < draft.items.length; index++) {
    const item = draft.items[index]!;
    if (isUnreadSteering(item)) draft.items[index] = { ...item, ...mark };
  }
}

function applySubagent(draft: TranscriptState, event: CoveEvent, now: number): void {
  const id = event.subagentId as string;
  if (event.type === 'subagentStart') {
    if (draft.subagents.some((agent) => agent.id === id)) return;
    draft.subagents.push({
      id,
      displayName: event.displayName,
      task: event.task,
      parentToolCallId: event.parentToolCallId,
      status: 'running',
      startedAt: now,
      endedAt: null,
      lastAt: now,
      latest: null,
    });
    return append(draft, { kind: 'subagent', key: `subagent:${id}:start`, subagentId: id, displayName: event.displayName, task: event.task, status: null });
  }
  const index = draft.subagents.findIndex((agent) => agent.id === id);
  if (index < 0) return;
  const agent = draft.subagents[index]!;
  const changed = subagentChange(agent, event, now) ?? (event.type === 'messageUpdate' ? null : agent);
  if (changed) draft.subagents[index] = changed === agent && agent.lastAt === now ? agent : { ...changed, lastAt: now };
  if (event.type === 'subagentEnd' && !find(draft, `subagent:${id}:end`)) {
    append(draft, { kind: 'subagent', key: `subagent:${id}:end`, subagentId: id, displayName: agent.displayName, task: agent.task, status: event.status });
  }
}

function subagentChange(agent: SubagentState, event: CoveEvent, now: number): SubagentState | null {
  switch (event.type) {
    case 'subagentEnd':
      return { ...agent, status: event.status, endedAt: now };
    case 'progressMessage':
      return { ...agent, latest: event.text };
    case 'toolExecutionStart':
      return { ...agent, latest: event.toolName };
    case 'agentEnd':
      return event.error ? { ...agent, latest: event.error } : null;
    default:
      return null;
  }
}

function addPermission(draft: TranscriptState, event: PermissionRequestEvent): void {
  const key = `permission:${event.requestId}`;
  if (find(draft, key)) return;
  const asker = event.subagentId === undefined ? undefined : draft.subagents.find((agent) => agent.id === event.subagentId);
  append(draft, { kind: 'permission', key, request: event, decision: null, expired: false, subagentName: asker?.displayName ?? null });
}

function startMessage(draft: TranscriptState, messageId: string): void {
  const key = messageKey(messageId);
  if (find(draft, key)) return;
  if (draft.replaceKey) {
    const index = draft.items.findLastIndex((item) => item.key === draft.replaceKey);
    if (index >= 0) draft.items.splice(index, 1);
    draft.replaceKey = null;
  }
  append(draft, { kind: 'assistant', key, messageId, parts: [], streaming: true, cut: false });
}

function applyDelta(item: AssistantItem, event: MessageUpdateEvent): AssistantItem {
  const delta = event.delta;
  const parts = item.parts.slice();
  const current = parts[delta.index];
  let next: AssistantPart;
  if (delta.type === 'text') next = { kind: 'text', text: (current?.kind === 'text' ? current.text : '') + delta.text };
  else if (delta.type === 'thinking') next = { kind: 'thinking', text: (current?.kind === 'thinking' ? current.text : '') + delta.thinking };
  else next = { kind: 'toolCall', toolName: delta.toolName, json: (current?.kind === 'toolCall' ? current.json : '') + delta.partialJson };
  parts[delta.index] = next;
  return { ...item, parts };
}

function partsOf(content: readonly AssistantBlock[]): AssistantPart[] {
  const parts: AssistantPart[] = [];
  for (const block of content) {
    if (block.type === 'text') parts.push({ kind: 'text', text: block.text });
    else if (block.type === 'thinking' && block.thinking) parts.push({ kind: 'thinking', text: block.thinking });
    // Finished tool calls are drawn by their tool cards; redacted and omitted thinking have nothing to show.
  }
  return parts;
}

function applyToolUpdate(item: ToolItem, event: ToolExecutionUpdateEvent): ToolItem {
  const partial = event.partialResult;
  const details = (partial.details ?? {}) as { chunk?: unknown; progress?: unknown };
  const next: ToolItem = { ...item };
  const terminal = terminalAfterUpdate(item, partial.details);
  if (terminal) Object.assign(next, terminal);
  else {
    const text = partial.content.flatMap((block) => (block.type === 'text' ? [block.text] : [])).join('');
    if (text !== '') next.partialText = text;
  }
  if (typeof details.progress === 'number' && Number.isFinite(details.progress)) next.progress = Math.min(1, Math.max(0, details.progress));
  return next;
}

function newTool(toolCallId: string, toolName: string, args: unknown, sensitivity: ToolItem['sensitivity'], now: number): ToolItem {
  return {
    kind: 'tool',
    key: toolKey(toolCallId),
    toolCallId,
    toolName,
    args,
    sensitivity,
    status: 'running',
    startedAt: now,
    endedAt: null,
    terminal: null,
    partialText: null,
    progress: null,
    statusLine: null,
    result: null,
    isError: false,
  };
}

/** The run ended: whatever was still streaming or running stopped with it. */
function cutOpenItems(draft: TranscriptState, now: number): void {
  for (let index = Math.min(draft.runStart, draft.items.length); index < draft.items.length; index++) {
    const item = draft.items[index]!;
    if (item.kind === 'assistant' && item.streaming) draft.items[index] = { ...item, streaming: false, cut: true };
    else if (item.kind === 'tool' && item.status === 'running') draft.items[index] = { ...item, status: 'error', isError: true, endedAt: now };
  }
}

function messageKey(messageId: string): string {
  return `message:${messageId}`;
}

function toolKey(toolCallId: string): string {
  return `tool:${toolCallId}`;
}

/** By the event's seq where it has one, so a row keeps its key when the transcript is folded again. */
function nextKey(draft: TranscriptState, prefix: string, event: CoveEvent): string {
  if (event.seq !== undefined) return `${prefix}@${event.seq}`;
  draft.counter += 1;
  return `${prefix}:${draft.counter}`;
}

function append(draft: TranscriptState, item: TranscriptItem): void {
  draft.items.push(item);
}

/** An item of the current run; earlier runs are settled and never looked up again. */
function find(draft: TranscriptState, key: string): TranscriptItem | undefined {
  for (let index = draft.items.length - 1; index >= draft.runStart; index--) {
    if (draft.items[index]!.key === key) return draft.items[index];
  }
  return undefined;
}

/** Recent items are near the end, so the search runs backwards. */
function update(draft: TranscriptState, key: string, change: (item: TranscriptItem) => TranscriptItem): void {
  for (let index = draft.items.length - 1; index >= 0; index--) {
    if (draft.items[index]!.key === key) {
      draft.items[index] = change(draft.items[index]!);
      return;
    }
  }
}
