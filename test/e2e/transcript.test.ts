// The transcript in Chromium: it follows a growing reply while at the bottom, stays put when the
// person scrolls up (Jump to latest brings it back), and jumps to a prompt just sent (from this
// tab: another tab on the same session stays put); steering
// shows as sent, then read; Y/S/A/N answer from an empty message box but type into one with
// text; a long table streamed at the bottom stays in view; a search result opens its session at
// the match, and arrow keys move through results.
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import type { Browser, Page } from 'playwright-core';
import { block, reply, type RecordedRequest, type Reply } from '../support/model-server';
import { launchChromium, skipReason, startSession, withApp } from './support';

const skip = skipReason();

/** The latest prompt the person typed, and how many tool results came after it. */
function latestPrompt(request: RecordedRequest): { text: string; step: number } {
  const messages = request.body.messages;
  for (let index = messages.length - 1; index >= 0; index--) {
    const message = messages[index]!;
    if (message.role !== 'user') continue;
    const parts = typeof message.content === 'string' ? [{ type: 'text', text: message.content }] : message.content;
    const text = parts.find((part) => part.type === 'text' && !('text' in part && String(part.text).startsWith('<')));
    if (text && 'text' in text) {
      const step = messages.slice(index + 1).filter((later) => typeof later.content !== 'string' && later.content.some((part) => part.type === 'tool_result')).length;
      return { text: String(text.text), step };
    }
  }
  return { text: '', step: 0 };
}

const lines = (label: string, count: number) => Array.from({ length: count }, (_, index) => `${label} line ${index + 1}.`).join('\n\n');

async function scrollState(page: Page, region = 'Transcript') {
  return page.getByRole('region', { name: region, exact: true }).evaluate((element) => ({ top: element.scrollTop, gap: element.scrollHeight - element.scrollTop - element.clientHeight }));
}

