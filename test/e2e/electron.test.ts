// The desktop app in a real Electron, driven by Playwright's _electron: the window loads the
// renderer from app://cove/, the page has window.cove and no Node, and a request round-trips to
// the core. Skipped, with the reason, where no Electron binary is installed (its download is
// blocked on some machines; `npm start` then falls back to `cove serve`).
import { test, describe, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { _electron, type ElectronApplication, type Page } from 'playwright-core';
import { REQUEST_NAMES } from '../../shared/contract';

const root = resolve(import.meta.dirname, '../..');
const runtime: { electronBinary(): string | null; electronSqliteBinding(): Promise<string> } = await import(pathToFileURL(join(root, 'scripts/electron-runtime.mjs')).href);
const binary = runtime.electronBinary();

if (!binary) {
  test('the desktop app in Electron', { skip: 'Electron binary not installed (node_modules/electron has no dist/; run `npm start` once to download it)' }, () => {});
} else {
  describe('the desktop app in Electron', () => {
    let electronApp: ElectronApplication;
    let page: Page;
    let home: string;

    before(async () => {
      for (const built of ['dist/desktop/main.js', 'dist/desktop/preload.cjs', 'dist/renderer/index.html']) {
        assert.ok(existsSync(join(root, built)), `${built} is missing; run npm run build`);
      }
      const binding = await runtime.electronSqliteBinding();
      home = mkdtempSync(join(tmpdir(), 'cove-electron-'));
      const env: Record<string, string> = { ...(process.env as Record<string, string>), COVE_HOME: home, COVE_SQLITE_BINDING: binding, ANTHROPIC_API_KEY: 'sk-ant-e2e-unused' };
      delete env.ELECTRON_RUN_AS_NODE;
      electronApp = await _electron.launch({
        executablePath: binary,
        // The project folder, so the app's name and version come from package.json.
        args: [...(process.getuid?.() === 0 ? ['--no-sandbox'] : []), root],
        cwd: root,
        env,
      });
      page = await electronApp.firstWindow();
      await page.waitForLoadState('domcontentloaded');
    });

    after(async () => {
      await electronApp?.close();
      if (home) rmSync(home, { recursive: true, force: true });
    });

    test('loads the renderer from our own origin', async () => {
      assert.equal(page.url(), 'app://cove/index.html');
      assert.equal(await page.title(), 'Cove');
    });

    test('the page has window.cove and no Node.js', async () => {
      const seen = await page.evaluate(() => {
        const cove = (window as unknown as { cove?: Record<string, unknown> }).cove ?? {};
        return {
          functions: Object.keys(cove).filter((key) => typeof cove[key] === 'function'),
          require: typeof (globalThis as { require?: unknown }).require,
          process: typeof (globalThis as { process?: unknown }).process,
          module: typeof (globalThis as { module?: unknown }).module,
        };
      });
      assert.deepEqual(seen.functions.sort(), [...REQUEST_NAMES, 'onEvent', 'onMenuCommand', 'pathForFile'].sort());
      assert.deepEqual({ require: seen.require, process: seen.process, module: seen.module }, { require: 'undefined', process: 'undefined', module: 'undefined' });
    });

    test('a request round-trips to the core', async () => {
      const info = await page.evaluate(() => (window as unknown as { cove: Record<string, (input: unknown) => Promise<unknown>> }).cove['app:info']!({}));
      const version = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8')).version;
      assert.deepEqual(info, { ok: true, value: { ...(info as { value: object }).value, host: 'desktop', version } });
      const invalid = (await page.evaluate(() => (window as unknown as { cove: Record<string, (input: unknown) => Promise<unknown>> }).cove['session:open']!({}))) as {
        ok: boolean;
        error?: { code: string };
      };
      assert.equal(invalid.error?.code, 'invalidInput');
    });

    test('the CSP blocks eval and pop-ups are denied', async () => {
      const result = await page.evaluate(() => {
        let evalAllowed: boolean;
        try {
          evalAllowed = (0, eval)('1 + 1') === 2;
        } catch {
          evalAllowed = false;
        }
        return { evalAllowed, popup: window.open('https://example.com/') === null };
      });
      assert.deepEqual(result, { evalAllowed: false, popup: true });
    });

    test('the data folder is COVE_HOME', async () => {
      const userData = await electronApp.evaluate(({ app }) => app.getPath('userData'));
      assert.equal(userData, join(home, 'electron-profile'));
      assert.ok(existsSync(join(home, 'cove.db')));
    });

    test("Settings say how this OS keeps the key, and Reveal refuses a folder that is not the session's", async () => {
      const cove = (name: string, input: unknown) =>
        page.evaluate(([request, body]) => (window as unknown as { cove: Record<string, (input: unknown) => Promise<unknown>> }).cove[request as string]!(body), [name, input] as const);
      const settings = (await cove('settings:get', {})) as { ok: boolean; value: { apiKeyStorage?: { kind: string } } };
      assert.ok(settings.ok && settings.value.apiKeyStorage, JSON.stringify(settings));
      const created = (await cove('session:create', { workspaces: [root] })) as { ok: boolean; value: { id: string } };
      assert.ok(created.ok);
      const refused = (await cove('workspace:reveal', { sessionId: created.value.id, path: home })) as { ok: boolean; error?: { code: string } };
      assert.equal(refused.error?.code, 'invalidInput');
    });

    test('closing the app saves the window size and position', async () => {
      await electronApp.close();
      const saved = JSON.parse(readFileSync(join(home, 'window-state.json'), 'utf8')) as { bounds: { width: number; height: number } };
      assert.ok(saved.bounds.width >= 720 && saved.bounds.height >= 480, JSON.stringify(saved));
    });
  });
}
