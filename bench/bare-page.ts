/**
 * Pages of Debian's Chromium driven over a bare DevTools socket, for timing the renderer.
 *
 * Playwright enables the Network domain on every page it drives, and with it the renderer
 * copies each WebSocket frame's payload to the debugger, on its main thread. `cove serve`
 * sends a bash flood in frames of megabytes and a long session's `session:open` answer as one
 * 6.6 MB frame, so under Playwright the page spends most of its time reporting frames to the
 * debugger (frames of 0.7–1.3 s that a page without a debugger attached never has). These
 * pages enable only Runtime and Log (page errors and console errors), Page (load events) and
 * Emulation (the viewport): what is timed is what a person's browser does.
 */
import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import WebSocket from 'ws';
import { CHROMIUM_PATH } from '../test/e2e/support';

export interface BarePage {
  /** The page's DevTools target id, which is also its main frame's id (in traces). */
  targetId: string;
  /** Evaluates an expression in the page, awaiting a promise it gives; its value as JSON. */
  evaluate<T = unknown>(expression: string): Promise<T>;
  /** Resolves once `condition` (an expression) is truthy on some animation frame. */
  waitFor(condition: string, timeoutMs?: number): Promise<void>;
  navigate(url: string): Promise<void>;
  /** Presses and releases a printable key through the browser's input pipeline, as a keyboard does. */
  type(character: string): Promise<void>;
  /** A DevTools command on this page's session (e.g. the Profiler, to find where time goes). */
  send<T = unknown>(method: string, params?: object): Promise<T>;
  close(): Promise<void>;
}

export interface BareBrowser {
  /** A new window (each is visible, so each gets animation frames) showing `url`. */
  newPage(url: string): Promise<BarePage>;
  /** Uncaught page errors, console errors and logged errors (CSP violations included). */
  problems: string[];
  /**
   * CPU seconds Chromium's renderer processes have used so far (every page's together): the
   * work the pages did, which a loaded machine stretches in wall time much more than in CPU time.
   */
  rendererCpuSeconds(): Promise<number>;
  /** The process ids of Chromium's renderers. */
  rendererPids(): Promise<number[]>;
  /**
   * Resolves once Chromium's processes together use under a tenth of a core (or after
   * `timeoutMs`). A new headless Chromium loads its own WebUI (the omnibox popup) in a renderer
   * of its own in the seconds after its first windows open: a trace of a first run had that
   * renderer using 0.6–0.8 s of CPU during a 1 s flood, more than both pages together, on a
   * machine of 2 cores. A person's browser has long done that before they type.
   */
  settle(timeoutMs?: number): Promise<void>;
  /** A DevTools command on the browser's own session (e.g. Tracing, which records every process). */
  send<T = unknown>(method: string, params?: object): Promise<T>;
  /** Resolves with the params of the browser session's next event of that name. */
  nextEvent(method: string): Promise<Record<string, unknown>>;
  close(): Promise<void>;
}

const DEFAULT_TIMEOUT_MS = 60_000;
const SETTLE_WINDOW_MS = 500;

interface Viewport {
  width: number;
  height: number;
}

