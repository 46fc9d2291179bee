import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { makeEvent, type CoveEvent } from '../../shared/events';
import { openStore } from '../../electron/core/store';

function withSession(t: { after(fn: () => void): void }) {
  const dir = mkdtempSync(join(tmpdir(), 'cove-seq-'));
  const store = openStore(dir);
  t.after(() => {
    store.close();
    rmSync(dir, { recursive: true, force: true });
  });
  return { store, sessionId: store.createSession({ workspaces: ['/w'], model: 'm', permissionMode: 'default' }).id };
}

test('a published seq is stored as given; one behind the log (a second process) is numbered next, not lost', (t) => {
  const { store, sessionId } = withSession(t);
  const turn = (n: number, seq?: number): CoveEvent => ({ ...makeEvent('turnStart', { sessionId, turn: n }), ...(seq === undefined ? {} : { seq }) });
  assert.equal(store.lastEventSeq(sessionId), 0);
  store.appendEvents(sessionId, [turn(1, 3), turn(2, 4)]);
  store.appendEvents(sessionId, [turn(3, 2), turn(4)]);
  assert.deepEqual(
    store.loadEvents(sessionId).map((event) => [event.type === 'turnStart' && event.turn, event.seq]),
    [
      [1, 3],
      [2, 4],
      [3, 5],
      [4, 6],
    ],
  );
  assert.equal(store.lastEventSeq(sessionId), 6);
  assert.deepEqual(
    store.loadEvents(sessionId, { afterSeq: 3, untilSeq: 5 }).map((event) => event.seq),
    [4, 5],
  );
});

test("a redraw starts at the first run's prompt among the latest events, never at a steering or subagent one", (t) => {
  const { store, sessionId } = withSession(t);
  const events: CoveEvent[] = [];
  const prompt = (text: string, extra: { steered?: boolean; subagentId?: string } = {}) =>
    events.push(makeEvent('userMessage', { sessionId, text, steered: extra.steered ?? false, ...(extra.subagentId ? { subagentId: extra.subagentId } : {}) }));
  const filler = (count: number) => {
    for (let index = 0; index < count; index++) events.push(makeEvent('turnStart', { sessionId, turn: index }));
  };
  prompt('first run'); // seq 1
  filler(9); // 2…10
  prompt('steering', { steered: true }); // 11
  prompt('a subagent', { subagentId: 'sub' }); // 12
  filler(3); // 13…15
  prompt('second run'); // 16
  filler(4); // 17…20
  store.appendEvents(sessionId, events);
  assert.equal(store.redrawStart(sessionId, 20, 12), 15, 'the latest 12 (9…20) start at the prompt with seq 16');
  assert.equal(store.redrawStart(sessionId, 20, 3), 17, 'no prompt among the latest 3: the latest 3');
  assert.equal(store.redrawStart(sessionId, 20, 100), 0, 'a short log is sent whole');
});
