import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { makeEvent, ZERO_USAGE, type CoveEvent, type Cost } from '../../shared/events';
import { EMPTY_TRANSCRIPT, foldEvents, reconcilePending, settleRun } from '../../renderer/features/transcript/model';
import type { AssistantItem, PermissionItem, ToolItem, TranscriptState } from '../../renderer/features/transcript/model-types';
import { terminalText } from '../../renderer/features/tools/terminal-buffer';

const sessionId = 's1';
const cost: Cost = { input: 0, output: 0, cacheRead: 0, cacheWrite: 0, total: 0, priced: true };

function fold(events: CoveEvent[], state: TranscriptState = EMPTY_TRANSCRIPT): TranscriptState {
  return foldEvents(state, events, 1000);
}

function text(messageId: string, value: string, index = 0): CoveEvent {
  return makeEvent('messageUpdate', { sessionId, messageId, delta: { type: 'text', index, text: value } });
}

function prompt(value: string, steered = false): CoveEvent {
  return makeEvent('userMessage', { sessionId, text: value, steered });
}

function kinds(state: TranscriptState): string[] {
  return state.items.map((item) => item.kind);
}

function permissionRequest(requestId: string, extra: { subagentId?: string } = {}) {
  return makeEvent('permissionRequest', {
    sessionId,
    ...extra,
    requestId,
    toolCallId: `call-${requestId}`,
    toolName: 'bash',
    args: { command: 'rm -rf build' },
    sensitivity: 'dangerous',
    reasons: ['deletes files'],
    suggestedRule: 'bash(rm -rf build)',
  });
}

