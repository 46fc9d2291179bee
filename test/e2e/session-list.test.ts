// 10,000 stored sessions in Chromium through `cove serve`: the list keeps a bounded number of
// rows in the page, scrolling to its end reaches the oldest session, the open session is in view
// after a reload, grouping by project is remembered, Alt+ArrowUp/ArrowDown move in the list's
// order in either grouping, and a search answers.
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import type { Browser, Page } from 'playwright-core';
import { sessionTitle, writeStoredSessions, type StoredSessions } from '../../bench/session-list-fixture';
import { launchChromium, openApp, skipReason, startE2E, type E2E } from './support';

const skip = skipReason();
const COUNT = 10_000;
/** A screenful of rows and the virtualizer's overscan, with room to spare; 10,000 rows drawn would be far over. */
const MOST_ROWS = 60;

const list = (page: Page) => page.getByRole('list', { name: 'Session list' });
const rowsInPage = (page: Page) => page.locator('ul[aria-label="Session list"] > li.session-row').count();

/** Whether the row of `title` lies inside the list's visible box. */
function rowInView(page: Page, title: string): Promise<boolean> {
  return page.evaluate((wanted) => {
    const scroller = document.querySelector('.session-scroller');
    const row = Array.from(document.querySelectorAll('li.session-row')).find((li) => li.getAttribute('aria-label') === wanted);
    if (!scroller || !row) return false;
    const view = scroller.getBoundingClientRect();
    const box = row.getBoundingClientRect();
    return box.top >= view.top - 1 && box.bottom <= view.bottom + 1;
  }, title);
}

