// Opening a session in Chromium through `cove serve`: the session view's chunk is fetched before
// any click (at idle once the list is drawn, or when the pointer reaches a row), so the click
// fetches no code; its shared chunks are asked for with its own file, not after it; a long
// session asks for its older part only once its first screen is drawn; a chunk that cannot
// load says what could not load, and both Try again and a click on the session fetch it again.
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import type { Browser, Page, Request } from 'playwright-core';
import { writeStoredTranscript, type StoredTranscript } from '../../bench/stored-transcript';
import { launchChromium, openApp, skipReason, startE2E, type E2E } from './support';

const skip = skipReason();
const TITLE = 'Stored session';
const SESSION_VIEW_CHUNK = /\/chunks\/SessionView-[^/]+\.js$/;

const row = (page: Page) => page.getByRole('list', { name: 'Session list' }).getByRole('button', { name: TITLE });
const isSessionView = (request: Request) => SESSION_VIEW_CHUNK.test(new URL(request.url()).pathname);

/** The request URLs (paths) the page makes from now on, in order. */
function recordRequests(page: Page): string[] {
  const paths: string[] = [];
  page.on('request', (request) => paths.push(new URL(request.url()).pathname));
  return paths;
}

async function expectTranscript(page: Page, stored: StoredTranscript): Promise<void> {
  await page.getByRole('region', { name: 'Transcript' }).getByText(stored.lastReply).waitFor();
}

