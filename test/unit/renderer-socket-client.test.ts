import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import type { ClientFrame, HostEvent, ServerFrame } from '../../shared/contract';
import { createSocketTransport, probeUrl, refusalMessage, type SocketLike } from '../../renderer/transport/socket-client';
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

/** An HTTP answer the test gives when it chooses: `answer(status)`, or `fail()` for no answer. */
class FakeFetch {
  urls: string[] = [];
  private pending: { resolve(value: { status: number }): void; reject(error: Error): void; promise: Promise<{ status: number }> }[] = [];
  fetch = (url: string): Promise<{ status: number }> => {
    this.urls.push(url);
    let resolve!: (value: { status: number }) => void;
    let reject!: (error: Error) => void;
    const promise = new Promise<{ status: number }>((yes, no) => {
      resolve = yes;
      reject = no;
    });
    this.pending.push({ resolve, reject, promise });
    return promise;
  };
  /** Answers the oldest probe; resolves once the client has acted on the answer. */
  async answer(status: number): Promise<void> {
    const probe = this.pending.shift()!;
    probe.resolve({ status });
    // The client awaited this promise before the test did, so its reaction has run by now.
    await probe.promise;
  }
  async fail(): Promise<void> {
    const probe = this.pending.shift()!;
    probe.reject(new TypeError('Failed to fetch'));
    await probe.promise.catch(() => undefined);
  }
}

function harness(fetcher?: FakeFetch) {
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
    ...(fetcher ? { fetch: fetcher.fetch } : {}),
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

  test('the watched sessions are said first on every connection, then the requests that waited', async () => {
    const { transport, last, timers } = harness();
    const early = await transport.api.watch({ sessionIds: ['s1'] });
    assert.deepEqual(early, { ok: true, value: { watching: ['s1'] } });
    const waiting = transport.api['session:open']({ sessionId: 's1' });
    last().onopen?.({});
    assert.deepEqual(
      last().sent.map((frame) => frame.type),
      ['watch', 'request'],
    );
    assert.deepEqual(last().sent[0]!.input, { sessionIds: ['s1'] });
    const open = last().sent[1]!;
    last().receive({ type: 'response', id: open.id, response: { ok: true, value: null } });
    await waiting;

    const answered = transport.api.watch({ sessionIds: ['s2'] });
    const frame = last().sent.at(-1)!;
    assert.equal(frame.type, 'watch');
    last().receive({ type: 'response', id: frame.id, response: { ok: true, value: { watching: ['s2'] } } });
    assert.deepEqual(await answered, { ok: true, value: { watching: ['s2'] } });

    last().onclose?.({ code: 1006, reason: '' });
    timers.find((timer) => timer.ms < 15_000 && !timer.cleared)!.callback();
    last().onopen?.({});
    assert.deepEqual(last().sent, [{ type: 'watch', id: last().sent[0]!.id, input: { sessionIds: ['s2'] } }]);
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
    assert.equal(frame.type === 'request' && frame.name, 'session:list');
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

describe('a connect the browser reports only as 1006', () => {
  test('the server answering 401 over HTTP means refused: no more retries, a message, waiting requests fail', async () => {
    const fetcher = new FakeFetch();
    const { transport, last, sockets, timers, states } = harness(fetcher);
    const waiting = transport.api['session:list']({});
    last().onclose?.({ code: 1006, reason: '' });
    assert.deepEqual(fetcher.urls, ['http://127.0.0.1:9/api?token=t'], 'the same address is asked over HTTP, token included');
    assert.equal(states.at(-1)?.status, 'reconnecting', 'until the answer, it may still be an outage');
    await fetcher.answer(401);

    const state = states.at(-1);
    assert.equal(state?.status, 'failed');
    assert.match(state?.status === 'failed' ? state.message : '', /token is no longer valid.*cove serve/);
    const retry = timers.find((timer) => timer.ms < 15_000)!;
    assert.equal(retry.cleared, true, 'the scheduled retry is cancelled');
    const response = await waiting;
    assert.match(!response.ok ? response.error.message : '', /refused.*session:list was not sent/);
    assert.equal(sockets.length, 1);
    const later = await transport.api['session:list']({});
    assert.equal(later.ok, false, 'requests after the refusal fail at once');
  });

  test('403 is a refusal too, with its own message', async () => {
    const fetcher = new FakeFetch();
    const { last, states } = harness(fetcher);
    last().onclose?.({ code: 1006, reason: '' });
    await fetcher.answer(403);
    const state = states.at(-1);
    assert.match(state?.status === 'failed' ? state.message : '', /403/);
  });

  test('426 (the token is fine) or no answer at all means keep retrying with backoff', async () => {
    const fetcher = new FakeFetch();
    const { last, sockets, timers, states } = harness(fetcher);
    last().onclose?.({ code: 1006, reason: '' });
    await fetcher.answer(426);
    assert.equal(states.at(-1)?.status, 'reconnecting');
    timers.at(-1)!.callback();
    assert.equal(sockets.length, 2, 'the retry went ahead');

    last().onclose?.({ code: 1006, reason: '' });
    await fetcher.fail();
    assert.equal(states.at(-1)?.status, 'reconnecting');
    timers.at(-1)!.callback();
    assert.equal(sockets.length, 3);
    assert.ok(timers[0]!.ms < timers[1]!.ms, 'the delay still grows');
  });

  test('a drop of an open connection retries without asking; the failed retry asks', async () => {
    const fetcher = new FakeFetch();
    const { last, timers, states } = harness(fetcher);
    last().onopen?.({});
    last().onclose?.({ code: 1006, reason: '' });
    assert.deepEqual(fetcher.urls, []);
    timers.at(-1)!.callback();
    last().onclose?.({ code: 1006, reason: '' });
    assert.equal(fetcher.urls.length, 1);
    await fetcher.answer(401);
    assert.equal(states.at(-1)?.status, 'failed');
  });

  test('a refusal that arrives after a retry connected is ignored', async () => {
    const fetcher = new FakeFetch();
    const { last, timers, states } = harness(fetcher);
    last().onclose?.({ code: 1006, reason: '' });
    timers.at(-1)!.callback();
    last().onopen?.({});
    await fetcher.answer(401);
    assert.deepEqual(states.at(-1), { status: 'open', reconnected: false });
  });

  test('a retry that is already connecting when the refusal arrives is closed', async () => {
    const fetcher = new FakeFetch();
    const { last, sockets, timers, states } = harness(fetcher);
    last().onclose?.({ code: 1006, reason: '' });
    timers.at(-1)!.callback();
    let closedWith: number | undefined;
    last().close = (code?: number) => {
      closedWith = code;
    };
    await fetcher.answer(401);
    assert.equal(closedWith, 1000);
    assert.equal(states.at(-1)?.status, 'failed');
    const scheduled = timers.length;
    sockets[1]!.onclose?.({ code: 1000, reason: '' });
    assert.equal(states.at(-1)?.status, 'failed', 'its close changes nothing');
    assert.equal(timers.length, scheduled, 'and schedules no other retry');
  });

  test('the decision and the probe address', () => {
    assert.match(refusalMessage(401) ?? '', /token/);
    assert.match(refusalMessage(403) ?? '', /403/);
    for (const status of [200, 404, 426, 500, 503, null]) assert.equal(refusalMessage(status), null, `status ${status}`);
    assert.equal(probeUrl('ws://127.0.0.1:4700/api?token=a'), 'http://127.0.0.1:4700/api?token=a');
    assert.equal(probeUrl('wss://example.test/api'), 'https://example.test/api');
  });
});
