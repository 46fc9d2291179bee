import { test } from 'node:test';
import assert from 'node:assert/strict';
import { makeEvent, ZERO_USAGE } from '../../shared/events';
import { EventSequencer, type SequencedEvent } from '../../electron/core/sessions/event-sequencer';

const delta = (sessionId: string, text: string, index = 0) => makeEvent('messageUpdate', { sessionId, messageId: `msg-${sessionId}`, delta: { type: 'text', index, text } });
const end = (sessionId: string) => makeEvent('messageEnd', { sessionId, messageId: `msg-${sessionId}`, content: [], providerStopReason: 'end_turn', usage: ZERO_USAGE });

function sequencer(stored: Record<string, number> = {}, frameMs = 16) {
  const delivered: SequencedEvent[] = [];
  const reads: string[] = [];
  const instance = new EventSequencer(
    (sessionId) => {
      reads.push(sessionId);
      return stored[sessionId] ?? 0;
    },
    (event) => delivered.push(event),
    frameMs,
  );
  return { instance, delivered, reads };
}

const texts = (events: SequencedEvent[]) =>
  events.map((e) => (e.type === 'messageUpdate' && e.delta.type === 'text' ? `${e.sessionId}:${e.delta.index}:${e.delta.text}@${e.seq}` : `${e.type}@${e.seq}`));

test('deltas of one block are coalesced before they are numbered; any other event releases them first', () => {
  const { instance, delivered } = sequencer();
  for (let i = 0; i < 100; i++) instance.push(delta('s1', `${i},`));
  assert.equal(delivered.length, 0, 'held for at most a frame');
  instance.push(end('s1'));
  instance.push(delta('s1', 'late'));
  instance.releaseAll();
  assert.deepEqual(texts(delivered), [`s1:0:${Array.from({ length: 100 }, (_, i) => `${i},`).join('')}@1`, 'messageEnd@2', 's1:0:late@3']);
});

test('deltas of different blocks or sessions are never merged, and each session counts on its own', () => {
  const { instance, delivered } = sequencer({ s2: 41 });
  instance.push(delta('s1', 'a'));
  instance.push(delta('s2', 'b'));
  instance.push(delta('s1', 'c', 1));
  instance.push(delta('s1', 'd', 1));
  instance.releaseAll();
  assert.deepEqual(texts(delivered).sort(), ['s1:0:a@1', 's1:1:cd@2', 's2:0:b@42'].sort());
});

test("numbering starts after the store's latest seq, read once per session, and goes on from there", () => {
  const { instance, delivered, reads } = sequencer({ s1: 7 });
  instance.push(makeEvent('turnStart', { sessionId: 's1', turn: 1 }));
  instance.push(makeEvent('turnStart', { sessionId: 's1', turn: 2 }));
  assert.deepEqual(
    delivered.map((e) => e.seq),
    [8, 9],
  );
  assert.deepEqual(reads, ['s1']);
  assert.equal(instance.current('s1'), 9);
  instance.forget('s1');
  instance.push(makeEvent('turnStart', { sessionId: 's1', turn: 3 }));
  assert.equal(delivered.at(-1)!.seq, 8, 'a forgotten session is read from the store again');
});

test('a held delta is released by its frame timer without any other event', async () => {
  const { instance, delivered } = sequencer({}, 5);
  instance.push(delta('s1', 'alone'));
  await new Promise((resolve) => setTimeout(resolve, 40));
  assert.deepEqual(texts(delivered), ['s1:0:alone@1']);
});

test('resync goes on after what another process stored meanwhile, never back', () => {
  const stored = { s1: 3 };
  const { instance, delivered } = sequencer(stored);
  instance.push(makeEvent('turnStart', { sessionId: 's1', turn: 1 }));
  stored.s1 = 10;
  instance.resync('s1');
  instance.push(makeEvent('turnStart', { sessionId: 's1', turn: 2 }));
  stored.s1 = 2;
  instance.resync('s1');
  instance.push(makeEvent('turnStart', { sessionId: 's1', turn: 3 }));
  assert.deepEqual(
    delivered.map((e) => e.seq),
    [4, 11, 12],
  );
});
