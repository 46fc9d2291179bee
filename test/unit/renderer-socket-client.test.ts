import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import type { ClientFrame, HostEvent, ServerFrame } from '../../shared/contract';
import { createSocketTransport, type SocketLike } from '../../renderer/transport/socket-client';
import type { ConnectionState } from '../../renderer/transport/types';

class FakeSocket implements SocketLike {
  onopen: SocketLike['onopen'] = null;
  onclose: SocketLike['onclose'] = null;
  onmessage: SocketLike['onmessage'] = null;
  onerror: SocketLike['onerror'] = null;
  sent: ClientFrame[] = [];
  constructor(readonly url: string) {}
  send(data: string): void {
    this.sent.push(JSON.parse(data) as ClientFrame);
  }
  close(): void {}
  receive(frame: ServerFrame): void {
    this.onmessage?.({ data: JSON.stringify(frame) });
  }
}

function harness() {
  const sockets: FakeSocket[] = [];
  const timers: { callback: () => void; ms: number; cleared: boolean }[] = [];
  const states: ConnectionState[] = [];
  const transport = createSocketTransport({
    url: 'ws://127.0.0.1:9/api?token=t',
    createSocket: (url) => {
      const socket = new FakeSocket(url);
      sockets.push(socket);
      return socket;
    },
    setTimer: (callback, ms) => {
      const timer = { callback, ms, cleared: false };
      timers.push(timer);
      return timer;
    },
    clearTimer: (timer) => {
      (timer as { cleared: boolean }).cleared = true;
    },
    random: () => 0.5,
  });
  transport.onConnection((state) => states.push(state));
  return { transport, sockets, timers, states, last: () => sockets.at(-1)! };
}

describe('WebSocket client of the contract', () => {
  test('a request made before the socket opens is sent on open and answered by id', async () => {
    const { transport, last } = harness();
    const answer = transport.api['session:list']({});
    assert.equal(last().sent.length, 0);
    last().onopen?.({});
    const [frame] = last().sent;
    assert.deepEqual(frame, { type: 'request', id: frame!.id, name: 'session:list', input: {} });
    last().receive({ type: 'response', id: frame!.id, response: { ok: true, value: [] } });
    assert.deepEqual(await answer, { ok: true, value: [] });
  });

  test('event frames reach every listener until it unsubscribes', () => {
    const { transport, last } = harness();
    last().onopen?.({});
    const seen: HostEvent[] = [];
    const stop = transport.api.onEvent((event) => seen.push(event));
    const event: HostEvent = { kind: 'sessionDeleted', sessionId: 's1' };
    last().receive({ type: 'event', event });
    stop();
    last().receive({ type: 'event', event });
    assert.deepEqual(seen, [event]);
  });

  test('a drop fails requests in flight, reconnects with a delay, and sends what waited', async () => {
    const { transport, last, sockets, timers, states } = harness();
    last().onopen?.({});
    const inFlight = transport.api['session:stop']({ sessionId: 's1' });
    last().onclose?.({ code: 1006, reason: '' });
    const failed = await inFlight;
    assert.equal(failed.ok, false);
    assert.match(!failed.ok ? failed.error.message : '', /dropped before session:stop was answered/);
    assert.equal(states.at(-1)?.status, 'reconnecting');

    const waiting = transport.api['session:list']({});
    const reconnect = timers.find((timer) => timer.ms < 15_000 && !timer.cleared)!;
    reconnect.callback();
    assert.equal(sockets.length, 2);
    last().onopen?.({});
    assert.deepEqual(states.at(-1), { status: 'open', reconnected: true });
    const frame = last().sent[0]!;
    assert.equal(frame.name, 'session:list');
    last().receive({ type: 'response', id: frame.id, response: { ok: true, value: [] } });
    assert.equal((await waiting).ok, true);
  });

  test('a request that waits too long fails with a message saying it was not sent', async () => {
    const { transport, timers } = harness();
    const waiting = transport.api['session:send']({ sessionId: 's1', text: 'hi' });
    timers.find((timer) => timer.ms === 15_000)!.callback();
    const response = await waiting;
    assert.equal(response.ok, false);
    assert.match(!response.ok ? response.error.message : '', /Not connected to Cove.*session:send was not sent/);
  });

  test('a refused token stops reconnecting and says what to do', () => {
    const { last, timers, states } = harness();
    last().onclose?.({ code: 4401, reason: 'bad token' });
    const state = states.at(-1);
    assert.equal(state?.status, 'failed');
    assert.match(state?.status === 'failed' ? state.message : '', /bad token.*cove serve/);
    assert.equal(timers.length, 0);
  });

  test('backoff grows between attempts', () => {
    const { last, timers } = harness();
    last().onclose?.({ code: 1006, reason: '' });
    timers.at(-1)!.callback();
    last().onclose?.({ code: 1006, reason: '' });
    timers.at(-1)!.callback();
    last().onclose?.({ code: 1006, reason: '' });
    const delays = timers.map((timer) => timer.ms);
    assert.ok(delays[0]! < delays[1]! && delays[1]! < delays[2]!, `delays ${delays.join(', ')}`);
  });
});