describe('the transcript in the browser', { skip }, () => {
  let browser: Browser;

  before(async () => {
    browser = await launchChromium();
  });
  after(async () => {
    await browser?.close();
  });

  test('follow at the bottom, stay put when scrolled up, jump to latest and to a prompt just sent; approve keys only with an empty box', () => {
    const script = (request: RecordedRequest): Reply => {
      const { text, step } = latestPrompt(request);
      if (text.includes('Write at length')) {
        if (step === 0) return reply.message([block.text(lines('First', 60)), block.toolUse('bash', { command: 'sleep 3; echo finished' })]);
        return reply.text(lines('Second', 120));
      }
      if (text.includes('One more thing')) return reply.text('Noted.');
      throw new Error(`no reply for ${text.slice(0, 80)}`);
    };
    return withApp(browser, 'transcript-follow', script, async (e2e) => {
      const { page } = e2e;
      await page.setViewportSize({ width: 900, height: 700 });
      await startSession(e2e, 'Write at length');
      const card = page.getByRole('article', { name: 'Permission request: bash' });
      await card.getByRole('button', { name: 'Allow once' }).waitFor();
      const box = page.getByRole('textbox', { name: 'Message' });

      // With text in the box the key types, and the prompt stays open.
      await box.fill('hold on');
      await box.press('y');
      assert.equal(await box.inputValue(), 'hold ony');
      assert.equal(await card.getByRole('button', { name: 'Allow once' }).isEnabled(), true, 'the prompt is still open');
      // Emptied, the same key answers it, and nothing is typed.
      await box.fill('');
      await box.press('y');
      await card.getByRole('status').filter({ hasText: 'Allowed once' }).waitFor();
      assert.equal(await box.inputValue(), '');

      // The 60-line reply streamed in above the card, and the transcript followed it down.
      const transcript = page.getByRole('region', { name: 'Transcript', exact: true });
      await page.getByRole('article', { name: /bash tool/ }).waitFor();
      await page.waitForFunction(() => {
        const element = document.querySelector('[data-transcript]')!;
        return element.scrollHeight - element.scrollTop - element.clientHeight <= 48 && element.scrollHeight > 2 * element.clientHeight;
      });
      // While the command sleeps, the person scrolls up to read.
      await transcript.hover();
      await page.mouse.wheel(0, -900);
      const jump = page.getByRole('button', { name: 'Jump to latest' });
      await jump.waitFor();
      const before = await scrollState(page);
      // The long reply arrives: the transcript grows below, and stays where the person is.
      await page.getByText('Second line 120.').waitFor({ state: 'attached' });
      await page.waitForTimeout(300);
      const after = await scrollState(page);
      assert.ok(Math.abs(after.top - before.top) <= 2, `stayed put while the reply came in (${before.top} → ${after.top})`);
      assert.ok(after.gap > 1_000, 'the new reply is below, out of view');
      await e2e.screenshot('transcript-1-scrolled-up');

      await jump.click();
      await page.getByText('Second line 120.').waitFor();
      assert.ok((await scrollState(page)).gap <= 48, 'at the bottom again');
      await e2e.screenshot('transcript-2-jumped');

      // Scrolled up again, a prompt just sent brings the transcript to it.
      await transcript.hover();
      await page.mouse.wheel(0, -1_500);
      await jump.waitFor();
      await box.fill('One more thing');
      await box.press('Enter');
      await page.getByRole('article', { name: "Cove's reply" }).filter({ hasText: 'Noted.' }).waitFor();
      await page.getByRole('article', { name: 'Your message' }).filter({ hasText: 'One more thing' }).waitFor();
      // The follow runs after the reply's row has rendered, so wait for it rather than look once.
      await page
        .waitForFunction(
          () => {
            const element = document.querySelector('[data-transcript]')!;
            return element.scrollHeight - element.scrollTop - element.clientHeight <= 48;
          },
          undefined,
          { timeout: 10_000 },
        )
        .catch(async () => assert.fail(`the prompt just sent and its reply are in view: ${JSON.stringify(await scrollState(page))}`));
      assert.equal(await jump.count(), 0);
      await e2e.screenshot('transcript-3-prompt-sent');

      // The same session in a second tab, scrolled up to read: a prompt sent from the first tab
      // arrives there too (the transcript grows) and leaves it where the person is.
      const second = await e2e.context.newPage();
      await second.setViewportSize({ width: 900, height: 700 });
      await second.goto(e2e.serve.url);
      await second
        .getByRole('list', { name: 'Session list' })
        .getByRole('listitem')
        .filter({ hasText: 'Write at length' })
        .getByRole('button', { name: /^Write at length/ })
        .click();
      await second.getByRole('article', { name: "Cove's reply" }).filter({ hasText: 'Noted.' }).waitFor();
      await second.getByRole('region', { name: 'Transcript', exact: true }).hover();
      await second.mouse.wheel(0, -1_500);
      await second.getByRole('button', { name: 'Jump to latest' }).waitFor();
      await second.waitForTimeout(300);
      const parked = await second.evaluate(() => {
        const element = document.querySelector('[data-transcript]')!;
        return { top: element.scrollTop, height: element.scrollHeight };
      });
      await box.fill('One more thing, from here');
      await box.press('Enter');
      await second.waitForFunction((height) => document.querySelector('[data-transcript]')!.scrollHeight > height + 40, parked.height);
      await second.waitForTimeout(300);
      const top = await second.evaluate(() => document.querySelector('[data-transcript]')!.scrollTop);
      assert.ok(Math.abs(top - parked.top) <= 2, `the other tab stayed where it was read (${parked.top} → ${top})`);
      await second.getByRole('button', { name: 'Jump to latest' }).click();
      await second.getByRole('article', { name: 'Your message' }).filter({ hasText: 'One more thing, from here' }).waitFor();
      await second.close();
    });
  });

  test('a long table streamed while at the bottom keeps its last row in view, drawn in chunks whose columns line up, as one table', () => {
    const rows = Array.from({ length: 300 }, (_, row) => `| ${row + 1} | src/module-${row % 13}/file-${row + 1}.ts | ${row % 7 === 0 ? '**failed**' : 'ok'} | row ${row + 1} of the table |`);
    const table = ['Here is the table.', '', '| # | file | status | note |', '|---:|---|:---:|---|', ...rows].join('\n');
    const script = (request: RecordedRequest): Reply => {
      if (latestPrompt(request).text.includes('List the files')) return reply.text(table, { chunks: 3_000 });
      throw new Error('no reply');
    };
    return withApp(browser, 'transcript-table', script, async (e2e) => {
      const { page } = e2e;
      await page.setViewportSize({ width: 900, height: 700 });
      await startSession(e2e, 'List the files');
      const article = page.getByRole('article', { name: "Cove's reply" });
      const grid = article.getByRole('table');
      await grid.getByRole('row').nth(300).waitFor();
      // The follow runs after the last rows render: wait for it rather than look once.
      await page
        .waitForFunction(
          () => {
            const scroller = document.querySelector('[data-transcript]')!;
            const last = Array.from(scroller.querySelectorAll('tr')).at(-1);
            if (!last?.textContent?.includes('row 300 of the table')) return false;
            const row = last.getBoundingClientRect();
            const view = scroller.getBoundingClientRect();
            return row.bottom <= view.bottom && row.top >= view.top;
          },
          undefined,
          { timeout: 10_000 },
        )
        .catch(() => assert.fail('the last table row is in view'));
      assert.equal(await page.getByRole('button', { name: 'Jump to latest' }).count(), 0, 'still following');
      assert.equal(await article.getByRole('table').count(), 1, 'one table for assistive technology');
      assert.equal(await grid.getByRole('row').count(), 301, 'the header and 300 rows');
      assert.equal(await grid.getByRole('columnheader').count(), 4);
      // The chunks share their column widths: a column starts at the same x in the first row and the last.
      const columns = await grid.evaluate((element) => {
        // No named helper: the test's compiler would wrap it in a function the page does not have.
        const [first, last] = [element.querySelector('tbody tr')!, Array.from(element.querySelectorAll('tr')).at(-1)!].map((row) =>
          Array.from(row.children).map((cell) => Math.round(cell.getBoundingClientRect().left)),
        );
        return { tables: element.querySelectorAll('table').length, first, last };
      });
      assert.ok(columns.tables > 1, `drawn in chunks (${columns.tables} tables)`);
      // Alignment comes from the separator row (`:---:` centres the status column).
      assert.equal(
        await grid
          .getByRole('cell', { name: 'failed' })
          .first()
          .evaluate((cell) => getComputedStyle(cell).textAlign),
        'center',
      );
      assert.deepEqual(columns.last, columns.first, 'the columns line up across chunks');
      // Rows inside presentational chunk tables, under one role="table": axe finds the structure sound.
      await page.evaluate(readFileSync(createRequire(import.meta.url).resolve('axe-core'), 'utf8'));
      const violations = await grid.evaluate(async (element) => {
        const axe = (window as unknown as { axe: { run(context: Element): Promise<{ violations: Array<{ id: string; impact: string | null }> }> } }).axe;
        return (await axe.run(element)).violations.filter((violation) => violation.impact === 'serious' || violation.impact === 'critical').map((violation) => violation.id);
      });
      assert.deepEqual(violations, [], 'no serious accessibility violations in the chunked table');
      await e2e.screenshot('transcript-8-long-table');
    });
  });

  test('steering shows as sent while the run is busy, then as read once the agent takes it in', () => {
    let release!: () => void;
    const held = new Promise<void>((resolve) => (release = resolve));
    const script = async (request: RecordedRequest): Promise<Reply> => {
      // The steering joins the tool results' message, so the run is told by its first prompt.
      const text = JSON.stringify(request.body.messages[0]?.content ?? '');
      if (text.includes('Survey the folder')) {
        if (request.body.messages.length === 1) {
          await held;
          return reply.message([block.text('Listing.'), block.toolUse('list_files', { path: '.' })]);
        }
        return reply.text(JSON.stringify(request.body.messages).includes('also check the README') ? 'Checked the README too.' : 'Done without the note.');
      }
      throw new Error(`no reply for ${text.slice(0, 80)}`);
    };
    return withApp(browser, 'transcript-steering', script, async (e2e) => {
      const { page } = e2e;
      await startSession(e2e, 'Survey the folder');
      const box = page.getByRole('textbox', { name: 'Message' });
      await page.getByRole('button', { name: 'Stop', exact: true }).waitFor();
      // Steering sent before the first turn starts goes with that turn's request: it is read at
      // once. The first request is held, so once it arrived the turn has started.
      await e2e.model.waitForRequests(1);
      await box.fill('also check the README');
      // The click waits for Send to be enabled: the first prompt's send may still be settling.
      await page.getByRole('button', { name: 'Send' }).click();
      const steering = page.getByRole('article', { name: 'Your message' }).filter({ hasText: 'also check the README' });
      await steering.locator('[data-steering="sent"]').waitFor();
      assert.match((await steering.textContent()) ?? '', /not read yet/);
      await e2e.screenshot('transcript-4-steering-sent');
      release();
      await steering.locator('[data-steering="read"]').waitFor();
      await page.getByRole('article', { name: "Cove's reply" }).filter({ hasText: 'Checked the README too.' }).waitFor();
      await e2e.screenshot('transcript-5-steering-read');
    });
  });

  test('a search result opens its session at the match, marked, with its other matches a key away; arrow keys move through results', () => {
    const script = (request: RecordedRequest): Reply => {
      const { text } = latestPrompt(request);
      if (text.includes('Tell me about zephyrine')) return reply.text('Zephyrine is a rare mineral, found in old quarries.');
      if (text.includes('Now some filler')) return reply.text(lines('Filler', 120));
      if (text.includes('Mention zephyrine once')) return reply.text('Once.');
      throw new Error(`no reply for ${text.slice(0, 80)}`);
    };
    return withApp(browser, 'transcript-search', script, async (e2e) => {
      const { page } = e2e;
      await page.setViewportSize({ width: 900, height: 700 });
      await startSession(e2e, 'Tell me about zephyrine');
      await page.getByText('Zephyrine is a rare mineral').waitFor();
      const box = page.getByRole('textbox', { name: 'Message' });
      await box.fill('Now some filler');
      await box.press('Enter');
      await page.getByText('Filler line 120.').waitFor();
      await startSession(e2e, 'Mention zephyrine once');
      await page.getByText('Once.').waitFor();

      const search = page.getByRole('searchbox', { name: 'Search sessions' }).or(page.getByRole('textbox', { name: 'Search sessions' }));
      await search.fill('zephyrine');
      const results = page.getByRole('list', { name: 'Search results' }).getByRole('button');
      await results.nth(1).waitFor();
      await results.filter({ hasText: 'Tell me about' }).getByText('2 matching messages').waitFor();
      // A result's status badge is as wide as its words, as in the list, not stretched across the row.
      const [badgeWidth, rowWidth] = await results.nth(0).evaluate((row) => [row.querySelector('.badge')!.getBoundingClientRect().width, row.getBoundingClientRect().width]);
      assert.ok(badgeWidth < rowWidth / 2, `the badge is ${badgeWidth} px wide in a ${rowWidth} px row`);
      await search.press('ArrowDown');
      assert.equal(await results.nth(0).evaluate((element) => element === document.activeElement), true, 'ArrowDown goes into the results');
      await page.keyboard.press('ArrowDown');
      assert.equal(await results.nth(1).evaluate((element) => element === document.activeElement), true, 'and on to the next');
      await page.keyboard.press('ArrowUp');
      await page.keyboard.press('ArrowUp');
      assert.equal(await search.evaluate((element) => element === document.activeElement), true, 'ArrowUp from the first goes back to the box');
      const first = (await results.nth(0).textContent()) ?? '';
      await search.press('ArrowDown');
      if (!first.includes('Tell me about')) await page.keyboard.press('ArrowDown');
      await e2e.screenshot('transcript-6-results');
      await page.keyboard.press('Enter');

      const hit = page.locator('[data-search-hit]');
      await hit.waitFor();
      assert.match((await hit.textContent()) ?? '', /zephyrine/i);
      const visible = await hit.evaluate((element) => {
        const box = element.getBoundingClientRect();
        const view = element.closest('[data-transcript]')!.getBoundingClientRect();
        return box.bottom > view.top && box.top < view.bottom;
      });
      assert.equal(visible, true, 'the match is in view, not the bottom of the session');
      assert.ok((await scrollState(page)).gap > 1_000, 'the session opened far from its bottom');
      const matches = page.getByRole('group', { name: 'Search matches in this session' });
      await matches.getByText('Match 1 of 2').waitFor();
      await e2e.screenshot('transcript-7-opened-at-match');
      await page.emulateMedia({ colorScheme: 'dark' });
      await e2e.screenshot('transcript-7-opened-at-match-dark');
      await page.emulateMedia({ colorScheme: 'light' });
      await matches.getByRole('button', { name: 'Next match' }).click();
      await matches.getByText('Match 2 of 2').waitFor();
      assert.match((await page.locator('[data-search-hit]').textContent()) ?? '', /rare mineral/);
    });
  });
});
