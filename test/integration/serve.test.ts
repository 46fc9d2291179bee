// The built `cove serve`, spawned as a person would run it, spoken to over HTTP and a real
// WebSocket: its one line of output, the token, Host and Origin checks, garbage frames, a whole
// run through the contract, and a clean exit on SIGINT and SIGTERM.
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, mkdtempSync, realpathSync, rmSync } from 'node:fs';
import http from 'node:http';
import net from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { CoveEvent } from '../../shared/events';
import type { ServerFrame, SessionSummary, SessionView } from '../../shared/contract';
import { block, reply, startModelServer, type ScriptedServer } from '../support/model-server';
import { COVE_BIN, CoveHome } from '../support/cove-cli';
import { ApiSocket, startServe, type ServeProcess } from '../e2e/serve-process';

const RENDERER_BUILT = existsSync(join(COVE_BIN, '../../dist/renderer/index.html'));

function get(port: number, path: string, headers: Record<string, string> = {}): Promise<{ status: number; headers: http.IncomingHttpHeaders; body: string }> {
  return new Promise((resolve, reject) => {
    const request = http.get({ host: '127.0.0.1', port, path, headers }, (response) => {
      let body = '';
      response.setEncoding('utf8').on('data', (chunk: string) => (body += chunk));
      response.on('end', () => resolve({ status: response.statusCode!, headers: response.headers, body }));
    });
    request.on('error', reject);
  });
}

async function upgradeStatus(serve: ServeProcess, options: { token?: string; origin?: string | null }): Promise<number> {
  try {
    (await ApiSocket.open(serve, options)).close();
    return 101;
  } catch (error) {
    return (error as { status: number }).status;
  }
}

const isResponse = (frame: ServerFrame): frame is Extract<ServerFrame, { type: 'response' }> => frame.type === 'response';