describe('a list of 10,000 sessions', { skip }, () => {
  let browser: Browser;
  let e2e: E2E;
  let stored: StoredSessions;

  before(async () => {
    browser = await launchChromium();
    e2e = await startE2E([], browser);
    // Written beside the running server, as a `cove run` in another terminal would.
    stored = writeStoredSessions(e2e.home.path, e2e.workspace, COUNT);
    await e2e.page.setViewportSize({ width: 1400, height: 900 });
    await openApp(e2e);
  });
  after(async () => {
    await e2e?.close();
    await browser?.close();
  });

  test('draws a bounded number of rows, newest first', async () => {
    const { page } = e2e;
    await list(page).getByRole('listitem', { name: stored.newestTitle }).waitFor();
    const rows = await rowsInPage(page);
    assert.ok(rows > 5 && rows <= MOST_ROWS, `${rows} rows in the page`);
    assert.equal(await list(page).getByRole('listitem').first().getAttribute('aria-label'), stored.newestTitle);
    await e2e.screenshot('session-list-1-top');
  });

  test('scrolling to the end reaches the oldest session, still with few rows in the page', async () => {
    const { page } = e2e;
    // Each poll scrolls to the current end; older pages load as it nears them.
    await page.waitForFunction(
      (oldest) => {
        const scroller = document.querySelector('.session-scroller');
        if (!scroller) return false;
        scroller.scrollTop = scroller.scrollHeight;
        return Array.from(document.querySelectorAll('li.session-row')).some((li) => li.getAttribute('aria-label') === oldest);
      },
      stored.oldestTitle,
      { polling: 50, timeout: 120_000 },
    );
    const rows = await rowsInPage(page);
    assert.ok(rows <= MOST_ROWS, `${rows} rows in the page at the end`);
    const sizes = await page.locator('li.session-row').evaluateAll((items) => items.map((item) => item.getAttribute('aria-setsize')));
    assert.ok(
      sizes.every((size) => size === String(COUNT)),
      `every row knows the list's length once all is loaded: ${sizes.slice(0, 3).join(', ')}`,
    );
    await e2e.screenshot('session-list-2-bottom');
  });

  test('the open session is in view after a reload, though it is older than the first page', async () => {
    const { page } = e2e;
    await list(page).getByRole('button', { name: stored.oldestTitle }).click();
    await page.locator('header.session-header').getByText(stored.oldestTitle).waitFor();
    await page.reload();
    await page.locator('header.session-header').getByText(stored.oldestTitle).waitFor();
    await page.waitForFunction(
      (title) => {
        const scroller = document.querySelector('.session-scroller');
        const row = Array.from(document.querySelectorAll('li.session-row')).find((li) => li.getAttribute('aria-label') === title);
        if (!scroller || !row) return false;
        const view = scroller.getBoundingClientRect();
        const box = row.getBoundingClientRect();
        return box.top >= view.top - 1 && box.bottom <= view.bottom + 1;
      },
      stored.oldestTitle,
      { timeout: 60_000 },
    );
    // It stays there: showing it at the end must not load page after page above it, each
    // pushing it away (a person did not scroll, so the list is still its first page).
    for (let check = 0; check < 10; check++) {
      await page.waitForTimeout(100);
      assert.ok(await rowInView(page, stored.oldestTitle), `still in view ${(check + 1) * 100} ms later`);
    }
    assert.equal(await page.locator('li.session-row').first().getAttribute('aria-setsize'), '-1', 'older pages wait for the person to scroll');
    // The row can be drawn from its page before the list learns which session is open.
    const marked = list(page).getByRole('listitem', { name: stored.oldestTitle }).locator('[aria-current="page"]');
    await marked.waitFor({ timeout: 10_000 }).catch(() => assert.fail('marked as the open one'));
    assert.equal(await marked.count(), 1, 'marked once');
    await e2e.screenshot('session-list-3-active-after-reload');
  });

  test('grouped by project, remembered after a reload', async () => {
    const { page } = e2e;
    // After a reload the list scrolls itself to the open session once its page has arrived, so a
    // single scroll to the top can be undone by that; keep scrolling up until the heading shows.
    const headingAtTop = (name: string) =>
      page.waitForFunction(
        (want) => {
          document.querySelector('.session-scroller')?.scrollTo({ top: 0 });
          return document.querySelector('li.session-group')?.textContent?.trim() === want;
        },
        name,
        { timeout: 60_000, polling: 250 },
      );
    // The newest session is in harbor: at the top, its project heads the list.
    await page.getByRole('combobox', { name: 'Group sessions by' }).selectOption('project');
    await headingAtTop('harbor');
    await page.reload();
    await list(page).waitFor();
    assert.equal(await page.getByRole('combobox', { name: 'Group sessions by' }).inputValue(), 'project');
    await headingAtTop('harbor');
    await e2e.screenshot('session-list-4-by-project');
    await page.getByRole('combobox', { name: 'Group sessions by' }).selectOption('date');
    await headingAtTop('Today');
  });

  test('Alt+ArrowDown and Alt+ArrowUp move through the sessions in the order the list shows, in either grouping', async () => {
    const { page } = e2e;
    const header = page.locator('header.session-header');
    const newest = COUNT - 1;
    // Sessions take the eight projects in turn: by project, the one below the newest is eight older.
    await page.getByRole('combobox', { name: 'Group sessions by' }).selectOption('project');
    await list(page)
      .getByRole('button', { name: sessionTitle(newest) })
      .click();
    await header.getByText(sessionTitle(newest)).waitFor();
    await page.keyboard.press('Alt+ArrowDown');
    await header.getByText(sessionTitle(newest - 8)).waitFor();
    await page.keyboard.press('Alt+ArrowUp');
    await header.getByText(sessionTitle(newest)).waitFor();
    await page.getByRole('combobox', { name: 'Group sessions by' }).selectOption('date');
    await list(page)
      .getByRole('button', { name: sessionTitle(newest) })
      .focus();
    await page.keyboard.press('Alt+ArrowDown');
    await header.getByText(sessionTitle(newest - 1)).waitFor();
    assert.equal(
      await list(page)
        .getByRole('listitem', { name: sessionTitle(newest - 1) })
        .locator('[aria-current="page"]')
        .count(),
      1,
      'the list marks the session moved to',
    );
  });

  test('a search of a common word answers with sessions that hold it', async () => {
    const { page } = e2e;
    await page.getByRole('searchbox', { name: 'Search sessions' }).fill(stored.commonWord);
    await page.getByText(new RegExp(`Fix the .* case \\d+`)).first().waitFor();
    assert.deepEqual(e2e.problems, []);
  });
});
