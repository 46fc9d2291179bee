// The open transcript in the renderer's store, over a stand-in transport: the first screen from
// session:open, live events held while it is on its way, the older part by seq range, and a gap
// in the live stream fetched by range, ending in exactly the transcript of the whole log.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import type { Response, SessionEvent, SessionSummary, SessionView } from '../../shared/contract';
import { makeEvent, ZERO_USAGE, type CoveEvent } from '../../shared/events';
import { useCove } from '../../renderer/store';
import { setTransport } from '../../renderer/transport/client';
import { apiFrom } from '../../renderer/transport/types';
import { EMPTY_TRANSCRIPT, foldEvents } from '../../renderer/features/transcript/model';

const sessionId = 's1';

function log(): SessionEvent[] {
  const events: CoveEvent[] = [
    makeEvent('userMessage', { sessionId, text: 'first', steered: false }),
    makeEvent('agentStart', { sessionId, model: 'm', prompt: 'first' }),
    makeEvent('messageStart', { sessionId, messageId: 'm1', role: 'assistant' }),
    makeEvent('messageUpdate', { sessionId, messageId: 'm1', delta: { type: 'text', index: 0, text: 'One.' } }),
    makeEvent('agentEnd', { sessionId, stopReason: 'endTurn', usage: ZERO_USAGE, cost: null }),
    makeEvent('userMessage', { sessionId, text: 'second', steered: false }),
    makeEvent('agentStart', { sessionId, model: 'm', prompt: 'second' }),
    makeEvent('messageStart', { sessionId, messageId: 'm2', role: 'assistant' }),
    makeEvent('messageUpdate', { sessionId, messageId: 'm2', delta: { type: 'text', index: 0, text: 'Tw' } }),
    makeEvent('messageUpdate', { sessionId, messageId: 'm2', delta: { type: 'text', index: 0, text: 'o.' } }),
    makeEvent('userMessage', { sessionId, text: 'and more', steered: true }),
    makeEvent('messageUpdate', { sessionId, messageId: 'm2', delta: { type: 'text', index: 0, text: ' Done.' } }),
    makeEvent('agentEnd', { sessionId, stopReason: 'endTurn', usage: ZERO_USAGE, cost: null }),
  ];
  return events.map((event, index) => ({ ...event, seq: index + 1 }));
}

test('first screen, held live events, older part and a gap end in the whole log, each event once', async () => {
  const events = log();
  const calls: string[] = [];
  let answerOpen!: () => void;
  const opened = new Promise<void>((resolve) => (answerOpen = resolve));
  const summary = { id: sessionId, title: 'first', status: 'running' } as SessionSummary;
  const call = async (name: string, input: unknown): Promise<Response> => {
    if (name === 'session:open') {
      calls.push('open');
      await opened;
      const view: SessionView = { session: summary, events: events.slice(5, 9), fromSeq: 5, lastSeq: 9, pending: [] };
      return { ok: true, value: view };
    }
    if (name === 'session:events') {
      const { afterSeq, untilSeq, limit } = input as { afterSeq: number; untilSeq?: number; limit?: number };
      calls.push(`events ${afterSeq}..${untilSeq ?? 'end'}`);
      const range = events.filter((event) => event.seq > afterSeq && event.seq <= (untilSeq ?? Infinity));
      return { ok: true, value: { events: range.slice(0, limit ?? range.length) } };
    }
    return { ok: false, error: { code: 'unknownRequest', message: name } };
  };
  const watched: string[][] = [];
  setTransport({
    kind: 'websocket',
    api: apiFrom(
      call,
      () => () => {},
      async (input) => {
        watched.push(input.sessionIds);
        return { ok: true, value: { watching: input.sessionIds } };
      },
    ),
    onConnection: () => () => {},
    pathForFile: null,
    onMenuCommand: null,
  });

  const opening = useCove.getState().openTranscript(sessionId);
  // Live while the open is on its way: one it will answer, one after it, the same one twice.
  useCove.getState().foldLiveEvents(sessionId, [events[8]!, events[9]!, events[9]!]);
  answerOpen();
  await opening;
  assert.deepEqual(watched, [[sessionId]], 'the session is watched before it is opened');

  // Seq 11 never arrives live (a dropped frame): 12 and 13 wait, 11 is fetched.
  useCove.getState().foldLiveEvents(sessionId, [events[12]!, events[11]!]);
  for (let tries = 0; useCove.getState().transcript?.order.last !== 13 && tries < 100; tries++) await new Promise((resolve) => setTimeout(resolve, 1));

  const transcript = useCove.getState().transcript!;
  assert.deepEqual(calls, ['open', 'events 0..5', 'events 10..11']);
  assert.equal(transcript.olderUntil, 0);
  assert.deepEqual(transcript.state.items, foldEvents(EMPTY_TRANSCRIPT, events, 0).items);
  const users = transcript.state.items.flatMap((item) => (item.kind === 'user' ? [item.text] : []));
  assert.deepEqual(users, ['first', 'second', 'and more']);

  useCove.getState().closeTranscript();
  assert.deepEqual(watched.at(-1), []);
});
