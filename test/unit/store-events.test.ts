import { test, describe } from 'node:test';
import assert from 'node:assert/strict';
import { makeEvent } from '../../shared/events';
import type { CoveEvent } from '../../shared/events';
import { StoreError } from '../../electron/core/store';
import type { Store } from '../../electron/core/store';
import { openTestStore } from '../support/store';

function newSession(store: Store): string {
  return store.createSession({ workspaces: ['/w'], model: 'm', permissionMode: 'default' }).id;
}

const usage = { input: 3, output: 4, cacheRead: 0, cacheWrite: 1 };
const cost = { input: 0.1, output: 0.2, cacheRead: 0, cacheWrite: 0.05, total: 0.35, priced: true };

/** One of each kind of event a run produces, repeated with varying values up to `count`. */
function mixedEvents(sessionId: string, count: number): CoveEvent[] {
  const events: CoveEvent[] = [];
  for (let i = 0; events.length < count; i++) {
    const toolCallId = `call-${i}`;
    const batch: CoveEvent[] = [
      makeEvent('turnStart', { sessionId, turn: i }),
      makeEvent('messageUpdate', { sessionId, messageId: `m${i}`, delta: { type: 'text', index: 0, text: `chunk ${i} “ünïcode” \n` } }),
      makeEvent('messageEnd', {
        sessionId,
        messageId: `m${i}`,
        content: [{ type: 'tool_use', id: toolCallId, name: 'bash', input: { command: `echo ${i}` } }],
        providerStopReason: 'tool_use',
        usage,
      }),
      makeEvent('toolExecutionStart', { sessionId, toolCallId, toolName: 'bash', args: { command: `echo ${i}` }, sensitivity: 'dangerous' }),
      makeEvent('toolExecutionEnd', {
        sessionId,
        toolCallId,
        toolName: 'bash',
        result: { content: [{ type: 'text', text: String(i) }], details: { exitCode: 0 } },
        isError: false,
      }),
      makeEvent('toolExecutionUpdate', { sessionId, subagentId: 'sub-1', toolCallId: `sub-call-${i}`, partialResult: { content: [] } }),
      makeEvent('turnEnd', { sessionId, turn: i, usage, cost }),
    ];
    events.push(...batch.slice(0, count - events.length));
  }
  return events;
}

describe('events', () => {
  test('a batch of 1,000 round-trips in order with its seqs', (t) => {
    const { store } = openTestStore(t);
    const sessionId = newSession(store);
    const events = mixedEvents(sessionId, 1_000);
    assert.equal(store.appendEvents(sessionId, events), 1_000);
    const loaded = store.loadEvents(sessionId);
    assert.deepEqual(
      loaded,
      events.map((event, index) => ({ ...event, seq: index + 1 })),
    );
  });

  test('later batches continue the seqs; afterSeq and limit page through them', (t) => {
    const { store } = openTestStore(t);
    const sessionId = newSession(store);
    const other = newSession(store);
    const events = mixedEvents(sessionId, 25);
    assert.equal(store.appendEvents(sessionId, events.slice(0, 10)), 10);
    store.appendEvents(other, mixedEvents(other, 3));
    assert.equal(store.appendEvents(sessionId, events.slice(10)), 25);
    assert.equal(store.appendEvents(sessionId, []), 25);

    const page = store.loadEvents(sessionId, { afterSeq: 8, limit: 5 });
    assert.deepEqual(
      page.map((event) => event.seq),
      [9, 10, 11, 12, 13],
    );
    assert.deepEqual(
      page,
      events.slice(8, 13).map((event, index) => ({ ...event, seq: 9 + index })),
    );
    assert.deepEqual(store.loadEvents(sessionId, { afterSeq: 25 }), []);
    assert.deepEqual(
      store.loadEvents(other).map((event) => event.seq),
      [1, 2, 3],
    );
  });

  test('appending touches the session', (t) => {
    const { store } = openTestStore(t);
    const sessionId = newSession(store);
    const before = store.getSession(sessionId)!.updatedAt;
    store.appendEvents(sessionId, mixedEvents(sessionId, 2));
    assert.ok(store.getSession(sessionId)!.updatedAt > before);
  });

  test('a batch is all or nothing', (t) => {
    const { store } = openTestStore(t);
    const sessionId = newSession(store);
    const events = mixedEvents(sessionId, 5);
    // BigInt cannot be serialized, so the last event fails after the first five were inserted.
    const poisoned = makeEvent('toolExecutionStart', { sessionId, toolCallId: 'bad', toolName: 'bash', args: { n: 1n } });
    assert.throws(() => store.appendEvents(sessionId, [...events, poisoned]), /BigInt/);
    assert.deepEqual(store.loadEvents(sessionId), []);
    assert.deepEqual(store.listToolCalls(sessionId), []);
    assert.equal(store.appendEvents(sessionId, events), 5, 'seqs were not consumed by the failed batch');
  });

  test('events of another session or of an unknown session are refused', (t) => {
    const { store } = openTestStore(t);
    const sessionId = newSession(store);
    const stranger = mixedEvents('someone-else', 1);
    assert.throws(
      () => store.appendEvents(sessionId, [...mixedEvents(sessionId, 2), ...stranger]),
      (error: unknown) => error instanceof StoreError && error.code === 'invalidInput' && error.message.includes('events[2]') && error.message.includes('someone-else'),
    );
    assert.deepEqual(store.loadEvents(sessionId), []);
    assert.throws(
      () => store.appendEvents('someone-else', stranger),
      (error: unknown) => error instanceof StoreError && error.code === 'sessionNotFound',
    );
  });
});