describe('transcript fold', () => {
  test('a run becomes a prompt, a streamed message and an end marker', () => {
    const state = fold([
      prompt('Fix the tests'),
      makeEvent('agentStart', { sessionId, model: 'm', prompt: 'Fix the tests' }),
      makeEvent('messageStart', { sessionId, messageId: 'm1', role: 'assistant' }),
      text('m1', 'Hel'),
      text('m1', 'lo'),
      makeEvent('agentEnd', { sessionId, stopReason: 'endTurn', usage: ZERO_USAGE, cost }),
    ]);
    assert.deepEqual(kinds(state), ['user', 'assistant', 'runEnd']);
    const message = state.items[1] as AssistantItem;
    assert.deepEqual(message.parts, [{ kind: 'text', text: 'Hello' }]);
    assert.equal(message.cut, true, 'a message without messageEnd was cut by the run end');
    assert.equal(state.running, false);
  });

  test('messageEnd replaces streamed parts with the final content and drops tool_use blocks', () => {
    const state = fold([
      makeEvent('messageStart', { sessionId, messageId: 'm1', role: 'assistant' }),
      text('m1', 'partial'),
      makeEvent('messageEnd', {
        sessionId,
        messageId: 'm1',
        content: [
          { type: 'text', text: 'Final answer' },
          { type: 'tool_use', id: 't1', name: 'bash', input: {} },
        ],
        providerStopReason: 'tool_use',
        usage: ZERO_USAGE,
      }),
    ]);
    const message = state.items[0] as AssistantItem;
    assert.deepEqual(message.parts, [{ kind: 'text', text: 'Final answer' }]);
    assert.equal(message.streaming, false);
  });

  test('thinking shows as a folded part; omitted thinking, redacted thinking and server tool blocks show nothing', () => {
    const state = fold([
      makeEvent('messageStart', { sessionId, messageId: 'm1', role: 'assistant' }),
      makeEvent('messageEnd', {
        sessionId,
        messageId: 'm1',
        content: [
          { type: 'thinking', thinking: '', signature: 'sig-omitted' },
          { type: 'thinking', thinking: 'Weighing two fixes.', signature: 'sig' },
          { type: 'redacted_thinking', data: 'opaque' },
          { type: 'server_tool_use', id: 'srv1', name: 'web_search', input: { query: 'q' } },
          { type: 'web_search_tool_result', tool_use_id: 'srv1', content: [] },
          { type: 'text', text: 'Answer', citations: [{ type: 'char_location' }] },
        ],
        providerStopReason: 'end_turn',
        usage: ZERO_USAGE,
      }),
    ]);
    const message = state.items[0] as AssistantItem;
    assert.deepEqual(message.parts, [
      { kind: 'thinking', text: 'Weighing two fixes.' },
      { kind: 'text', text: 'Answer' },
    ]);
  });

  test('a messageStart after providerRetry replaces the partial message', () => {
    const state = fold([
      prompt('p'),
      makeEvent('agentStart', { sessionId, model: 'm', prompt: 'p' }),
      makeEvent('messageStart', { sessionId, messageId: 'm1', role: 'assistant' }),
      text('m1', 'Half a sen'),
      makeEvent('providerRetry', { sessionId, attempt: 2, maxAttempts: 4, error: 'overloaded', delayMs: 500 }),
      makeEvent('messageStart', { sessionId, messageId: 'm2', role: 'assistant' }),
      text('m2', 'A whole sentence.'),
    ]);
    assert.deepEqual(kinds(state), ['user', 'retry', 'assistant']);
    const message = state.items[2] as AssistantItem;
    assert.equal(message.messageId, 'm2');
    assert.deepEqual(message.parts, [{ kind: 'text', text: 'A whole sentence.' }]);
  });

  test('a finished message before a retry is kept', () => {
    const state = fold([
      makeEvent('messageStart', { sessionId, messageId: 'm1', role: 'assistant' }),
      makeEvent('messageEnd', { sessionId, messageId: 'm1', content: [{ type: 'text', text: 'done' }], providerStopReason: 'end_turn', usage: ZERO_USAGE }),
      makeEvent('providerRetry', { sessionId, attempt: 2, maxAttempts: 4, error: 'overloaded', delayMs: 500 }),
      makeEvent('messageStart', { sessionId, messageId: 'm2', role: 'assistant' }),
    ]);
    assert.deepEqual(
      state.items.filter((item) => item.kind === 'assistant').map((item) => (item as AssistantItem).messageId),
      ['m1', 'm2'],
    );
  });

  test('tool card lifecycle: start, streamed terminal output, progress, end', () => {
    const state = fold([
      makeEvent('toolExecutionStart', { sessionId, toolCallId: 't1', toolName: 'bash', args: { command: 'npm test' }, sensitivity: 'mutating' }),
      makeEvent('toolExecutionUpdate', { sessionId, toolCallId: 't1', partialResult: { content: [], details: { chunk: 'line 1\r\nline', progress: 0.25 } } }),
      makeEvent('toolExecutionUpdate', { sessionId, toolCallId: 't1', partialResult: { content: [], details: { chunk: ' 2\r\n' } } }),
      makeEvent('progressMessage', { sessionId, toolCallId: 't1', text: 'running… 3 s' }),
    ]);
    let tool = state.items[0] as ToolItem;
    assert.equal(tool.status, 'running');
    assert.equal(tool.terminal && terminalText(tool.terminal), 'line 1\nline 2\n');
    assert.equal(tool.progress, 0.25, 'the last known progress stays until a new one');
    assert.equal(tool.statusLine, 'running… 3 s');

    const ended = fold(
      [makeEvent('toolExecutionEnd', { sessionId, toolCallId: 't1', toolName: 'bash', result: { content: [{ type: 'text', text: 'ok' }], details: { exitCode: 0 } }, isError: false })],
      state,
    );
    tool = ended.items[0] as ToolItem;
    assert.equal(tool.status, 'done');
    assert.deepEqual(tool.result?.details, { exitCode: 0 });
    assert.equal(state.items[0]!.kind === 'tool' && (state.items[0] as ToolItem).status, 'running', 'the earlier state is not changed');
  });

  test('a denied call with no start still gets a card in the error state', () => {
    const state = fold([
      makeEvent('toolExecutionEnd', {
        sessionId,
        toolCallId: 't9',
        toolName: 'write_file',
        result: { content: [{ type: 'text', text: 'Tool call denied: plan mode' }], errorKind: 'denied' },
        isError: true,
      }),
    ]);
    const tool = state.items[0] as ToolItem;
    assert.equal(tool.status, 'error');
    assert.equal(tool.result?.errorKind, 'denied');
  });

  test('a permission card resolves when its decision arrives', () => {
    const asked = fold([permissionRequest('r1')]);
    assert.equal((asked.items[0] as PermissionItem).decision, null);
    const decided = fold([makeEvent('permissionDecision', { sessionId, requestId: 'r1', decision: 'allow', scope: 'session', rule: null })], asked);
    const card = decided.items[0] as PermissionItem;
    assert.equal(card.decision?.decision, 'allow');
    assert.equal(card.decision?.scope, 'session');
    const again = fold([permissionRequest('r1')], decided);
    assert.equal(again.items.length, 1, 'a request seen twice is one card');
  });

  test("a subagent's events stay out of the transcript and feed the sidebar", () => {
    const subagentId = 'sub1';
    const state = fold([
      makeEvent('toolExecutionStart', { sessionId, toolCallId: 'parent', toolName: 'subagent', args: { task: 'look around' } }),
      makeEvent('subagentStart', { sessionId, subagentId, displayName: 'Ada', parentToolCallId: 'parent', task: 'look around' }),
      makeEvent('agentStart', { sessionId, subagentId, model: 'm', prompt: 'look around' }),
      makeEvent('messageStart', { sessionId, subagentId, messageId: 'sm1', role: 'assistant' }),
      makeEvent('messageUpdate', { sessionId, subagentId, messageId: 'sm1', delta: { type: 'text', index: 0, text: 'secret thoughts' } }),
      makeEvent('toolExecutionStart', { sessionId, subagentId, toolCallId: 'st1', toolName: 'list_files', args: {} }),
      makeEvent('progressMessage', { sessionId, subagentId, toolCallId: 'st1', text: 'listing src' }),
      permissionRequest('r2', { subagentId }),
      makeEvent('subagentEnd', { sessionId, subagentId, status: 'done' }),
    ]);
    assert.deepEqual(kinds(state), ['tool', 'subagent', 'permission', 'subagent']);
    assert.equal((state.items[2] as PermissionItem).subagentName, 'Ada', 'a subagent asking is named on the card');
    assert.equal(state.running, false, "a subagent's agentStart is not the session's run");
    const [agent] = state.subagents;
    assert.equal(agent?.displayName, 'Ada');
    assert.equal(agent?.status, 'done');
    assert.equal(agent?.latest, 'listing src');
  });

  test('prompts are drawn from userMessage only: a run start draws no row of its own', () => {
    const state = fold([makeEvent('agentStart', { sessionId, model: 'm', prompt: 'expanded /command text' })]);
    assert.deepEqual(kinds(state), []);
    assert.equal(state.running, true);
  });

  test('a run that never ended is settled, and its prompt can run again', () => {
    const stored = fold([
      prompt('same'),
      makeEvent('agentStart', { sessionId, model: 'm', prompt: 'same' }),
      makeEvent('toolExecutionStart', { sessionId, toolCallId: 't1', toolName: 'bash', args: {} }),
    ]);
    const settled = settleRun(stored, 2000);
    assert.equal((settled.items[1] as ToolItem).status, 'error');
    const retried = fold([prompt('same'), makeEvent('agentStart', { sessionId, model: 'm', prompt: 'same' })], settled);
    assert.deepEqual(kinds(retried), ['user', 'tool', 'user']);
  });

  test('reconcilePending adds prompts missing from the log and retires ones no longer waiting', () => {
    const stored = fold([permissionRequest('old')]);
    const state = reconcilePending(stored, [permissionRequest('new')], 1000);
    const cards = state.items as PermissionItem[];
    assert.deepEqual(
      cards.map((card) => [card.request.requestId, card.expired]),
      [
        ['old', true],
        ['new', false],
      ],
    );
  });

  test('a steered prompt is shown as queued', () => {
    const state = fold([prompt('also do X', true)]);
    assert.deepEqual(state.items[0], { kind: 'user', key: state.items[0]!.key, text: 'also do X', steered: true });
  });

  test('steering sent as a run ended is read by the run it starts, and steering of a stopped run is not', () => {
    const start = (prompt: string) => makeEvent('agentStart', { sessionId, model: 'claude-sonnet-5', prompt });
    const end = (stopReason: 'endTurn' | 'aborted') => makeEvent('agentEnd', { sessionId, stopReason, usage: ZERO_USAGE, cost });
    const turn = makeEvent('turnStart', { sessionId, turn: 1 });
    const late = fold([prompt('start'), start('start'), turn, end('endTurn'), prompt('a late note', true), start('a late note'), turn]);
    const note = late.items.find((item) => item.kind === 'user' && item.text === 'a late note');
    assert.equal(note?.kind === 'user' && note.read, true, 'the late note is read by the turn of the run it started');

    const stopped = fold([prompt('start'), start('start'), turn, prompt('unread', true), end('aborted'), prompt('next'), start('next'), turn]);
    const unread = stopped.items.find((item) => item.kind === 'user' && item.text === 'unread');
    assert.notEqual(unread?.kind === 'user' && unread.read, true, "a new prompt does not mark the stopped run's steering read");
    assert.equal(unread?.kind === 'user' && unread.stopped, true, 'it says its run was stopped before reading it');
    const ended = fold([prompt('start'), start('start'), turn, prompt('kept', true), end('endTurn')]);
    const kept = ended.items.find((item) => item.kind === 'user' && item.text === 'kept');
    assert.notEqual(kept?.kind === 'user' && kept.stopped, true, 'a run that ended by itself starts the next run with it instead');
  });

  test('no events returns the same state object', () => {
    assert.equal(foldEvents(EMPTY_TRANSCRIPT, [], 0), EMPTY_TRANSCRIPT);
  });
});
