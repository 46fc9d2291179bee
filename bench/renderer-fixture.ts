/**
 * What the renderer benchmarks share: the scripted model server, a temp COVE_HOME (prepared
 * before the server starts, e.g. with a stored session), the BUILT `cove serve`, a contract
 * socket for setting up from Node, and Debian's Chromium with one browser context. Pages are
 * opened on demand, so a benchmark can show two sessions side by side or reload between runs.
 */
import { existsSync, mkdtempSync, realpathSync, rmSync } from 'node:fs';
import { randomBytes } from 'node:crypto';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { startModelServer, type Script, type ScriptedServer } from '../test/support/model-server';
import { COVE_BIN, CoveHome } from '../test/support/cove-cli';
import { launchChromium, skipReason } from '../test/e2e/support';
import { ApiSocket, startServe, type ServeProcess } from '../test/e2e/serve-process';
import type { Response } from '../shared/contract';

export interface RendererFixture<Prepared = void> {
  /** What `prepareHome` returned. */
  prepared: Prepared;
  model: ScriptedServer;
  home: CoveHome;
  /** A fresh project folder, by real path. */
  workspace: string;
  serve: ServeProcess;
  api: ApiSocket;
  browser: Browser;
  context: BrowserContext;
  /** Opens the app and waits until it lists the sessions. */
  openPage(): Promise<Page>;
  /** Throws when a page reported an error: a benchmark of a broken page measures nothing. */
  assertNoProblems(): void;
  close(): Promise<void>;
}

export interface FixtureOptions<Prepared> {
  script?: Script;
  /** Runs on the data folder before `cove serve` starts. */
  prepareHome?(dataDir: string, workspace: string): Prepared;
}

/** Why the renderer benchmarks cannot run here, or false when they can. */
export function rendererSkipReason(): string | false {
  if (!existsSync(join(COVE_BIN, '../../dist/cli.js'))) return 'cove is not built (dist/cli.js is missing; run node scripts/build.mjs)';
  return skipReason();
}

export async function startRendererFixture<Prepared = void>(options: FixtureOptions<Prepared> = {}): Promise<RendererFixture<Prepared>> {
  const model = await startModelServer(options.script ?? []);
  const home = new CoveHome(model.url);
  const workspace = realpathSync(mkdtempSync(join(tmpdir(), 'cove-bench-ws-')));
  const cleanups: Array<() => Promise<void> | void> = [
    () => rmSync(workspace, { recursive: true, force: true }),
    () => home.remove(),
    () => model.close(),
  ];
  // Every step runs even when one before it fails, so no process or folder is left behind.
  const cleanUp = async () => {
    const failures: string[] = [];
    for (const cleanup of cleanups.splice(0).reverse()) {
      try {
        await cleanup();
      } catch (error) {
        failures.push((error as Error).message);
      }
    }
    if (failures.length > 0) throw new Error(`cleaning up the renderer benchmark failed: ${failures.join('; ')}`);
  };
  try {
    const prepared = options.prepareHome?.(home.path, workspace) as Prepared;
    const token = `bench-${randomBytes(16).toString('hex')}`;
    const serve = await startServe(home, ['--port', '0', '--token', token]);
    cleanups.push(() => serve.stop().then(() => undefined));
    const api = await ApiSocket.open(serve);
    cleanups.push(() => api.close());
    const browser = await launchChromium();
    cleanups.push(() => browser.close());
    const context = await browser.newContext({ viewport: { width: 1280, height: 860 } });
    const problems: string[] = [];
    return {
      prepared,
      model,
      home,
      workspace,
      serve,
      api,
      browser,
      context,
      async openPage() {
        const page = await context.newPage();
        page.setDefaultTimeout(60_000);
        page.on('pageerror', (error) => problems.push(`page error: ${error.message}`));
        page.on('console', (message) => {
          if (message.type() === 'error') problems.push(`console error: ${message.text()}`);
        });
        await page.goto(serve.url);
        await page.getByRole('navigation', { name: 'Sessions' }).waitFor();
        await page.getByRole('list', { name: 'Session list' }).or(page.getByText('No sessions yet')).first().waitFor();
        return page;
      },
      assertNoProblems() {
        if (problems.length > 0) throw new Error(`the page reported problems:\n${problems.join('\n')}`);
        if (model.problems.length > 0) throw new Error(`the model server reported problems:\n${model.problems.join('\n')}`);
      },
      close: cleanUp,
    };
  } catch (error) {
    // The reason it could not start matters more than a failed cleanup after it.
    await cleanUp().catch((cleanupError: Error) => process.stderr.write(`${cleanupError.message}\n`));
    throw error;
  }
}

/** A contract request that must succeed; its value. */
export async function request<T>(api: ApiSocket, name: string, input: unknown): Promise<T> {
  const response: Response<T> = await api.request<T>(name, input);
  if (!response.ok) throw new Error(`${name} failed: ${response.error.message}`);
  return response.value;
}

/** Clicks a session in the list by its title. */
export async function selectSession(page: Page, title: string): Promise<void> {
  await page.getByRole('list', { name: 'Session list' }).getByRole('button', { name: new RegExp(`^${title}`) }).click();
}

/**
 * A function for `evaluate`, from source text. The TypeScript loader wraps named functions in
 * a `__name` helper the page does not have, and Playwright evaluates a string as an expression
 * rather than calling it with the argument; a Function built from text avoids both.
 */
export function pageFunction<Args extends unknown[], Result>(parameters: string[], body: string): (...args: Args) => Result {
  return new Function(...parameters, body) as (...args: Args) => Result;
}
