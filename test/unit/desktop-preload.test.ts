import { test, describe, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync, statSync } from 'node:fs';
import { REQUEST_NAMES } from '../../shared/contract';
import { createBridgeApi, type BridgeIpc } from '../../electron/preload/bridge-api';
import { COMMAND_CHANNEL, EVENT_CHANNEL, REQUEST_CHANNEL, WATCH_CHANNEL } from '../../electron/preload/ipc-channels';
import { buildDesktopForTest, type DesktopBuild } from '../support/desktop-build';

type Listener = (event: unknown, payload: unknown) => void;

/** Records what the bridge does with ipcRenderer. */
function fakeIpc() {
  const listeners = new Map<string, Set<Listener>>();
  const invoked: unknown[][] = [];
  const ipc: BridgeIpc & { invoked: unknown[][]; emit(channel: string, payload: unknown): void; count(channel: string): number } = {
    invoked,
    async invoke(...args) {
      invoked.push(args);
      return JSON.stringify({ ok: true, value: args[1] });
    },
    on(channel, listener) {
      if (!listeners.has(channel)) listeners.set(channel, new Set());
      listeners.get(channel)!.add(listener);
    },
    removeListener(channel, listener) {
      listeners.get(channel)?.delete(listener);
    },
    emit(channel, payload) {
      for (const listener of listeners.get(channel) ?? []) listener({ sender: 'electron internals', ports: [] }, payload);
    },
    count: (channel) => listeners.get(channel)?.size ?? 0,
  };
  return ipc;
}

describe('createBridgeApi', () => {
  test('has one function per request, each invoking the request channel with its name and input', async () => {
    const ipc = fakeIpc();
    const api = createBridgeApi(REQUEST_NAMES, ipc, () => '') as unknown as Record<string, (input: unknown) => Promise<unknown>>;
    for (const name of REQUEST_NAMES) assert.equal(typeof api[name], 'function', name);
    const answer = await api['session:open']!({ sessionId: 's1' });
    assert.deepEqual(ipc.invoked, [[REQUEST_CHANNEL, 'session:open', { sessionId: 's1' }]]);
    assert.deepEqual(answer, { ok: true, value: 'session:open' });
  });

  test('an answer that is not JSON text is a failed response naming the request, never a throw', async () => {
    for (const answer of ['{"ok": tru', { ok: true, value: 1 }, undefined]) {
      const ipc = { ...fakeIpc(), invoke: async () => answer };
      const api = createBridgeApi(REQUEST_NAMES, ipc, () => '');
      const response = await api['session:open']({ sessionId: 's1' });
      assert.equal(!response.ok && response.error.code, 'failed', String(answer));
      assert.match(!response.ok ? response.error.message : '', /^session:open: the answer from the main process could not be read/);
    }
  });

  test('watch invokes its own channel with the sessions, so it stays in order with requests', async () => {
    const ipc = fakeIpc();
    const api = createBridgeApi(REQUEST_NAMES, ipc, () => '');
    await api.watch({ sessionIds: ['s1'] });
    await api['session:open']({ sessionId: 's1' });
    assert.deepEqual(
      ipc.invoked.map((call) => call[0]),
      [WATCH_CHANNEL, REQUEST_CHANNEL],
    );
    assert.deepEqual(ipc.invoked[0]![1], { sessionIds: ['s1'] });
  });

  test('onEvent hands listeners the payload only, never the Electron event, and unsubscribes', () => {
    const ipc = fakeIpc();
    const api = createBridgeApi(REQUEST_NAMES, ipc, () => '');
    const seen: unknown[][] = [];
    const off = api.onEvent((...args: unknown[]) => seen.push(args));
    const event = { kind: 'sessionDeleted', sessionId: 's1' };
    ipc.emit(EVENT_CHANNEL, event);
    assert.deepEqual(seen, [[event]]);
    off();
    off();
    ipc.emit(EVENT_CHANNEL, event);
    assert.equal(seen.length, 1);
    assert.equal(ipc.count(EVENT_CHANNEL), 0, 'the ipc listener goes when the last page listener does');
  });

  test('one ipc listener per channel, fanned out; a throwing listener does not stop the others', (t) => {
    t.mock.method(console, 'error', () => {});
    const ipc = fakeIpc();
    const api = createBridgeApi(REQUEST_NAMES, ipc, () => '');
    const commands: string[] = [];
    api.onMenuCommand(() => {
      throw new Error('boom');
    });
    const offSecond = api.onMenuCommand((command) => commands.push(`second:${command}`));
    api.onMenuCommand((command) => commands.push(`third:${command}`));
    assert.equal(ipc.count(COMMAND_CHANNEL), 1);
    ipc.emit(COMMAND_CHANNEL, 'newSession');
    assert.deepEqual(commands, ['second:newSession', 'third:newSession']);
    offSecond();
    assert.equal(ipc.count(COMMAND_CHANNEL), 1);
    assert.throws(() => api.onEvent('not a function' as never), /listener must be a function/);
  });

  test('pathForFile asks webUtils', () => {
    const api = createBridgeApi(REQUEST_NAMES, fakeIpc(), (file: { name: string }) => `/dropped/${file.name}`);
    assert.equal(api.pathForFile({ name: 'project' }), '/dropped/project');
  });
});

describe('the preload bundle', () => {
  let build: DesktopBuild;
  before(async () => {
    build = await buildDesktopForTest();
  });
  after(() => build?.remove());

  test('is small CommonJS that requires only electron, and exposes window.cove with every request', () => {
    const source = readFileSync(build.preload, 'utf8');
    assert.ok(statSync(build.preload).size < 16_000, `preload.cjs is ${statSync(build.preload).size} bytes; zod must not be bundled`);
    const required: string[] = [];
    const exposed = new Map<string, Record<string, unknown>>();
    const ipc = fakeIpc();
    // A sandboxed preload's require knows a handful of modules; ours must need electron only.
    const sandboxRequire = (name: string) => {
      required.push(name);
      if (name !== 'electron') throw new Error(`a sandboxed preload cannot require ${name}`);
      return {
        contextBridge: { exposeInMainWorld: (key: string, api: Record<string, unknown>) => exposed.set(key, api) },
        ipcRenderer: ipc,
        webUtils: { getPathForFile: () => '/x' },
      };
    };
    const module = { exports: {} };
    new Function('require', 'module', 'exports', source)(sandboxRequire, module, module.exports);
    assert.deepEqual(required, ['electron']);
    assert.deepEqual([...exposed.keys()], ['cove']);
    const cove = exposed.get('cove')!;
    const functions = Object.keys(cove)
      .filter((key) => typeof cove[key] === 'function')
      .sort();
    assert.deepEqual(functions, [...REQUEST_NAMES, 'onEvent', 'onMenuCommand', 'pathForFile', 'watch'].sort());
  });
});
