// The contract's three ends agree: every request name has a handler in main, the dispatcher
// knows it, and the renderer's own WebSocket client carries it to a real server and back.
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, readdirSync, readFileSync, realpathSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import WebSocket from 'ws';
import { REQUEST_NAMES, type HostEvent } from '../../shared/contract';
import { FileKeyVault } from '../../electron/core/api/api-key';
import { createHandlers } from '../../electron/core/api/handlers';
import { createHost, type Host } from '../../electron/core/api/host';
import { startWebServer, type WebServer } from '../../electron/web/server';
import { createSocketTransport, type SocketLike } from '../../renderer/transport/socket-client';

const TOKEN = 'contract-test-token-0123456789';
const repoRoot = join(import.meta.dirname, '../..');

function sourceFiles(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    if (statSync(path).isDirectory()) return sourceFiles(path);
    return /\.tsx?$/.test(name) ? [path] : [];
  });
}

describe('contract coverage', () => {
  let dataDir: string;
  let workspace: string;
  let host: Host;

  before(() => {
    dataDir = mkdtempSync(join(tmpdir(), 'cove-contract-'));
    workspace = realpathSync(mkdtempSync(join(tmpdir(), 'cove-contract-ws-')));
    host = createHost({ dataDir, host: 'browser', version: '0.0.0-test', vault: new FileKeyVault(dataDir), log: () => {} });
  });

  after(async () => {
    await host.close();
    rmSync(dataDir, { recursive: true, force: true });
    rmSync(workspace, { recursive: true, force: true });
  });

  test('every request name has exactly one handler, and no handler lacks a request', () => {
    const handlers = createHandlers({
      manager: host.manager,
      dataDir,
      host: 'browser',
      version: '0.0.0-test',
      vault: new FileKeyVault(dataDir),
      onDeleted: () => {},
      log: () => {},
    });
    assert.deepEqual(Object.keys(handlers).sort(), [...REQUEST_NAMES].sort());
    for (const name of REQUEST_NAMES) assert.equal(typeof handlers[name], 'function', name);
  });

  test('the dispatcher knows every name and validates its input before the handler', async () => {
    for (const name of REQUEST_NAMES) {
      const response = await host.dispatch(name, { notAField: 1 });
      assert.equal(response.ok, false, name);
      assert.equal(!response.ok && response.error.code, 'invalidInput', name);
      assert.match(!response.ok ? response.error.message : '', new RegExp(`^${name}: .*notAField`));
    }
    for (const name of ['session:List', 'toString', '__proto__', 'constructor', 'hasOwnProperty', '', 'session:list ', 42, null]) {
      const response = await host.dispatch(name, {});
      assert.equal(!response.ok && response.error.code, 'unknownRequest', String(name));
    }
  });

  test('the renderer calls only requests the contract has', () => {
    const called = new Set<string>();
    for (const file of sourceFiles(join(repoRoot, 'renderer'))) {
      for (const match of readFileSync(file, 'utf8').matchAll(/\bcall\(\s*['"]([^'"]+)['"]/g)) called.add(match[1]!);
    }
    assert.ok(called.size > 0, 'found no call(...) in renderer/: has the renderer client changed shape?');
    for (const name of called) assert.ok((REQUEST_NAMES as string[]).includes(name), `renderer calls unknown request ${name}`);
  });

  describe("the renderer's WebSocket client against a real server", () => {
    let server: WebServer;
    let client: ReturnType<typeof createSocketTransport>;

    before(async () => {
      server = await startWebServer({ host, rendererDir: join(dataDir, 'no-renderer'), token: TOKEN, bindHost: '127.0.0.1', port: 0, log: () => {} });
      client = createSocketTransport({
        url: `ws://127.0.0.1:${server.port}/api?token=${TOKEN}`,
        // A browser sends its page's Origin; `ws` must be told to.
        createSocket: (url) => new WebSocket(url, { origin: `http://127.0.0.1:${server.port}` }) as unknown as SocketLike,
      });
    });

    after(async () => {
      client.close();
      await server.close();
    });

    test('carries every request name to its handler and the answer back', async () => {
      for (const name of REQUEST_NAMES) {
        const method = client.api[name] as (input: unknown) => Promise<{ ok: boolean; error?: { code: string; message: string } }>;
        const response = await method({ notAField: true });
        assert.equal(response.error?.code, 'invalidInput', name);
        assert.match(response.error!.message, new RegExp(`^${name}: `));
      }
    });

    test('creates a session, lists it, and receives its sessionChanged event', async () => {
      const events: HostEvent[] = [];
      const off = client.api.onEvent((event) => events.push(event));
      try {
        const created = await client.api['session:create']({ workspaces: [workspace], title: 'Through the renderer client' });
        assert.ok(created.ok, JSON.stringify(created));
        const listed = await client.api['session:list']({});
        assert.ok(listed.ok);
        assert.deepEqual(
          listed.value.map((session) => session.title),
          ['Through the renderer client'],
        );
        // Events are pushed before the response that caused them, on the same socket.
        assert.ok(events.some((event) => event.kind === 'sessionChanged' && event.session.id === created.value.id));
      } finally {
        off();
      }
    });
  });
});