export async function launchBareChromium(viewport: Viewport = { width: 1280, height: 860 }): Promise<BareBrowser> {
  const profile = mkdtempSync(join(tmpdir(), 'cove-bench-chromium-'));
  const child = spawn(
    CHROMIUM_PATH,
    [
      '--headless',
      '--no-sandbox',
      '--disable-gpu',
      '--disable-background-networking',
      '--disable-component-update',
      '--disable-sync',
      // Two windows side by side must both keep drawing, as on a person's screen.
      '--disable-backgrounding-occluded-windows',
      '--disable-renderer-backgrounding',
      '--disable-background-timer-throttling',
      '--no-first-run',
      `--window-size=${viewport.width},${viewport.height}`,
      `--user-data-dir=${profile}`,
      '--remote-debugging-port=0',
      'about:blank',
    ],
    { stdio: ['ignore', 'ignore', 'pipe'], detached: true },
  );
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  // Chromium runs in a process group of its own, so its helpers (which write into the profile
  // until they are gone) go down with it, also when the benchmark itself ends early.
  const killGroup = () => {
    try {
      process.kill(-child.pid!, 'SIGKILL');
    } catch {
      // Already gone.
    }
  };
  process.once('exit', killGroup);
  const removeProfile = async () => {
    killGroup();
    if (child.exitCode === null && child.signalCode === null) await exited;
    process.off('exit', killGroup);
    rmSync(profile, { recursive: true, force: true, maxRetries: 10, retryDelay: 200 });
  };
  let browserUrl: string;
  try {
    browserUrl = await new Promise<string>((resolve, reject) => {
      let stderr = '';
      const timer = setTimeout(() => reject(new Error(`${CHROMIUM_PATH} printed no DevTools address in 20 s: ${stderr}`)), 20_000);
      child.stderr.setEncoding('utf8').on('data', (chunk: string) => {
        stderr += chunk;
        const match = /DevTools listening on (ws:\/\/\S+)/.exec(stderr);
        if (match) {
          clearTimeout(timer);
          resolve(match[1]!);
        }
      });
      void exited.then(() => {
        clearTimeout(timer);
        reject(new Error(`${CHROMIUM_PATH} exited before it listened: ${stderr}`));
      });
    });
  } catch (error) {
    await removeProfile();
    throw error;
  }

  const problems: string[] = [];
  const pages = new Set<BarePage>();
  const port = new URL(browserUrl).port;
  const browser = await connect(browserUrl, () => {});
  return {
    problems,
    send: (method, params) => browser.send(method, params),
    nextEvent: (method) => browser.once(method),
    async rendererCpuSeconds() {
      const { processInfo } = await browser.send<{ processInfo: Array<{ type: string; cpuTime: number }> }>('SystemInfo.getProcessInfo');
      return processInfo.filter((process) => process.type === 'renderer').reduce((total, process) => total + process.cpuTime, 0);
    },
    async settle(timeoutMs = 15_000) {
      const total = async () => {
        const { processInfo } = await browser.send<{ processInfo: Array<{ cpuTime: number }> }>('SystemInfo.getProcessInfo');
        return processInfo.reduce((sum, process) => sum + process.cpuTime, 0);
      };
      const started = performance.now();
      let before = await total();
      while (performance.now() - started < timeoutMs) {
        await new Promise((resolve) => setTimeout(resolve, SETTLE_WINDOW_MS));
        const now = await total();
        if (now - before < SETTLE_WINDOW_MS / 1000 / 10) return;
        before = now;
      }
    },
    async rendererPids() {
      const { processInfo } = await browser.send<{ processInfo: Array<{ type: string; id: number }> }>('SystemInfo.getProcessInfo');
      return processInfo.filter((process) => process.type === 'renderer').map((process) => process.id);
    },
    async newPage(url) {
      const { targetId } = await browser.send<{ targetId: string }>('Target.createTarget', { url: 'about:blank', newWindow: true });
      const page = await openPage(port, targetId, viewport, problems, () => browser.send('Target.closeTarget', { targetId }).then(() => pages.delete(page)));
      pages.add(page);
      await page.navigate(url);
      return page;
    },
    async close() {
      for (const page of [...pages]) await page.close().catch(() => {});
      // Asked to close, Chromium ends its helpers itself; the kill is for one that does not.
      await Promise.race([browser.send('Browser.close').then(() => exited), new Promise((resolve) => setTimeout(resolve, 5000))]).catch(() => {});
      browser.close();
      await removeProfile();
    },
  };
}

