/**
 * What the renderer benchmarks share: the scripted model server, a temp COVE_HOME (prepared
 * before the server starts, e.g. with a stored session), the BUILT `cove serve`, a contract
 * socket for setting up from Node, and Debian's Chromium driven over a bare DevTools socket
 * (./bare-page.ts says why not Playwright). Pages are opened on demand, so a benchmark can
 * show two sessions side by side or reload between runs.
 */
import { existsSync, mkdtempSync, realpathSync, rmSync } from 'node:fs';
import { randomBytes } from 'node:crypto';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startModelServer, type Script, type ScriptedServer } from '../test/support/model-server';
import { COVE_BIN, CoveHome } from '../test/support/cove-cli';
import { skipReason } from '../test/e2e/support';
import { ApiSocket, startServe, type ServeProcess } from '../test/e2e/serve-process';
import type { Response } from '../shared/contract';
import { launchBareChromium, type BareBrowser, type BarePage } from './bare-page';

export interface RendererFixture<Prepared = void> {
  /** What `prepareHome` returned. */
  prepared: Prepared;
  model: ScriptedServer;
  home: CoveHome;
  /** A fresh project folder, by real path. */
  workspace: string;
  serve: ServeProcess;
  api: ApiSocket;
  browser: BareBrowser;
  /** Opens the app in a new window and waits until it lists the sessions. */
  openPage(): Promise<BarePage>;
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
  const cleanups: Array<() => Promise<void> | void> = [() => rmSync(workspace, { recursive: true, force: true }), () => home.remove(), () => model.close()];
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
    const browser = await launchBareChromium({ width: 1280, height: 860 });
    cleanups.push(() => browser.close());
    return {
      prepared,
      model,
      home,
      workspace,
      serve,
      api,
      browser,
      async openPage() {
        const page = await browser.newPage(serve.url);
        await page.waitFor(
          `document.querySelector('nav[aria-label="Sessions"]') && (document.querySelector('ul[aria-label="Session list"]') || document.body.innerText.includes('No sessions yet'))`,
        );
        return page;
      },
      assertNoProblems() {
        if (browser.problems.length > 0) throw new Error(`the page reported problems:\n${browser.problems.join('\n')}`);
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

/** In-page: the button of a session in the list, by the start of its title (its accessible name). */
export function sessionButton(title: string): string {
  return `Array.from(document.querySelectorAll('ul[aria-label="Session list"] button')).find((button) => button.textContent.startsWith(${JSON.stringify(title)}))`;
}

/** Clicks a session in the list by its title, once it is listed. */
export async function selectSession(page: BarePage, title: string): Promise<void> {
  await page.waitFor(sessionButton(title));
  await page.evaluate(`${sessionButton(title)}.click()`);
}