/** Polls `condition` (a Node-side fact) every 20 ms for up to 15 s. */
async function until(condition: () => boolean, what: string): Promise<void> {
  const deadline = Date.now() + 15_000;
  while (!condition()) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

/** Console errors other than the aborted chunk requests a test made on purpose. */
const unexpected = (problems: string[]) => problems.filter((problem) => !problem.includes('net::ERR_FAILED'));

describe('opening a session', { skip }, () => {
  let browser: Browser;
  let e2e: E2E;
  let stored: StoredTranscript;

  before(async () => {
    browser = await launchChromium();
  });
  after(async () => {
    await browser?.close();
  });

  /** A fresh server and page per test: a page that has loaded the chunk never fetches it again. */
  async function start(): Promise<void> {
    e2e = await startE2E([], browser);
    stored = writeStoredTranscript(e2e.home.path, e2e.workspace, TITLE, 50);
  }
  async function stop(): Promise<void> {
    await e2e?.close();
  }

  test('the session view is fetched at idle before any click, and the click fetches no code', async () => {
    await start();
    try {
      const { page } = e2e;
      const prefetched = page.waitForRequest(isSessionView);
      await openApp(e2e);
      await row(page).waitFor();
      // No pointer has been near the list: only the idle prefetch can ask for the chunk.
      await prefetched;
      await page.waitForLoadState('networkidle');
      const afterClick = recordRequests(page);
      await row(page).click();
      await expectTranscript(page, stored);
      // The highlighter's chunk may follow (colour comes after the text, on first use); nothing else may.
      const code = afterClick.filter((path) => path.endsWith('.js') && !path.includes('/highlight-engine-'));
      assert.deepEqual(code, [], `the click fetched code: ${code.join(', ')}`);
      assert.deepEqual(unexpected(e2e.problems), []);
    } finally {
      await stop();
    }
  });

  test('when the idle prefetch fails, pointing at a row fetches the chunk before the click', async () => {
    await start();
    try {
      const { page } = e2e;
      let aborted = 0;
      await page.route(SESSION_VIEW_CHUNK, async (route) => {
        if (aborted++ === 0) return route.abort();
        return route.continue();
      });
      const idle = page.waitForRequest(isSessionView);
      await openApp(e2e);
      await idle;
      await page.waitForLoadState('networkidle');
      // The prefetch failed quietly: the page shows no error for a chunk nobody asked to see yet.
      assert.equal(await page.getByRole('alert').filter({ hasText: 'could not load' }).count(), 0);
      const second = page.waitForRequest(isSessionView);
      await row(page).hover();
      await second;
      await page.waitForLoadState('networkidle');
      const afterClick = recordRequests(page);
      await row(page).click();
      await expectTranscript(page, stored);
      assert.deepEqual(
        afterClick.filter((path) => SESSION_VIEW_CHUNK.test(path)),
        [],
        'the hover had already fetched the session view',
      );
      assert.deepEqual(unexpected(e2e.problems), []);
    } finally {
      await stop();
    }
  });

  test("the session view's shared chunks are asked for with its own file, not after it, and load after they failed", async () => {
    await start();
    try {
      const { page } = e2e;
      const listed = /<meta name="cove-chunk-files" data-chunk="sessionView" content="([^"]*)"/.exec(readFileSync('dist/renderer/index.html', 'utf8'))?.[1] ?? '';
      const shared = new Set(
        listed
          .split(' ')
          .filter(Boolean)
          .map((file) => `/${file}`),
      );
      assert.ok(shared.size > 0, "index.html lists the session view's shared chunks");
      const refused = new Set<string>();
      const beforeRelease = new Set<string>();
      let released = false;
      let held = 0;
      page.on('request', (request) => {
        const path = new URL(request.url()).pathname;
        if (!released && shared.has(path)) beforeRelease.add(path);
      });
      // The view's own file is held back a while the first time; each shared chunk is refused once.
      await page.route(/\/chunks\/[^/]+\.js$/, async (route) => {
        const path = new URL(route.request().url()).pathname;
        if (SESSION_VIEW_CHUNK.test(path) && held++ === 0) {
          await new Promise((resolve) => setTimeout(resolve, 1500));
          released = true;
        } else if (shared.has(path) && !refused.has(path)) {
          refused.add(path);
          return route.abort();
        }
        return route.continue();
      });
      await openApp(e2e);
      // The idle prefetch, no click yet.
      await until(() => released, 'the idle prefetch of the session view');
      assert.deepEqual([...beforeRelease].sort(), [...shared].sort(), "every shared chunk was asked for before the view's own file had arrived");
      await row(page).click();
      // The prefetch failed: the view either loads at once (the import fetched the refused files
      // again) or says it could not, and Try again then draws it.
      const alert = page.getByRole('alert').filter({ hasText: 'Cove could not load the session view' });
      const transcript = page.getByRole('region', { name: 'Transcript' }).getByText(stored.lastReply);
      await alert.or(transcript).first().waitFor();
      if (await alert.isVisible()) await alert.getByRole('button', { name: 'Try again' }).click();
      await transcript.waitFor();
      assert.deepEqual(unexpected(e2e.problems), []);
    } finally {
      await stop();
    }
  });

  test('a long session asks for its older part only once its first screen is drawn, and then has all of it', async () => {
    e2e = await startE2E([], browser);
    try {
      const { page } = e2e;
      const long = writeStoredTranscript(e2e.home.path, e2e.workspace, 'Long session', 1000);
      // In the page, at the moment the request leaves: is the session's last reply on the screen?
      await page.addInitScript((lastReply: string) => {
        const send = WebSocket.prototype.send;
        WebSocket.prototype.send = function (data) {
          if (typeof data === 'string' && data.includes('"session:events"') && !('olderAsked' in window)) {
            const shown = Array.from(document.querySelectorAll('[aria-label="Transcript"] article')).some((article) => article.textContent?.includes(lastReply));
            Object.assign(window, { olderAsked: { shown } });
          }
          return send.call(this, data);
        };
      }, long.lastReply);
      await openApp(e2e);
      await page.getByRole('list', { name: 'Session list' }).getByRole('button', { name: 'Long session' }).click();
      await page.getByRole('region', { name: 'Transcript' }).getByText(long.lastReply).waitFor();
      await page.waitForFunction(() => 'olderAsked' in window);
      assert.deepEqual(await page.evaluate(() => (window as unknown as { olderAsked: unknown }).olderAsked), { shown: true });
      // The whole history comes after: the first prompt can be scrolled to.
      await page.waitForFunction(
        () => {
          const scroller = document.querySelector('[aria-label="Transcript"]');
          if (!scroller) return false;
          scroller.scrollTop = 0;
          return Array.from(scroller.querySelectorAll('article')).some((article) => article.textContent?.includes('Check module 1 and'));
        },
        undefined,
        { polling: 50 },
      );
      assert.deepEqual(unexpected(e2e.problems), []);
    } finally {
      await stop();
    }
  });

  test('a chunk that cannot load says so; Try again and a click on the session fetch it again', async () => {
    await start();
    try {
      const { page } = e2e;
      let requests = 0;
      await page.route(SESSION_VIEW_CHUNK, (route) => {
        requests += 1;
        return route.abort();
      });
      await openApp(e2e);
      await row(page).click();
      const alert = page.getByRole('alert').filter({ hasText: 'Cove could not load the session view' });
      await alert.waitFor();
      await e2e.screenshot('session-open-chunk-failed');
      const before = requests;
      await alert.getByRole('button', { name: 'Try again' }).click();
      // Still refused: a new request for the chunk, and the message again.
      await until(() => requests > before, 'Try again asking for the chunk again');
      await alert.waitFor();
      await page.unroute(SESSION_VIEW_CHUNK);
      await row(page).click();
      await expectTranscript(page, stored);
      assert.equal(await alert.count(), 0, 'the failure message went once the view was drawn');
      assert.deepEqual(unexpected(e2e.problems), []);
    } finally {
      await stop();
    }
  });
});
