/**
 * End-to-end fixture: the scripted model server, a temp COVE_HOME and workspace, the BUILT
 * `cove serve` on a free port with a known token, and a page in Debian's Chromium. Tests wait
 * on what the page shows (Playwright's auto-waiting locators), never on fixed sleeps.
 * Screenshots go to /tmp/cove-e2e/, never into the repository.
 */
import { existsSync, mkdirSync, mkdtempSync, realpathSync, rmSync } from 'node:fs';
import { randomBytes } from 'node:crypto';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { chromium, type Browser, type BrowserContext, type Locator, type Page } from 'playwright-core';
import { startModelServer, type ModelServerOptions, type Script, type ScriptedServer } from '../support/model-server';
import { COVE_BIN, CoveHome } from '../support/cove-cli';
import type { SessionStatus, SessionSummary } from '../../shared/contract';
import { ApiSocket, startServe, type ServeProcess } from './serve-process';

export const CHROMIUM_PATH = '/usr/bin/chromium';
export const SCREENSHOT_DIR = '/tmp/cove-e2e';
const RENDERER_INDEX = join(COVE_BIN, '../../dist/renderer/index.html');

/** Why the end-to-end tests cannot run here, or false when they can. */
export function skipReason(): string | false {
  if (!existsSync(CHROMIUM_PATH)) return `Chromium is not installed at ${CHROMIUM_PATH} (apt-get install chromium)`;
  if (!existsSync(RENDERER_INDEX)) return `the renderer is not built (${RENDERER_INDEX} is missing; run node scripts/build.mjs)`;
  return false;
}

export function launchChromium(): Promise<Browser> {
  return chromium.launch({
    executablePath: CHROMIUM_PATH,
    args: ['--no-sandbox', '--disable-gpu', '--disable-background-networking', '--disable-component-update', '--disable-sync'],
  });
}

export interface E2E {
  model: ScriptedServer;
  home: CoveHome;
  /** A fresh project folder, by real path. */
  workspace: string;
  serve: ServeProcess;
  browser: Browser;
  context: BrowserContext;
  page: Page;
  /** Uncaught page errors and console errors, CSP violations included. */
  problems: string[];
  screenshot(name: string): Promise<string>;
  /** Polls main's own session list (over a second socket) until `test` holds; the sessions. */
  waitForSessions(test: (sessions: SessionSummary[]) => boolean, what: string): Promise<SessionSummary[]>;
  close(): Promise<void>;
}

const POLL_MS = 50;

export async function startE2E(
  script: Script,
  browser: Browser,
  serveArgs: string[] = [],
  serveEnv: Record<string, string | undefined> = {},
  modelOptions: ModelServerOptions = {},
): Promise<E2E> {
  const model = await startModelServer(script, modelOptions);
  const home = new CoveHome(model.url);
  const workspace = realpathSync(mkdtempSync(join(tmpdir(), 'cove-e2e-ws-')));
  const token = `e2e-${randomBytes(16).toString('hex')}`;
  let serve: ServeProcess | undefined;
  try {
    serve = await startServe(home, ['--port', '0', '--token', token, ...serveArgs], serveEnv);
    const context = await browser.newContext({ viewport: { width: 1280, height: 860 } });
    const page = await context.newPage();
    page.setDefaultTimeout(15_000);
    const problems: string[] = [];
    page.on('pageerror', (error) => problems.push(`page error: ${error.message}`));
    page.on('console', (message) => {
      if (message.type() === 'error') problems.push(`console error: ${message.text()}`);
    });
    mkdirSync(SCREENSHOT_DIR, { recursive: true });
    const running = serve;
    let socket: Promise<ApiSocket> | undefined;
    return {
      model,
      home,
      workspace,
      serve,
      browser,
      context,
      page,
      problems,
      async screenshot(name) {
        const path = join(SCREENSHOT_DIR, `${name}.png`);
        await page.screenshot({ path, fullPage: true });
        return path;
      },
      async waitForSessions(test, what) {
        socket ??= ApiSocket.open(running);
        const api = await socket;
        const deadline = Date.now() + 15_000;
        for (;;) {
          const listed = await api.request<SessionSummary[]>('session:list', {});
          if (listed.ok && test(listed.value)) return listed.value;
          if (Date.now() > deadline) throw new Error(`main never had ${what}: ${JSON.stringify(listed)}`);
          await new Promise((resolve) => setTimeout(resolve, POLL_MS));
        }
      },
      async close() {
        if (socket) (await socket).close();
        await context.close();
        await running.stop();
        await model.close();
        home.remove();
        rmSync(workspace, { recursive: true, force: true });
      },
    };
  } catch (error) {
    await serve?.stop();
    await model.close();
    home.remove();
    rmSync(workspace, { recursive: true, force: true });
    throw error;
  }
}

/** Opens the printed URL and waits for the app to be connected and showing its sessions. */
export async function openApp(e2e: E2E): Promise<void> {
  await e2e.page.goto(e2e.serve.url);
  await e2e.page.getByRole('navigation', { name: 'Sessions' }).waitFor();
  await e2e.page.getByRole('button', { name: 'New session' }).waitFor();
}

/**
 * Types the project folder, checks it, and starts a session with a first prompt (or none).
 * Resolves when the new session is open.
 */
export async function startSession(e2e: E2E, prompt: string, folder = e2e.workspace): Promise<void> {
  const { page } = e2e;
  await page.getByRole('button', { name: 'New session' }).click();
  const field = page.getByRole('combobox', { name: 'Project folder' });
  await field.fill(folder);
  await page.getByRole('button', { name: 'Check folder' }).click();
  await page.getByRole('status').filter({ hasText: `✓ ` }).filter({ hasText: folder }).waitFor();
  await page.getByRole('textbox', { name: 'Message' }).fill(prompt);
  await page.getByRole('button', { name: 'Start session' }).click();
  await page.getByRole('region', { name: 'Transcript' }).waitFor();
}

/**
 * Runs one test against a fresh fixture: opens the app, runs `body`, screenshots the page as
 * `<name>-FAILED` when it throws, and always tears everything down.
 */
export async function withApp(browser: Browser, name: string, script: Script, body: (e2e: E2E) => Promise<void>): Promise<void> {
  const e2e = await startE2E(script, browser);
  try {
    await openApp(e2e);
    await body(e2e);
    if (e2e.problems.length > 0) throw new Error(`the page reported problems:\n${e2e.problems.join('\n')}`);
  } catch (error) {
    await e2e.screenshot(`${name}-FAILED`).catch(() => undefined);
    throw error;
  } finally {
    await e2e.close();
  }
}

/** A session status badge (the badge shows text and an icon; its status is in data-status). */
export function statusBadge(scope: Locator, status: SessionStatus): Locator {
  return scope.locator(`[data-status="${status}"]`);
}