describe('cove serve', () => {
  let model: ScriptedServer;
  let home: CoveHome;
  let workspace: string;
  let serve: ServeProcess;
  const token = 'integration-token-0123456789abcdef';

  before(async () => {
    model = await startModelServer((request) => {
      const last = JSON.stringify(request.body.messages.at(-1));
      if (last.includes('tool_result')) return reply.text('Listed the folder.');
      return reply.message([block.text('Let me look.'), block.toolUse('list_files', { path: '.' })]);
    });
    home = new CoveHome(model.url);
    workspace = realpathSync(mkdtempSync(join(tmpdir(), 'cove-serve-ws-')));
    serve = await startServe(home, ['--port', '0', '--token', token]);
  });

  after(async () => {
    await serve.stop();
    await model.close();
    home.remove();
    rmSync(workspace, { recursive: true, force: true });
  });

  test('prints exactly one line: the URL with the token', () => {
    assert.equal(serve.stdout(), `Cove is running at http://127.0.0.1:${serve.port}/?token=${token}\n`);
    assert.ok(serve.port > 0);
  });

  test('the page needs the token: 401 without it or with a wrong one, and security headers either way', async () => {
    for (const path of ['/', '/?token=wrong', '/app.js', `/?token=${token.slice(0, -1)}`]) {
      const page = await get(serve.port, path);
      assert.equal(page.status, 401, path);
      assert.match(page.body, /^401 Unauthorized/);
      assert.equal(page.headers['x-content-type-options'], 'nosniff');
    }
    const good = await get(serve.port, `/?token=${token}`);
    assert.equal(good.status, RENDERER_BUILT ? 200 : 503);
    assert.match(good.headers['content-security-policy'] as string, /default-src 'self'.*frame-ancestors 'none'/);
    assert.match(String(good.headers['set-cookie']), /HttpOnly; SameSite=Strict/);
    if (RENDERER_BUILT) assert.match(good.body, /<div id="root">/);
    const rebinding = await get(serve.port, `/?token=${token}`, { host: `rebind.example:${serve.port}` });
    assert.equal(rebinding.status, 403);
  });

  test('the WebSocket needs the token (401) and our Origin (403); a good one works', async () => {
    assert.equal(await upgradeStatus(serve, { token: 'wrong-token-0123456789' }), 401);
    assert.equal(await upgradeStatus(serve, { token: '' }), 401);
    assert.equal(await upgradeStatus(serve, { origin: 'http://evil.example' }), 403);
    assert.equal(await upgradeStatus(serve, { origin: `http://127.0.0.1:${serve.port + 1}` }), 403);
    assert.equal(await upgradeStatus(serve, { origin: null }), 403);
    assert.equal(await upgradeStatus(serve, { origin: `http://localhost:${serve.port}` }), 101);
    const socket = await ApiSocket.open(serve);
    try {
      const info = await socket.request<{ host: string; version: string }>('app:info', {});
      assert.ok(info.ok);
      assert.equal(info.value.host, 'browser');
      assert.match(info.value.version, /^\d+\.\d+\.\d+/);
    } finally {
      socket.close();
    }
  });

  test('garbage frames get error frames, change nothing, and the server stays up', async () => {
    const socket = await ApiSocket.open(serve);
    try {
      const created = await socket.request<SessionSummary>('session:create', { workspaces: [workspace], title: 'Before the garbage' });
      assert.ok(created.ok, JSON.stringify(created));
      const before = await socket.request<SessionSummary[]>('session:list', {});
      const garbage: [string | Buffer, boolean, number, RegExp, string][] = [
        ['not json at all', false, -1, /not JSON/, 'invalidInput'],
        ['{"type":"request","id":1', false, -1, /not JSON/, 'invalidInput'],
        ['[]', false, -1, /must be an object/, 'invalidInput'],
        ['"request"', false, -1, /must be an object/, 'invalidInput'],
        ['{"type":"request","id":"x","name":"session:list"}', false, -1, /frame.id/, 'invalidInput'],
        ['{"type":"event","id":901,"name":"session:list"}', false, 901, /frame.type/, 'invalidInput'],
        ['{"type":"request","id":902,"name":"session:explode","input":{}}', false, 902, /unknown request/, 'unknownRequest'],
        ['{"type":"request","id":903,"name":"session:delete","input":{"sessionId":"x","more":1}}', false, 903, /more/, 'invalidInput'],
        [`{"type":"request","id":904,"name":"session:delete","input":{"sessionId":"${created.value.id}","__proto__":{"x":1}}}`, false, 904, /__proto__/, 'invalidInput'],
        [`{"type":"request","id":905,"name":"session:rename","input":{"sessionId":"${created.value.id}","title":"${'t'.repeat(300)}"}}`, false, 905, /title/, 'invalidInput'],
        [`{"type":"request","id":906,"name":"session:create","input":{"workspaces":["${workspace}\\u0000x"]}}`, false, 906, /workspaces\.0/, 'invalidInput'],
        [Buffer.from('{"type":"request","id":907,"name":"session:list"}'), true, -1, /binary/, 'invalidInput'],
        [`{"type":"request","id":908,"name":"session:search","input":{"text":"${'x'.repeat(9 * 1024 * 1024)}"}}`, false, -1, /over the/, 'invalidInput'],
      ];
      for (const [data, binary, id, message, code] of garbage) {
        const seen = socket.frames.length;
        socket.sendRaw(data, { binary });
        const frame = await socket.waitFor((candidate) => socket.frames.indexOf(candidate) >= seen && isResponse(candidate), 'an error frame');
        assert.ok(isResponse(frame));
        assert.equal(frame.id, id, String(data).slice(0, 80));
        assert.equal(frame.response.ok, false);
        assert.ok(!frame.response.ok);
        assert.equal(frame.response.error.code, code);
        assert.match(frame.response.error.message, message);
      }
      const after = await socket.request<SessionSummary[]>('session:list', {});
      assert.deepEqual(after, before);
    } finally {
      socket.close();
    }
  });

  test('a frame too big to read closes only that socket (1009); the server keeps serving', async () => {
    const socket = await ApiSocket.open(serve);
    const closed = new Promise<number>((resolve) => socket.socket.once('close', (code) => resolve(code)));
    socket.sendRaw('x'.repeat(17 * 1024 * 1024));
    assert.equal(await closed, 1009);
    const next = await ApiSocket.open(serve);
    try {
      assert.ok((await next.request('session:list', {})).ok);
    } finally {
      next.close();
    }
  });

  test('runs a session through the contract: events stream to every socket, and the view redraws', async () => {
    const [first, second] = await Promise.all([ApiSocket.open(serve), ApiSocket.open(serve)]);
    try {
      const created = await first.request<SessionSummary>('session:create', { workspaces: [workspace], title: 'Over the socket' });
      assert.ok(created.ok);
      const sessionId = created.value.id;
      // A socket gets a session's streamed events only while it watches that session.
      assert.deepEqual(await second.watch([sessionId]), { ok: true, value: { watching: [sessionId] } });
      const sent = await first.request<{ steered: boolean }>('session:send', { sessionId, text: 'What is in this folder?' });
      assert.deepEqual(sent, { ok: true, value: { steered: false } });
      const isEnd = (frame: ServerFrame) => frame.type === 'event' && frame.event.kind === 'agent' && frame.event.event.type === 'agentEnd' && frame.event.event.sessionId === sessionId;
      await Promise.all([first.waitFor(isEnd, 'agentEnd'), second.waitFor(isEnd, 'agentEnd on the second socket')]);
      const types = second.frames.flatMap((frame) => (frame.type === 'event' && frame.event.kind === 'agent' ? [frame.event.event.type] : []));
      for (const type of ['agentStart', 'messageUpdate', 'toolExecutionStart', 'toolExecutionEnd', 'agentEnd']) assert.ok(types.includes(type as CoveEvent['type']), type);
      await second.waitFor(
        (frame) => frame.type === 'event' && frame.event.kind === 'sessionChanged' && frame.event.session.id === sessionId && frame.event.session.status === 'done',
        'the session marked done',
      );
      const view = await second.request<SessionView>('session:open', { sessionId });
      assert.ok(view.ok);
      assert.equal(view.value.session.status, 'done');
      assert.ok(view.value.events.some((event) => event.type === 'toolExecutionEnd' && event.toolName === 'list_files' && !event.isError));
      assert.equal(model.requests.at(-1)?.apiKey, 'test-key');
    } finally {
      first.close();
      second.close();
    }
  });
});

