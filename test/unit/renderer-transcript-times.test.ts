import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { makeEvent, type CoveEvent } from '../../shared/events';
import { EMPTY_TRANSCRIPT, foldEvents, reconcilePending, settleRun, waitingSubagentIds } from '../../renderer/features/transcript/model';
import type { PermissionItem, ToolItem, UserItem } from '../../renderer/features/transcript/model-types';
import { freshTime } from '../../renderer/ui/use-now';

const sessionId = 's1';
const subagentId = 'sub_1';

/** An event as main publishes it: numbered and timed. */
function at<T extends CoveEvent>(event: T, time: number, seq: number): T {
  return { ...event, at: time, seq };
}

function subagentRun(): CoveEvent[] {
  return [
    at(makeEvent('agentStart', { sessionId, model: 'm', prompt: 'look' }), 1_000, 1),
    at(makeEvent('toolExecutionStart', { sessionId, toolCallId: 'parent', toolName: 'subagent', args: { task: 'explore tests' } }), 2_000, 2),
    at(makeEvent('subagentStart', { sessionId, subagentId, displayName: 'Ada', parentToolCallId: 'parent', task: 'explore tests' }), 2_100, 3),
    at(makeEvent('agentStart', { sessionId, subagentId, model: 'm', prompt: 'explore tests' }), 2_100, 4),
    at(makeEvent('messageStart', { sessionId, subagentId, messageId: 'm1', role: 'assistant' }), 2_200, 5),
    at(makeEvent('messageUpdate', { sessionId, subagentId, messageId: 'm1', delta: { type: 'text', index: 0, text: 'Looking **now**' } }), 2_300, 6),
    at(makeEvent('toolExecutionStart', { sessionId, subagentId, toolCallId: 'c1', toolName: 'list_files', args: { path: 'test' } }), 2_500, 7),
    at(
      makeEvent('permissionRequest', {
        sessionId,
        subagentId,
        requestId: 'r1',
        toolCallId: 'c2',
        toolName: 'bash',
        args: { command: 'npm test' },
        sensitivity: 'mutating',
        reasons: ['runs a command'],
        suggestedRule: 'bash(npm test)',
      }),
      2_600,
      8,
    ),
  ];
}

describe('transcript times and subagent transcripts', () => {
  test("a tool's and a subagent's times come from their events, whatever the page's clock says", () => {
    const events = [
      ...subagentRun(),
      at(makeEvent('toolExecutionEnd', { sessionId, subagentId, toolCallId: 'c1', toolName: 'list_files', result: { content: [] }, isError: false }), 4_500, 9),
      at(makeEvent('subagentEnd', { sessionId, subagentId, status: 'done' }), 9_100, 10),
    ];
    // Folded at two very different page times (live, then after a reload): the same durations.
    for (const pageNow of [2_000, 500_000]) {
      const state = foldEvents(EMPTY_TRANSCRIPT, events, pageNow);
      const parent = state.items.find((item) => item.kind === 'tool') as ToolItem;
      assert.equal(parent.startedAt, 2_000);
      const [agent] = state.subagents;
      assert.equal(agent!.startedAt, 2_100);
      assert.equal(agent!.endedAt, 9_100);
      const own = state.subagentTranscripts[subagentId]!.items.find((item) => item.kind === 'tool') as ToolItem;
      assert.equal(own.endedAt! - own.startedAt, 2_000);
    }
  });

  test('an event without a time (recorded before events had one) falls back to the page clock', () => {
    const state = foldEvents(EMPTY_TRANSCRIPT, [makeEvent('toolExecutionStart', { sessionId, toolCallId: 't', toolName: 'bash', args: {} })], 7_777);
    assert.equal((state.items[0] as ToolItem).startedAt, 7_777);
  });

  test("a subagent's own transcript holds its message, its tool cards and its prompt, none of which reach the main one", () => {
    const state = foldEvents(EMPTY_TRANSCRIPT, subagentRun(), 0);
    assert.deepEqual(
      state.items.map((item) => item.kind),
      ['tool', 'subagent', 'permission'],
    );
    const own = state.subagentTranscripts[subagentId]!;
    assert.deepEqual(
      own.items.map((item) => item.kind),
      ['assistant', 'tool', 'permission'],
    );
    assert.equal((own.items[1] as ToolItem).toolName, 'list_files');
    assert.equal(own.running, true);
    assert.equal((state.items[2] as PermissionItem).subagentName, 'Ada');
  });

  test('a subagent waits for the person while a prompt of its is open, and not once it is answered', () => {
    const asking = foldEvents(EMPTY_TRANSCRIPT, subagentRun(), 0);
    assert.deepEqual([...waitingSubagentIds(asking)], [subagentId]);
    const answered = foldEvents(asking, [at(makeEvent('permissionDecision', { sessionId, subagentId, requestId: 'r1', decision: 'allow', scope: 'once', rule: null }), 3_000, 9)], 0);
    assert.deepEqual([...waitingSubagentIds(answered)], []);
    const own = answered.subagentTranscripts[subagentId]!.items.find((item) => item.kind === 'permission') as PermissionItem;
    assert.equal(own.decision?.decision, 'allow', "the subagent's own copy of the prompt resolves too");
  });

  test("a redraw after a restart retires the subagent's prompts and settles its open tool calls", () => {
    const stored = foldEvents(EMPTY_TRANSCRIPT, subagentRun(), 0);
    const state = reconcilePending(settleRun(stored, 50_000), [], 50_000);
    assert.deepEqual([...waitingSubagentIds(state)], []);
    const own = state.subagentTranscripts[subagentId]!;
    assert.equal((own.items.find((item) => item.kind === 'permission') as PermissionItem).expired, true);
    assert.equal((own.items.find((item) => item.kind === 'tool') as ToolItem).status, 'error');
  });

  test('a steered prompt is sent until the next turn of the main agent begins, then read; a subagent turn does not count', () => {
    const sent = foldEvents(
      EMPTY_TRANSCRIPT,
      [
        at(makeEvent('userMessage', { sessionId, text: 'go', steered: false }), 1, 1),
        at(makeEvent('agentStart', { sessionId, model: 'm', prompt: 'go' }), 2, 2),
        at(makeEvent('turnStart', { sessionId, turn: 1 }), 3, 3),
        at(makeEvent('userMessage', { sessionId, text: 'also X', steered: true }), 4, 4),
        at(makeEvent('turnStart', { sessionId, subagentId, turn: 1 }), 5, 5),
      ],
      0,
    );
    const steering = () => sent.items.find((item) => item.kind === 'user' && item.steered) as UserItem;
    assert.equal(steering().read, undefined);
    const read = foldEvents(sent, [at(makeEvent('turnStart', { sessionId, turn: 2 }), 6, 6)], 0);
    assert.equal((read.items.find((item) => item.kind === 'user' && item.steered) as UserItem).read, true);
    assert.equal((read.items[0] as UserItem).read, undefined, 'a prompt that started the run is not steering');
  });
});

describe('the shared clock', () => {
  test('a stopped clock is brought up to date when read, at most once per interval; a ticking one is left to its timer', () => {
    assert.equal(freshTime(1_000, false, 1_000, 60_000), 60_000, 'a row mounted long after the last one unmounted starts from now');
    assert.equal(freshTime(59_500, false, 1_000, 60_000), 59_500, 'within an interval React sees one value');
    assert.equal(freshTime(1_000, true, 1_000, 60_000), 1_000, 'the timer moves a ticking clock');
  });
});
