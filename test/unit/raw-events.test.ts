import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { makeEvent, type CoveEvent } from '../../shared/events';
import { openStore } from '../../electron/core/store';
import { encodeWithRawEvents, RawEvents } from '../../electron/core/api/raw-events';

function withStore(t: { after(fn: () => void): void }) {
  const dir = mkdtempSync(join(tmpdir(), 'cove-raw-'));
  const store = openStore(dir);
  t.after(() => {
    store.close();
    rmSync(dir, { recursive: true, force: true });
  });
  return store;
}

test('stored rows sent as their text parse to exactly the events the store loads', (t) => {
  const store = withStore(t);
  const sessionId = store.createSession({ workspaces: ['/w'], model: 'm', permissionMode: 'default' }).id;
  const tricky = 'quotes " and \\ backslashes, “ünïcode”, a NUL-free \u2028 line separator, and "cove-raw-x-0"';
  const events: CoveEvent[] = [
    makeEvent('userMessage', { sessionId, text: tricky, steered: false }),
    makeEvent('messageUpdate', { sessionId, messageId: 'm1', delta: { type: 'text', index: 0, text: `${tricky}\n` } }),
    makeEvent('toolExecutionEnd', {
      sessionId,
      subagentId: 'sub-1',
      toolCallId: 't1',
      toolName: 'bash',
      result: { content: [{ type: 'text', text: tricky }], details: { exitCode: 0 } },
      isError: false,
    }),
    makeEvent('loopDetected', { sessionId, toolName: 'bash', count: 3, action: 'nudge' }),
  ];
  store.appendEvents(
    sessionId,
    events.map((event, index) => ({ ...event, seq: index + 5 })),
  );
  const frame = { type: 'response', id: 1, response: { ok: true, value: { events: new RawEvents(store.loadEventTexts(sessionId, { afterSeq: 5 })), note: tricky } } };
  const decoded = JSON.parse(encodeWithRawEvents(frame));
  assert.deepEqual(decoded.response.value.events, store.loadEvents(sessionId, { afterSeq: 5 }));
  assert.deepEqual(
    decoded.response.value.events.map((event: { seq: number }) => event.seq),
    [6, 7, 8],
  );
  assert.equal(decoded.response.value.note, tricky, 'other strings, a placeholder look-alike included, are left alone');
  assert.deepEqual(
    store.loadEvents(sessionId).map((event) => event.seq),
    [5, 6, 7, 8],
    'the store keeps the seq it was given',
  );
});

test('a value without RawEvents encodes as JSON.stringify does', () => {
  const value = { a: [1, 'two', { three: null }], b: 'cove-raw-' };
  assert.equal(encodeWithRawEvents(value), JSON.stringify(value));
});
