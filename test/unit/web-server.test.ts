import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import http from 'node:http';
import { mkdirSync, mkdtempSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import WebSocket from 'ws';
import type { HostEvent, Response, ServerFrame } from '../../shared/contract';
import { startWebServer, type WebServer } from '../../electron/web/server';
import { cookieName } from '../../electron/web/token';

const TOKEN = 'unit-test-token-0123456789abcdef';

interface Reply {
  status: number;
  headers: http.IncomingHttpHeaders;
  body: string;
}

function get(port: number, path: string, headers: Record<string, string> = {}, method = 'GET'): Promise<Reply> {
  return new Promise((resolve, reject) => {
    const request = http.request({ host: '127.0.0.1', port, path, method, headers: { host: `127.0.0.1:${port}`, ...headers } }, (response) => {
      let body = '';
      response.setEncoding('utf8').on('data', (chunk: string) => (body += chunk));
      response.on('end', () => resolve({ status: response.statusCode!, headers: response.headers, body }));
    });
    request.on('error', reject);
    request.end();
  });
}

/** Resolves with the open socket, or rejects with the HTTP status the upgrade was refused with. */
function connect(port: number, query: string, headers: Record<string, string> = {}, origin: string | null = `http://127.0.0.1:${port}`): Promise<WebSocket> {
  return new Promise((resolve, reject) => {
    const socket = new WebSocket(`ws://127.0.0.1:${port}/api${query}`, { headers, ...(origin ? { origin } : {}) });
    socket.once('open', () => resolve(socket));
    socket.once('unexpected-response', (_request, response) => reject(Object.assign(new Error(`refused ${response.statusCode}`), { status: response.statusCode })));
    socket.once('error', reject);
  });
}

async function refusal(promise: Promise<WebSocket>): Promise<number> {
  try {
    (await promise).close();
  } catch (error) {
    return (error as { status: number }).status;
  }
  return 200;
}

function nextFrame(socket: WebSocket): Promise<ServerFrame> {
  return new Promise((resolve) => socket.once('message', (data) => resolve(JSON.parse(String(data)) as ServerFrame)));
}

describe('web server (in process)', () => {
  let root: string;
  let server: WebServer;
  const listeners = new Set<(event: HostEvent) => void>();
  const calls: unknown[][] = [];
  const host = {
    dispatch: async (name: unknown, input: unknown): Promise<Response> => {
      calls.push([name, input]);
      return { ok: true, value: { echoed: name } };
    },
    subscribe(listener: (event: HostEvent) => void) {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
  };

  before(async () => {
    root = mkdtempSync(join(tmpdir(), 'cove-web-'));
    mkdirSync(join(root, 'renderer'));
    writeFileSync(join(root, 'renderer', 'index.html'), '<!doctype html><title>Cove</title>');
    writeFileSync(join(root, 'renderer', 'app.js'), 'console.log(1)');
    writeFileSync(join(root, 'renderer', 'app.css'), 'body{}');
    writeFileSync(join(root, 'secret.txt'), 'TOP SECRET');
    symlinkSync(join(root, 'secret.txt'), join(root, 'renderer', 'linked.txt'));
    server = await startWebServer({ host, rendererDir: join(root, 'renderer'), token: TOKEN, bindHost: '127.0.0.1', port: 0, log: () => {} });
  });

  after(async () => {
    await server.close();
    rmSync(root, { recursive: true, force: true });
  });

  test('the URL carries the token; the page loads with it and sets the per-port cookie', async () => {
    assert.equal(server.url, `http://127.0.0.1:${server.port}/?token=${TOKEN}`);
    const page = await get(server.port, `/?token=${TOKEN}`);
    assert.equal(page.status, 200);
    assert.equal(page.body, '<!doctype html><title>Cove</title>');
    assert.equal(page.headers['content-type'], 'text/html; charset=utf-8');
    assert.equal(page.headers['cache-control'], 'no-store');
    assert.match(page.headers['content-security-policy'] as string, new RegExp(`connect-src 'self' ws://127.0.0.1:${server.port};`));
    assert.equal(page.headers['x-content-type-options'], 'nosniff');
    assert.equal(page.headers['referrer-policy'], 'no-referrer');
    assert.deepEqual(page.headers['set-cookie'], [`${cookieName(server.port)}=${TOKEN}; Path=/; HttpOnly; SameSite=Strict`]);
  });

  test('assets load with the cookie alone, with content types and ETag revalidation', async () => {
    const cookie = `${cookieName(server.port)}=${TOKEN}`;
    const script = await get(server.port, '/app.js', { cookie });
    assert.equal(script.status, 200);
    assert.equal(script.headers['content-type'], 'text/javascript; charset=utf-8');
    assert.equal(script.headers['set-cookie'], undefined);
    const style = await get(server.port, '/app.css', { cookie });
    assert.equal(style.headers['content-type'], 'text/css; charset=utf-8');
    const again = await get(server.port, '/app.js', { cookie, 'if-none-match': script.headers.etag as string });
    assert.equal(again.status, 304);
    assert.equal(again.body, '');
    const head = await get(server.port, '/app.js', { cookie }, 'HEAD');
    assert.equal(head.status, 200);
    assert.equal(head.body, '');
  });

  test('no token, a wrong token, or a wrong token in the URL beside a good cookie: 401', async () => {
    const cookie = `${cookieName(server.port)}=${TOKEN}`;
    for (const [path, headers] of [
      ['/', {}],
      ['/app.js', {}],
      ['/?token=wrong', {}],
      [`/?token=${TOKEN}x`, {}],
      ['/?token=', {}],
      ['/?token=wrong', { cookie }],
      ['/', { cookie: `${cookieName(server.port)}=wrong` }],
      ['/', { cookie: `${cookieName(server.port + 1)}=${TOKEN}` }],
    ] as [string, Record<string, string>][]) {
      const reply = await get(server.port, path, headers);
      assert.equal(reply.status, 401, `${path} ${JSON.stringify(headers)}`);
      assert.match(reply.body, /^401 Unauthorized/);
      assert.equal(reply.headers['set-cookie'], undefined);
    }
  });

  test('nothing outside the renderer folder is served: dot-dot, encoded separators, symlinks', async () => {
    const cookie = `${cookieName(server.port)}=${TOKEN}`;
    for (const path of [
      '/../secret.txt',
      '/%2e%2e/secret.txt',
      '/..%2fsecret.txt',
      '/%2e%2e%2fsecret.txt',
      '/linked.txt',
      '/..%5csecret.txt',
      '/%00',
      '/%E0%A4%A',
      '/missing.js',
      '//etc/passwd',
    ]) {
      const reply = await get(server.port, path, { cookie });
      assert.ok(reply.status === 400 || reply.status === 404, `${path}: ${reply.status}`);
      assert.doesNotMatch(reply.body, /TOP SECRET|root:/);
    }
  });

  test('a foreign Host header (DNS rebinding) is refused before the token is looked at', async () => {
    const reply = await get(server.port, `/?token=${TOKEN}`, { host: `attacker.example:${server.port}` });
    assert.equal(reply.status, 403);
    assert.equal(reply.headers['set-cookie'], undefined);
    assert.equal(await refusal(connect(server.port, `?token=${TOKEN}`, { host: `attacker.example:${server.port}` })), 403);
  });

  test('other methods: 403 from another origin, 405 from our own', async () => {
    const cookie = `${cookieName(server.port)}=${TOKEN}`;
    assert.equal((await get(server.port, '/', { cookie, origin: 'http://attacker.example' }, 'POST')).status, 403);
    assert.equal((await get(server.port, '/', { cookie }, 'POST')).status, 403);
    assert.equal((await get(server.port, '/', { cookie, origin: `http://localhost:${server.port}` }, 'POST')).status, 405);
    assert.equal((await get(server.port, '/api', { cookie })).status, 426);
  });

  test('the WebSocket answers requests by id and pushes host events', async () => {
    const socket = await connect(server.port, `?token=${TOKEN}`);
    try {
      const answer = nextFrame(socket);
      socket.send(JSON.stringify({ type: 'request', id: 41, name: 'session:list', input: {} }));
      assert.deepEqual(await answer, { type: 'response', id: 41, response: { ok: true, value: { echoed: 'session:list' } } });
      assert.deepEqual(calls.at(-1), ['session:list', {}]);
      const pushed = nextFrame(socket);
      for (const listener of listeners) listener({ kind: 'sessionDeleted', sessionId: 'abc' });
      assert.deepEqual(await pushed, { type: 'event', event: { kind: 'sessionDeleted', sessionId: 'abc' } });
      assert.equal(server.connections(), 1);
    } finally {
      socket.close();
    }
  });

  test('the WebSocket takes the cookie instead of ?token=, and refuses bad tokens, origins and paths', async () => {
    const cookie = `${cookieName(server.port)}=${TOKEN}`;
    (await connect(server.port, '', { cookie })).close();
    (await connect(server.port, `?token=${TOKEN}`, {}, `http://localhost:${server.port}`)).close();
    assert.equal(await refusal(connect(server.port, '')), 401);
    assert.equal(await refusal(connect(server.port, '?token=wrong')), 401);
    assert.equal(await refusal(connect(server.port, '?token=wrong', { cookie })), 401);
    assert.equal(await refusal(connect(server.port, `?token=${TOKEN}`, {}, 'http://attacker.example')), 403);
    assert.equal(await refusal(connect(server.port, `?token=${TOKEN}`, {}, `http://127.0.0.1:${server.port + 1}`)), 403);
    assert.equal(await refusal(connect(server.port, `?token=${TOKEN}`, {}, null)), 403);
    const elsewhere = new WebSocket(`ws://127.0.0.1:${server.port}/other?token=${TOKEN}`, { origin: `http://127.0.0.1:${server.port}` });
    const status = await new Promise<number>((resolve) => elsewhere.once('unexpected-response', (_request, response) => resolve(response.statusCode!)));
    assert.equal(status, 404);
  });
});

describe('web server setup', () => {
  const host = { dispatch: async (): Promise<Response> => ({ ok: true, value: null }), subscribe: () => () => {} };

  test('without a built renderer the page explains how to build it', async () => {
    const server = await startWebServer({ host, rendererDir: join(tmpdir(), 'cove-no-such-renderer'), token: TOKEN, bindHost: '127.0.0.1', port: 0, log: () => {} });
    try {
      const reply = await get(server.port, `/?token=${TOKEN}`);
      assert.equal(reply.status, 503);
      assert.match(reply.body, /npm run build/);
    } finally {
      await server.close();
    }
  });

  test('a taken port is an error naming it, unless falling back to a free port was asked for', async () => {
    const first = await startWebServer({ host, rendererDir: tmpdir(), token: TOKEN, bindHost: '127.0.0.1', port: 0, log: () => {} });
    try {
      const options = { host, rendererDir: tmpdir(), token: TOKEN, bindHost: '127.0.0.1', port: first.port, log: () => {} };
      await assert.rejects(startWebServer(options), new RegExp(`port ${first.port} is in use`));
      const second = await startWebServer({ ...options, fallbackToFreePort: true });
      assert.notEqual(second.port, first.port);
      await second.close();
    } finally {
      await first.close();
    }
  });

  test('close() says goodbye to open sockets with 1001', async () => {
    const server = await startWebServer({ host, rendererDir: tmpdir(), token: TOKEN, bindHost: '127.0.0.1', port: 0, log: () => {} });
    const socket = await connect(server.port, `?token=${TOKEN}`);
    const closed = new Promise<number>((resolve) => socket.once('close', (code) => resolve(code)));
    await server.close();
    assert.equal(await closed, 1001);
  });
});