async function openPage(port: string, targetId: string, viewport: Viewport, problems: string[], closeTarget: () => Promise<unknown>): Promise<BarePage> {
  const session = await connect(`ws://127.0.0.1:${port}/devtools/page/${targetId}`, (method, params) => {
    if (method === 'Runtime.exceptionThrown') problems.push(`page error: ${describeException(params)}`);
    else if (method === 'Runtime.consoleAPICalled' && params.type === 'error')
      problems.push(`console error: ${(params.args as Array<{ value?: unknown; description?: string }>).map((arg) => arg.value ?? arg.description).join(' ')}`);
    else if (method === 'Log.entryAdded' && (params.entry as { level: string }).level === 'error') problems.push(`console error: ${(params.entry as { text: string }).text}`);
  });
  await session.send('Runtime.enable');
  await session.send('Log.enable');
  await session.send('Page.enable');
  // The window's size is not the page's in headless Chromium; this is what Playwright sets too.
  await session.send('Emulation.setDeviceMetricsOverride', { ...viewport, deviceScaleFactor: 1, mobile: false });
  const evaluate = async <T>(expression: string): Promise<T> => {
    const result = await session.send<{ result: { value?: unknown }; exceptionDetails?: unknown }>('Runtime.evaluate', { expression, awaitPromise: true, returnByValue: true });
    if (result.exceptionDetails) throw new Error(`in the page: ${describeException({ exceptionDetails: result.exceptionDetails })}`);
    return result.result.value as T;
  };
  return {
    targetId,
    evaluate,
    async waitFor(condition, timeoutMs = DEFAULT_TIMEOUT_MS) {
      await evaluate(`new Promise((resolve, reject) => {
        const started = performance.now();
        const check = () => {
          let met = false;
          try { met = Boolean(${condition}); } catch {}
          if (met) return resolve(true);
          if (performance.now() - started > ${timeoutMs}) return reject(new Error(${JSON.stringify(`waited ${timeoutMs} ms for ${condition}`)} + ' on a page showing: ' + document.body.innerText.slice(0, 300)));
          requestAnimationFrame(check);
        };
        check();
      })`);
    },
    async navigate(url) {
      const loaded = session.once('Page.loadEventFired');
      const result = await session.send<{ errorText?: string }>('Page.navigate', { url });
      if (result.errorText) throw new Error(`opening ${url} failed: ${result.errorText}`);
      await loaded;
    },
    send: (method, params) => session.send(method, params),
    async type(character) {
      await session.send('Input.dispatchKeyEvent', { type: 'keyDown', key: character, text: character, unmodifiedText: character });
      await session.send('Input.dispatchKeyEvent', { type: 'keyUp', key: character });
    },
    async close() {
      session.close();
      await closeTarget();
    },
  };
}

function describeException(params: Record<string, unknown>): string {
  const details = params.exceptionDetails as { text?: string; exception?: { description?: string } } | undefined;
  return details?.exception?.description ?? details?.text ?? 'unknown error';
}

interface Session {
  send<T = unknown>(method: string, params?: object): Promise<T>;
  /** Resolves on the next event of that name, with its params. */
  once(method: string): Promise<Record<string, unknown>>;
  close(): void;
}

async function connect(url: string, onEvent: (method: string, params: Record<string, unknown>) => void): Promise<Session> {
  const socket = new WebSocket(url, { maxPayload: 1 << 30 });
  await new Promise((resolve, reject) => socket.once('open', resolve).once('error', reject));
  let nextId = 1;
  const replies = new Map<number, { resolve(value: unknown): void; reject(error: Error): void; method: string }>();
  const waiters = new Map<string, Array<(params: Record<string, unknown>) => void>>();
  socket.on('message', (data: Buffer) => {
    const message = JSON.parse(data.toString()) as { id?: number; method?: string; params?: Record<string, unknown>; result?: unknown; error?: { message: string } };
    if (message.id !== undefined) {
      const reply = replies.get(message.id);
      replies.delete(message.id);
      if (message.error) reply?.reject(new Error(`${reply.method}: ${message.error.message}`));
      else reply?.resolve(message.result);
    } else if (message.method) {
      onEvent(message.method, message.params ?? {});
      for (const wake of waiters.get(message.method)?.splice(0) ?? []) wake(message.params ?? {});
    }
  });
  socket.on('close', () => {
    for (const reply of replies.values()) reply.reject(new Error(`the DevTools socket closed before ${reply.method} was answered`));
    replies.clear();
  });
  return {
    send<T>(method: string, params: object = {}) {
      return new Promise<T>((resolve, reject) => {
        const id = nextId++;
        replies.set(id, { resolve: resolve as (value: unknown) => void, reject, method });
        socket.send(JSON.stringify({ id, method, params }));
      });
    },
    once(method) {
      return new Promise<Record<string, unknown>>((resolve) => waiters.set(method, [...(waiters.get(method) ?? []), resolve]));
    },
    close() {
      socket.close();
    },
  };
}