describe('cove serve lifecycle and flags', () => {
  test('SIGINT and SIGTERM stop it with exit 0, and what it stored is there afterwards', async () => {
    const home = new CoveHome();
    const workspace = realpathSync(mkdtempSync(join(tmpdir(), 'cove-serve-ws-')));
    try {
      for (const signal of ['SIGINT', 'SIGTERM'] as const) {
        const serve = await startServe(home);
        const socket = await ApiSocket.open(serve);
        const created = await socket.request('session:create', { workspaces: [workspace], title: `Kept after ${signal}` });
        assert.ok(created.ok);
        const closed = new Promise<number>((resolve) => socket.socket.once('close', (code) => resolve(code)));
        const exit = await serve.stop(signal);
        assert.deepEqual(exit, { code: 0, signal: null }, serve.stderr());
        assert.equal(await closed, 1001);
        assert.match(serve.stderr(), /stopping/);
      }
      const listed = await home.run(['sessions', '--json']);
      const titles = listed.stdout
        .trim()
        .split('\n')
        .map((line) => JSON.parse(line).title as string);
      assert.deepEqual(titles.sort(), ['Kept after SIGINT', 'Kept after SIGTERM']);
    } finally {
      home.remove();
      rmSync(workspace, { recursive: true, force: true });
    }
  });

  test('without --port it takes 4455, or a free port when 4455 is taken; a taken --port is an error', async () => {
    const home = new CoveHome();
    const first = await startServe(home, []);
    const second = await startServe(home, []);
    try {
      assert.notEqual(second.port, first.port);
      if (first.port !== 4455) {
        // Something else held 4455: it must really be taken.
        const probe = net.createServer();
        await assert.rejects(new Promise((resolve, reject) => probe.once('error', reject).listen(4455, '127.0.0.1', () => resolve(probe.close()))), /EADDRINUSE/);
      }
      const taken = await home.run(['serve', '--port', String(first.port)]);
      assert.equal(taken.code, 1);
      assert.equal(taken.stdout, '');
      assert.match(taken.stderr, new RegExp(`^cove serve: port ${first.port} is in use; choose another with --port \\(--port 0 takes any free port\\)\n$`));
    } finally {
      await Promise.all([first.stop(), second.stop()]);
      home.remove();
    }
  });

  test('bad flags exit 2 with one line naming the flag', async () => {
    const home = new CoveHome();
    try {
      for (const [args, message] of [
        [['--port', 'abc'], /^cove serve: --port must be a port number from 0 to 65535 \(got 'abc'\)\n$/],
        [['--port', '70000'], /--port must be/],
        [['--token', 'short'], /^cove serve: --token must be 16 to 256 characters/],
        [['--host', 'a b'], /--host must be an address/],
        [['--verbose'], /^cove serve: Unknown option '--verbose'/],
        [['extra'], /unexpected argument 'extra'/],
      ] as [string[], RegExp][]) {
        const result = await home.run(['serve', ...args]);
        assert.equal(result.code, 2, args.join(' '));
        assert.match(result.stderr, message);
        assert.equal(result.stderr.split('\n').length, 2, result.stderr);
      }
    } finally {
      home.remove();
    }
  });

  test('--host 0.0.0.0 warns on stderr that the agent is reachable from the network', async () => {
    const home = new CoveHome();
    const serve = await startServe(home, ['--host', '0.0.0.0', '--port', '0']);
    try {
      assert.match(serve.url, /^http:\/\/127\.0\.0\.1:\d+\/\?token=[A-Za-z0-9_-]{43}$/);
      await serve.waitForStderr(/warning: listening on every network interface: anyone on the network who has the token can run the agent/);
      assert.equal((await get(serve.port, `/?token=${serve.token}`)).status, RENDERER_BUILT ? 200 : 503);
    } finally {
      await serve.stop();
      home.remove();
    }
  });
});
