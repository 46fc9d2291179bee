import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import type { HostEvent, Response } from '../../shared/contract';
import { answerFrame, BUFFERED_LIMIT_BYTES, FRAME_LIMIT_BYTES, parseClientFrame, Peers, type PeerSocket } from '../../electron/web/api-socket';

const frame = (value: unknown) => Buffer.from(typeof value === 'string' ? value : JSON.stringify(value));

describe('client frames', () => {
  test('a well-formed request parses, input included', () => {
    const parsed = parseClientFrame(frame({ type: 'request', id: 7, name: 'session:list', input: { limit: 3 } }), false);
    assert.deepEqual(parsed, { ok: true, frame: { type: 'request', id: 7, name: 'session:list', input: { limit: 3 } } });
  });

  test('each malformed frame is refused with a reason, and keeps its id when it has a usable one', () => {
    const cases: [unknown, number, RegExp][] = [
      ['not json', -1, /not JSON/],
      ['', -1, /not JSON/],
      [[1, 2], -1, /must be an object/],
      [null, -1, /must be an object/],
      [42, -1, /must be an object/],
      [{ id: 3, name: 'app:info' }, 3, /frame.type/],
      [{ type: 'response', id: 3, name: 'app:info' }, 3, /frame.type/],
      [{ type: 'request', name: 'app:info' }, -1, /frame.id/],
      [{ type: 'request', id: -2, name: 'app:info' }, -1, /frame.id/],
      [{ type: 'request', id: 1.5, name: 'app:info' }, -1, /frame.id/],
      [{ type: 'request', id: '4', name: 'app:info' }, -1, /frame.id/],
      [{ type: 'request', id: 2 ** 60, name: 'app:info' }, -1, /frame.id/],
      [{ type: 'request', id: 5 }, 5, /frame.name/],
      [{ type: 'request', id: 5, name: ['app:info'] }, 5, /frame.name/],
      [{ type: 'request', id: 6, name: 'app:info', input: {}, extra: true }, 6, /unknown field "extra"/],
      ['{"type":"request","id":8,"name":"app:info","__proto__":{"polluted":1}}', 8, /unknown field "__proto__"/],
    ];
    for (const [value, id, message] of cases) {
      const parsed = parseClientFrame(frame(value), false);
      assert.equal(parsed.ok, false, JSON.stringify(value));
      if (parsed.ok) continue;
      assert.equal(parsed.id, id, JSON.stringify(value));
      assert.match(parsed.message, message);
    }
    assert.equal(({} as Record<string, unknown>).polluted, undefined);
  });

  test('binary frames and frames over the limit are refused before parsing', () => {
    const binary = parseClientFrame(frame({ type: 'request', id: 1, name: 'app:info' }), true);
    assert.equal(binary.ok, false);
    assert.match(!binary.ok ? binary.message : '', /text/);
    const huge = parseClientFrame(Buffer.alloc(FRAME_LIMIT_BYTES + 1, 0x20), false);
    assert.match(!huge.ok ? huge.message : '', new RegExp(`${FRAME_LIMIT_BYTES + 1} bytes is over`));
    const fragments = parseClientFrame([Buffer.from('{"type":"request",'), Buffer.from('"id":2,"name":"app:info"}')], false);
    assert.equal(fragments.ok && fragments.frame.id, 2);
  });

  test('answers go through dispatch with the frame id; a throwing dispatch still answers', async () => {
    const seen: unknown[] = [];
    const dispatch = async (name: unknown, input: unknown): Promise<Response> => {
      seen.push([name, input]);
      return { ok: true, value: 'fine' };
    };
    const answer = await answerFrame(frame({ type: 'request', id: 11, name: 'app:info', input: {} }), false, dispatch);
    assert.deepEqual(answer, { type: 'response', id: 11, response: { ok: true, value: 'fine' } });
    assert.deepEqual(seen, [['app:info', {}]]);
    const broken = await answerFrame(frame({ type: 'request', id: 12, name: 'app:info' }), false, async () => {
      throw new Error('kaboom');
    });
    assert.deepEqual(broken, { type: 'response', id: 12, response: { ok: false, error: { code: 'failed', message: 'kaboom' } } });
    const refused = await answerFrame(frame('nope'), false, dispatch);
    assert.equal(refused.type === 'response' && refused.response.ok === false && refused.response.error.code, 'invalidInput');
    assert.equal(seen.length, 1);
  });
});

class FakeSocket implements PeerSocket {
  readyState = 1;
  bufferedAmount = 0;
  sent: string[] = [];
  terminated = false;
  send(data: string) {
    this.sent.push(data);
  }
  terminate() {
    this.terminated = true;
    this.readyState = 3;
  }
}

describe('event fan-out', () => {
  const event: HostEvent = { kind: 'sessionDeleted', sessionId: 's1' };

  test('every open socket gets the same serialized event frame', () => {
    const peers = new Peers(() => {});
    const sockets = [new FakeSocket(), new FakeSocket(), new FakeSocket()];
    sockets[2]!.readyState = 2;
    sockets.forEach((socket) => peers.add(socket));
    peers.broadcast(event);
    assert.deepEqual(JSON.parse(sockets[0]!.sent[0]!), { type: 'event', event });
    assert.equal(sockets[1]!.sent[0], sockets[0]!.sent[0]);
    assert.equal(sockets[2]!.sent.length, 0);
  });

  test('a socket that stops reading is dropped, the others keep receiving', () => {
    const logged: string[] = [];
    const peers = new Peers((message) => logged.push(message));
    const slow = new FakeSocket();
    const fast = new FakeSocket();
    peers.add(slow);
    peers.add(fast);
    slow.bufferedAmount = BUFFERED_LIMIT_BYTES;
    peers.broadcast(event);
    assert.equal(slow.terminated, false, 'at the limit is still fine');
    slow.bufferedAmount = BUFFERED_LIMIT_BYTES + 1;
    peers.broadcast(event);
    assert.equal(slow.terminated, true);
    assert.equal(peers.size, 1);
    peers.broadcast(event);
    assert.equal(slow.sent.length, 1);
    assert.equal(fast.sent.length, 3);
    assert.match(logged.join('\n'), /stopped reading/);
  });
});
