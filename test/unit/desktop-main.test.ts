// Loads the bundled desktop main process (dist-style build of electron/desktop/main.ts) under
// plain Node with a stand-in `electron` module, and drives it the way Electron would: proves the
// composition root wires the data folder, window, protocol, IPC binder, hardening, vault and menu.
import { test, describe, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { once } from 'node:events';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, realpathSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { register } from 'node:module';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import type { Response as ContractResponse } from '../../shared/contract';
import { buildDesktopForTest, type DesktopBuild } from '../support/desktop-build';
import { app, BrowserWindow, FakeEvent, FakeWebContents, recorded, safeStorage } from '../support/fake-electron';

const fakeElectron = pathToFileURL(resolve('test/support/fake-electron.ts')).href;
const resolveHook = `export async function resolve(specifier, context, next) {
  return specifier === 'electron' ? { url: ${JSON.stringify(fakeElectron)}, shortCircuit: true } : next(specifier, context);
}`;
register(`data:text/javascript,${encodeURIComponent(resolveHook)}`);

const indexHtml = '<!doctype html><title>Cove test page</title>';
/** A chunk of the ES-module renderer, as build-renderer.mjs names them. */
const chunk = 'export function sessionsList() { return []; }\n';
let build: DesktopBuild;
let home: string;
let workspace: string;
const logged: string[] = [];
const writeStderr = process.stderr.write.bind(process.stderr);
let window: BrowserWindow;

type Handler = (event: unknown, ...args: unknown[]) => Promise<unknown>;
// Main answers with the JSON text of the response (ipc-binder.ts); the preload parses it.
const request = async (sender: unknown, frame: unknown, name: string, input: unknown) =>
  JSON.parse((await (recorded.ipcHandlers.get('cove:request') as Handler)({ sender, senderFrame: frame }, name, input)) as string) as ContractResponse;
const fromWindow = (name: string, input: unknown) => request(window.webContents, window.webContents.mainFrame, name, input);

before(async () => {
  build = await buildDesktopForTest();
  mkdirSync(join(build.dir, 'renderer'));
  writeFileSync(join(build.dir, 'renderer', 'index.html'), indexHtml);
  mkdirSync(join(build.dir, 'renderer', 'chunks'));
  writeFileSync(join(build.dir, 'renderer', 'chunks', 'sessions-5JQ2K7XA.js'), chunk);
  home = mkdtempSync(join(tmpdir(), 'cove-desktop-home-'));
  workspace = mkdtempSync(join(tmpdir(), 'cove-desktop-workspace-'));
  process.env.COVE_HOME = home;
  process.stderr.write = ((chunk: string) => logged.push(String(chunk)) > 0) as typeof process.stderr.write;
  await import(pathToFileURL(build.main).href);
});

after(() => {
  process.stderr.write = writeStderr;
  build?.remove();
  rmSync(home, { recursive: true, force: true });
  rmSync(workspace, { recursive: true, force: true });
});

describe('the desktop main process', () => {
  test('settles the scheme, profile folder and sandbox before the app is ready, then opens one secure window', async () => {
    assert.equal(app.sandboxed, true);
    // The fake, like Electron, throws for privileges given once the app is ready.
    assert.equal(app.isReady(), false);
    assert.deepEqual(recorded.privilegedSchemes, [{ scheme: 'app', privileges: { standard: true, secure: true, supportFetchAPI: true, corsEnabled: true, codeCache: true } }]);
    assert.equal(app.getPath('userData'), join(home, 'electron-profile'));
    assert.equal(BrowserWindow.windows.length, 0);
    app.becomeReady();
    await app.whenReady();
    assert.equal(BrowserWindow.windows.length, 1);
    window = BrowserWindow.windows[0]!;
    const preferences = window.options.webPreferences;
    assert.equal(preferences.contextIsolation, true);
    assert.equal(preferences.sandbox, true);
    assert.equal(preferences.nodeIntegration, false);
    assert.equal(preferences.webSecurity, true);
    assert.equal(preferences.webviewTag, false);
    assert.equal(preferences.preload, build.preload);
    assert.ok(existsSync(build.preload));
    assert.equal(window.loadedUrl, 'app://cove/index.html');
    assert.ok(existsSync(join(home, 'cove.db')), 'the store lives in COVE_HOME');
  });

  test('serves the renderer with the CSP header and nothing outside it', async () => {
    const serve = recorded.protocolHandlers.get('app')!;
    const page = await serve({ url: 'app://cove/index.html', method: 'GET' });
    assert.equal(page.status, 200);
    assert.equal(await page.text(), indexHtml);
    assert.match(page.headers.get('content-security-policy') ?? '', /default-src 'self'; script-src 'self'/);
    assert.match(page.headers.get('content-type') ?? '', /^text\/html/);
    // main.js sits right beside the renderer folder.
    assert.equal((await serve({ url: 'app://cove/..%2Fdesktop%2Fmain.js', method: 'GET' })).status, 403);
    assert.equal((await serve({ url: 'app://cove/missing.js', method: 'GET' })).status, 404);
    assert.equal((await serve({ url: 'app://cove/index.html', method: 'POST' })).status, 405);
  });

  test('serves the ES-module chunks as JavaScript, and nothing beside the renderer through them', async () => {
    const serve = recorded.protocolHandlers.get('app')!;
    const served = await serve({ url: 'app://cove/chunks/sessions-5JQ2K7XA.js', method: 'GET' });
    assert.equal(served.status, 200);
    assert.equal(await served.text(), chunk);
    // Chromium runs a module script only with a JavaScript MIME type, and nosniff forbids guessing.
    assert.match(served.headers.get('content-type') ?? '', /^text\/javascript/);
    assert.equal(served.headers.get('x-content-type-options'), 'nosniff');
    // An escaped `..` leaves the folder and is refused; a plain one the URL parser folds away, so
    // it names a file inside the renderer (here none).
    const outside: Array<[string, number]> = [
      ['app://cove/chunks/..%2F..%2Fdesktop%2Fmain.js', 403],
      ['app://cove/chunks/..%5C..%5Cmain.js', 400],
      ['app://cove/chunks/%2e%2e/%2e%2e/main.js', 404],
    ];
    for (const [url, status] of outside) {
      const refused = await serve({ url, method: 'GET' });
      assert.equal(refused.status, status, url);
      assert.match(refused.headers.get('content-type') ?? '', /^text\/plain/);
    }
  });

  test('answers requests from its window through the contract', async () => {
    const info = await fromWindow('app:info', {});
    assert.ok(info.ok);
    assert.equal((info.value as { host: string }).host, 'desktop');
    assert.equal((info.value as { version: string }).version, '9.8.7');
    const invalid = await fromWindow('session:open', {});
    assert.equal(!invalid.ok && invalid.error.code, 'invalidInput');
  });

  test('refuses requests from other contents, subframes and other origins', async () => {
    const stranger = new FakeWebContents();
    const refusals = [
      await request(stranger, stranger.mainFrame, 'app:info', {}),
      await request(window.webContents, { url: 'app://cove/index.html', parent: window.webContents.mainFrame }, 'app:info', {}),
      await request(window.webContents, { url: 'https://evil.example/', parent: null }, 'app:info', {}),
      await request(window.webContents, null, 'app:info', {}),
    ];
    for (const refusal of refusals) assert.equal(!refusal.ok && refusal.error.code, 'unauthorized');
    assert.match(logged.join(''), /refused a "app:info" request: the requesting page is not Cove's own \(https:\/\/evil\.example\)/);
  });

  test('sends host events to its windows', async () => {
    const created = await fromWindow('session:create', { workspaces: [workspace] });
    assert.ok(created.ok, JSON.stringify(created));
    const sessionId = (created.value as { id: string }).id;
    const events = window.webContents.sent.filter((message) => message.channel === 'cove:event').map((message) => message.payload as { kind: string; session?: { id: string } });
    assert.ok(events.some((event) => event.kind === 'sessionChanged' && event.session?.id === sessionId));
  });

  test('a window sets the sessions it watches over its own channel; other contents are refused', async () => {
    const watch = (sender: unknown, frame: unknown, input: unknown) =>
      (recorded.ipcHandlers.get('cove:watch') as Handler)({ sender, senderFrame: frame }, input) as Promise<ContractResponse>;
    assert.deepEqual(await watch(window.webContents, window.webContents.mainFrame, { sessionIds: ['s1'] }), { ok: true, value: { watching: ['s1'] } });
    const malformed = await watch(window.webContents, window.webContents.mainFrame, { sessionIds: 's1' });
    assert.equal(!malformed.ok && malformed.error.code, 'invalidInput');
    const stranger = new FakeWebContents();
    const refused = await watch(stranger, stranger.mainFrame, { sessionIds: ['s1'] });
    assert.equal(!refused.ok && refused.error.code, 'unauthorized');
  });

  test('stores the API key encrypted; where the OS cannot encrypt, only with consent in a 0600 file, replaced once it can', async () => {
    safeStorage.available = false;
    const refused = await fromWindow('settings:setApiKey', { apiKey: 'sk-ant-desktop' });
    assert.ok(!refused.ok && /not stored: this system offers no keychain/.test(refused.error.message));
    assert.equal(existsSync(join(home, 'api-key.enc')), false);
    const view = await fromWindow('settings:get', {});
    assert.ok(view.ok);
    assert.deepEqual((view.value as { apiKeyStorage: unknown }).apiKeyStorage, {
      kind: 'file',
      file: join(home, 'api-key'),
      keychainProblem: 'this system offers no keychain to encrypt it with',
    });
    const consented = await fromWindow('settings:setApiKey', { apiKey: 'sk-ant-desktop', unprotectedFile: true });
    assert.ok(consented.ok && (consented.value as { apiKey: string }).apiKey === 'stored');
    assert.equal(statSync(join(home, 'api-key')).mode & 0o777, 0o600);
    safeStorage.available = true;
    const stored = await fromWindow('settings:setApiKey', { apiKey: 'sk-ant-desktop' });
    assert.ok(stored.ok && (stored.value as { apiKey: string }).apiKey === 'stored');
    assert.ok(!readFileSync(join(home, 'api-key.enc'), 'utf8').includes('sk-ant-desktop'));
    assert.equal(existsSync(join(home, 'api-key')), false, 'no plaintext key file');
  });

  test('denies every permission', () => {
    const answers: boolean[] = [];
    for (const permission of ['media', 'notifications', 'clipboard-read', 'geolocation']) recorded.permissionRequest!(window.webContents, permission, (granted) => answers.push(granted));
    assert.deepEqual(answers, [false, false, false, false]);
    assert.equal(recorded.permissionCheck!(window.webContents, 'clipboard-read', 'app://cove'), false);
    assert.equal(recorded.devicePermission!({ deviceType: 'usb' }), false);
  });

  test('keeps every web contents on our origin, with no pop-ups or webviews; https links go to the browser', () => {
    const other = new FakeWebContents();
    app.emit('web-contents-created', new FakeEvent(), other);
    for (const contents of [window.webContents, other]) {
      assert.deepEqual(contents.windowOpenHandler!({ url: 'https://example.com/docs' }), { action: 'deny' });
      assert.deepEqual(contents.windowOpenHandler!({ url: 'file:///etc/passwd' }), { action: 'deny' });
      const away = new FakeEvent({ url: 'https://evil.example/' });
      contents.emit('will-navigate', away);
      assert.equal(away.defaultPrevented, true);
      const home = new FakeEvent({ url: 'app://cove/index.html' });
      contents.emit('will-navigate', home);
      assert.equal(home.defaultPrevented, false);
      const redirect = new FakeEvent({ url: 'http://127.0.0.1:1/' });
      contents.emit('will-redirect', redirect);
      assert.equal(redirect.defaultPrevented, true);
      const webview = new FakeEvent();
      contents.emit('will-attach-webview', webview, {}, {});
      assert.equal(webview.defaultPrevented, true);
    }
    assert.deepEqual(recorded.openedExternally, ['https://example.com/docs', 'https://evil.example/', 'https://example.com/docs', 'https://evil.example/']);
  });

  test('the menu has New Session on Ctrl/Cmd+N, sent to the focused window', () => {
    type Item = { label?: string; role?: string; accelerator?: string; submenu?: Item[]; click?: () => void };
    const menu = recorded.menuTemplate as Item[];
    const file = menu.find((item) => item.label === 'File')!;
    const newSession = file.submenu!.find((item) => item.label === 'New Session')!;
    assert.equal(newSession.accelerator, 'CmdOrCtrl+N');
    window.focus();
    newSession.click!();
    assert.deepEqual(window.webContents.sent.at(-1), { channel: 'cove:command', payload: 'newSession' });
    const roles = menu.flatMap((item) => item.submenu ?? []).map((item) => item.role);
    for (const role of ['undo', 'redo', 'cut', 'copy', 'paste', 'selectAll', 'reload', 'togglefullscreen', 'close']) assert.ok(roles.includes(role), role);
    assert.ok(roles.includes('toggleDevTools'), 'developer tools in an unpackaged run');
  });

  test('reveals a workspace folder of a session in the file manager, and nothing else', async () => {
    const info = await fromWindow('app:info', {});
    assert.equal(info.ok && (info.value as { canReveal: boolean }).canReveal, true);
    const created = await fromWindow('session:create', { workspaces: [workspace] });
    assert.ok(created.ok);
    const sessionId = (created.value as { id: string }).id;
    const revealed = await fromWindow('workspace:reveal', { sessionId, path: workspace });
    assert.ok(revealed.ok, JSON.stringify(revealed));
    assert.deepEqual(recorded.revealed, [realpathSync(workspace)]);
    const outside = await fromWindow('workspace:reveal', { sessionId, path: home });
    assert.ok(!outside.ok && outside.error.code === 'invalidInput' && /is not a workspace folder of this session/.test(outside.error.message));
    const missing = await fromWindow('workspace:reveal', { sessionId, path: join(workspace, 'gone') });
    assert.ok(!missing.ok && missing.error.code === 'notFound');
    assert.equal(recorded.revealed.length, 1);
  });

  test('a second launch brings the window back', () => {
    window.blur();
    assert.equal(BrowserWindow.getFocusedWindow(), null);
    app.emit('second-instance', new FakeEvent(), ['cove'], process.cwd());
    assert.equal(BrowserWindow.getFocusedWindow(), window);
  });

  test('remembers the window size and position, and opens the next window there', () => {
    assert.equal(window.options.width, 1280, 'the default size on a first start');
    window.movedTo = { x: 40, y: 60, width: 1000, height: 700 };
    window.emit('close', new FakeEvent());
    assert.deepEqual(JSON.parse(readFileSync(join(home, 'window-state.json'), 'utf8')), { bounds: { x: 40, y: 60, width: 1000, height: 700 }, maximized: false });
    const menu = recorded.menuTemplate as Array<{ label?: string; submenu?: Array<{ label?: string; click?: () => void }> }>;
    BrowserWindow.focused = null;
    BrowserWindow.windows.length = 0;
    menu.find((item) => item.label === 'File')!.submenu!.find((item) => item.label === 'New Session')!.click!();
    const next = BrowserWindow.windows[0]!;
    assert.deepEqual([next.options.x, next.options.y, next.options.width, next.options.height], [40, 60, 1000, 700]);
    BrowserWindow.windows.length = 0;
    BrowserWindow.windows.push(window);
  });

  test('quitting waits for the core to close, then stops answering', async () => {
    const quitting = once(app, 'quit');
    app.quit();
    await quitting;
    assert.equal(app.state, 'quit');
    assert.equal(recorded.ipcHandlers.has('cove:request'), false);
  });
});
