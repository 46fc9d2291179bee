import { test } from 'node:test';
import assert from 'node:assert/strict';
import type { HostEvent } from '../../shared/contract';
import { makeEvent, type CoveEvent } from '../../shared/events';
import { streamHostEvents } from '../../electron/core/api/host-events';
import type { SessionManager } from '../../electron/core/sessions/session-manager';

function fakeManager() {
  let listener: (event: CoveEvent) => void = () => {};
  const manager = {
    subscribe: (l: (event: CoveEvent) => void) => ((listener = l), () => {}),
    subscribeSessions: () => () => {},
    pendingPermissions: () => [],
    lastError: () => null,
  } as unknown as SessionManager;
  return { manager, publish: (event: CoveEvent) => listener(event) };
}

const delta = (sessionId: string, text: string, index = 0) =>
  makeEvent('messageUpdate', { sessionId, messageId: `msg-${sessionId}`, delta: { type: 'text', index, text } });

test('streamed deltas are coalesced per block, and other events keep their order', async () => {
  const { manager, publish } = fakeManager();
  const received: HostEvent[] = [];
  const stop = streamHostEvents(manager, (event) => received.push(event));
  for (let i = 0; i < 100; i++) publish(delta('s1', `${i},`));
  publish(makeEvent('messageEnd', { sessionId: 's1', messageId: 'msg-s1', content: [], providerStopReason: 'end_turn', usage: { input: 0, output: 0, cacheRead: 0, cacheWrite: 0 } }));
  publish(delta('s1', 'late'));
  await new Promise<void>((resolve) => {
    const check = () => (received.length >= 3 ? resolve() : setTimeout(check, 5));
    check();
  });
  stop();
  const agent = received.map((e) => (e.kind === 'agent' ? e.event : null));
  assert.deepEqual(agent.map((e) => e?.type), ['messageUpdate', 'messageEnd', 'messageUpdate']);
  const first = agent[0]!;
  assert.equal(first.type === 'messageUpdate' && first.delta.type === 'text' && first.delta.text, Array.from({ length: 100 }, (_, i) => `${i},`).join(''));
});

test('deltas of different sessions or blocks are never merged together', async () => {
  const { manager, publish } = fakeManager();
  const received: HostEvent[] = [];
  const stop = streamHostEvents(manager, (event) => received.push(event));
  publish(delta('s1', 'a'));
  publish(delta('s2', 'b'));
  publish(delta('s1', 'c'));
  publish(delta('s1', 'd', 1));
  stop();
  const texts = received.map((e) => (e.kind === 'agent' && e.event.type === 'messageUpdate' && e.event.delta.type === 'text' ? `${e.event.sessionId}:${e.event.delta.index}:${e.event.delta.text}` : ''));
  assert.deepEqual(texts, ['s1:0:a', 's2:0:b', 's1:0:c', 's1:1:d']);
});
