// The desktop IPC binder over a real host (engine, SQLite store, the SDK against the scripted
// model server), with a stand-in `electron` module: answers cross as JSON text, stored events
// exactly as the store holds them; a window that watches no session still hears every tool
// call start and end (for the sessions list), while the high-rate updates go only to watchers.
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { once } from 'node:events';
import { mkdtempSync, realpathSync, rmSync } from 'node:fs';
import { register } from 'node:module';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import type { HostEvent, Response, SessionEvent } from '../../shared/contract';
import type { IpcBinder } from '../../electron/desktop/ipc-binder';
import { FileKeyVault } from '../../electron/core/api/api-key';
import { createHost, type Host } from '../../electron/core/api/host';
import { block, reply, startModelServer, type ScriptedServer } from '../support/model-server';
import { BrowserWindow, recorded, type FakeWebContents } from '../support/fake-electron';

const fakeElectron = pathToFileURL(resolve('test/support/fake-electron.ts')).href;
const resolveHook = `export async function resolve(specifier, context, next) {
  return specifier === 'electron' ? { url: ${JSON.stringify(fakeElectron)}, shortCircuit: true } : next(specifier, context);
}`;
register(`data:text/javascript,${encodeURIComponent(resolveHook)}`);

type Handler = (event: unknown, ...args: unknown[]) => Promise<unknown>;

function newWindow(): BrowserWindow {
  return new BrowserWindow({ webPreferences: {} });
}

/** What the handler gives the preload: JSON text, parsed here as the preload parses it. */
async function request(window: BrowserWindow, name: string, input: unknown): Promise<{ text: unknown; response: Response }> {
  const text = await (recorded.ipcHandlers.get('cove:request') as Handler)({ sender: window.webContents, senderFrame: window.webContents.mainFrame }, name, input);
  assert.equal(typeof text, 'string', `${name} answers JSON text`);
  return { text, response: JSON.parse(text as string) as Response };
}

async function watch(window: BrowserWindow, sessionIds: string[]): Promise<void> {
  const answer = (await (recorded.ipcHandlers.get('cove:watch') as Handler)({ sender: window.webContents, senderFrame: window.webContents.mainFrame }, { sessionIds })) as Response;
  assert.ok(answer.ok, JSON.stringify(answer));
}

function agentEvents(contents: FakeWebContents, sessionId: string): SessionEvent[] {
  return contents.sent.flatMap(({ channel, payload }) => {
    const event = payload as HostEvent;
    return channel === 'cove:event' && event.kind === 'agent' && event.event.sessionId === sessionId ? [event.event] : [];
  });
}

async function waitForEnd(contents: FakeWebContents, sessionId: string): Promise<void> {
  while (!agentEvents(contents, sessionId).some((event) => event.type === 'agentEnd')) await once(contents, 'sent');
}

describe('the desktop IPC binder', () => {
  let model: ScriptedServer;
  let dataDir: string;
  let workspace: string;
  let host: Host;
  let binder: IpcBinder;
  const saved = { key: process.env.ANTHROPIC_API_KEY, url: process.env.ANTHROPIC_BASE_URL };

  before(async () => {
    model = await startModelServer([
      reply.message([block.text('Counting.', { chunks: 3 }), block.toolUse('bash', { command: 'seq 1 5' }, { id: 'toolu_seq' })]),
      reply.text('Counted to five, in several pieces.', { chunks: 6 }),
    ]);
    process.env.ANTHROPIC_API_KEY = 'test-key';
    process.env.ANTHROPIC_BASE_URL = model.url;
    dataDir = mkdtempSync(join(tmpdir(), 'cove-ipc-'));
    workspace = realpathSync(mkdtempSync(join(tmpdir(), 'cove-ipc-ws-')));
    host = createHost({ dataDir, host: 'desktop', version: '0.0.0-test', vault: new FileKeyVault(dataDir), log: () => {} });
    // Imported after the resolve hook is registered, so its `electron` is the stand-in.
    const { bindIpc } = await import('../../electron/desktop/ipc-binder');
    binder = bindIpc(host, () => {});
  });

  after(async () => {
    binder?.dispose();
    await host?.close();
    await model?.close();
    process.env.ANTHROPIC_API_KEY = saved.key;
    process.env.ANTHROPIC_BASE_URL = saved.url;
    if (saved.key === undefined) delete process.env.ANTHROPIC_API_KEY;
    if (saved.url === undefined) delete process.env.ANTHROPIC_BASE_URL;
    rmSync(dataDir, { recursive: true, force: true });
    rmSync(workspace, { recursive: true, force: true });
  });

  test('a window watching nothing hears tool calls start and end; updates go only to the watcher; rows come back as stored', async () => {
    const [shown, other] = [newWindow(), newWindow()];
    // The stand-in has what the binder touches of a window, not all of Electron's.
    for (const window of [shown, other]) binder.track(window as unknown as Parameters<IpcBinder['track']>[0]);

    const created = await request(shown, 'session:create', { workspaces: [workspace], permissionMode: 'bypass' });
    assert.ok(created.response.ok, JSON.stringify(created.response));
    const sessionId = (created.response.value as { id: string }).id;
    await watch(shown, [sessionId]);
    assert.ok((await request(shown, 'session:send', { sessionId, text: 'count' })).response.ok);
    await Promise.all([waitForEnd(shown.webContents, sessionId), waitForEnd(other.webContents, sessionId)]);

    const typesOf = (contents: FakeWebContents) => agentEvents(contents, sessionId).map((event) => event.type);
    const watcher = typesOf(shown.webContents);
    const bystander = typesOf(other.webContents);
    for (const type of ['toolExecutionStart', 'toolExecutionEnd', 'agentStart', 'agentEnd', 'userMessage'] as const) {
      assert.ok(bystander.includes(type), `the window watching nothing gets ${type}: ${bystander.join()}`);
      assert.ok(watcher.includes(type), `the watching window gets ${type}`);
    }
    assert.ok(watcher.includes('messageUpdate') && watcher.includes('toolExecutionUpdate'), `the watcher gets the streams: ${watcher.join()}`);
    assert.ok(!bystander.includes('messageUpdate') && !bystander.includes('toolExecutionUpdate'), `no stream for a bystander: ${bystander.join()}`);
    const start = agentEvents(other.webContents, sessionId).find((event) => event.type === 'toolExecutionStart');
    assert.equal(start?.type === 'toolExecutionStart' && start.toolCallId, 'toolu_seq');

    const opened = await request(other, 'session:open', { sessionId });
    assert.ok(opened.response.ok, JSON.stringify(opened.response));
    const value = opened.response.value as { events: SessionEvent[]; fromSeq: number; lastSeq: number };
    const stored = host.store.loadEvents(sessionId, { afterSeq: value.fromSeq, untilSeq: value.lastSeq });
    assert.ok(stored.length > 5, `the run stored its events (${stored.length})`);
    assert.deepEqual(value.events, stored, 'the answer parses to exactly the stored events');
    for (const text of host.store.loadEventTexts(sessionId, { afterSeq: value.fromSeq, untilSeq: value.lastSeq })) {
      assert.ok((opened.text as string).includes(text), 'each stored row is in the answer as its stored text');
    }
  });

  test('a refused request is JSON text too, naming why', async () => {
    const stranger = newWindow();
    const text = await (recorded.ipcHandlers.get('cove:request') as Handler)({ sender: stranger.webContents, senderFrame: stranger.webContents.mainFrame }, 'app:info', {});
    const response = JSON.parse(text as string) as Response;
    assert.equal(!response.ok && response.error.code, 'unauthorized');
  });
});