describe('tool calls', () => {
  test('follow toolExecutionStart and toolExecutionEnd', (t) => {
    const { store, clock } = openTestStore(t);
    const sessionId = newSession(store);
    store.appendEvents(sessionId, [
      makeEvent('toolExecutionStart', { sessionId, toolCallId: 'ok', toolName: 'read_file', args: { path: 'a.ts' } }),
      makeEvent('toolExecutionStart', { sessionId, toolCallId: 'fails', toolName: 'bash', args: { command: 'false' } }),
      makeEvent('toolExecutionStart', { sessionId, subagentId: 'sub-7', toolCallId: 'slow', toolName: 'search', args: { pattern: 'x' } }),
    ]);
    const startedAt = clock.time;
    let calls = store.listToolCalls(sessionId);
    assert.deepEqual(
      calls.map((call) => [call.toolCallId, call.status, call.startedAt, call.endedAt]),
      [
        ['ok', 'running', startedAt, null],
        ['fails', 'running', startedAt, null],
        ['slow', 'running', startedAt, null],
      ],
    );
    assert.deepEqual(calls[0]!.args, { path: 'a.ts' });
    assert.equal(calls[2]!.subagentId, 'sub-7');

    const result = { content: [{ type: 'text' as const, text: 'done' }] };
    store.appendEvents(sessionId, [
      makeEvent('toolExecutionEnd', { sessionId, toolCallId: 'ok', toolName: 'read_file', result, isError: false }),
      makeEvent('toolExecutionEnd', { sessionId, toolCallId: 'fails', toolName: 'bash', result, isError: true }),
      makeEvent('toolExecutionEnd', { sessionId, toolCallId: 'denied', toolName: 'write_file', result: { ...result, errorKind: 'denied' }, isError: true }),
    ]);
    const endedAt = clock.time;
    calls = store.listToolCalls(sessionId);
    const byId = new Map(calls.map((call) => [call.toolCallId, call]));
    assert.deepEqual([byId.get('ok')!.status, byId.get('ok')!.endedAt], ['done', endedAt]);
    assert.deepEqual([byId.get('fails')!.status, byId.get('fails')!.endedAt], ['error', endedAt]);
    assert.deepEqual([byId.get('slow')!.status, byId.get('slow')!.endedAt], ['running', null]);
    assert.deepEqual([byId.get('denied')!.status, byId.get('denied')!.toolName], ['error', 'write_file']);
    assert.deepEqual(
      store.listToolCalls(sessionId, { status: 'running' }).map((call) => call.toolCallId),
      ['slow'],
    );
  });
});
