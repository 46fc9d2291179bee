// A command that floods its terminal, in Chromium: the finished card shows its last line without
// any scrolling, its first line is a Home key away, and the page holds only the lines in view.
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import type { Browser } from 'playwright-core';
import type { RecordedRequest } from '../support/model-server';
import { block, reply, type Reply } from '../support/model-server';
import { launchChromium, openApp, skipReason, startE2E, startSession, withApp } from './support';

const skip = skipReason();
const PROMPT = 'Flood the terminal';
// The first line comes alone, before the flood, so it is in the first update the page gets.
const COMMAND = 'echo first-line; sleep 0.3; seq 1 30000; echo last-line';
/** Terminal.tsx shows at most 24 lines of 18 px, plus its padding. */
const MAX_TERMINAL_HEIGHT = 24 * 18 + 16 + 2;

function script(request: RecordedRequest): Reply {
  const answered = JSON.stringify(request.body.messages).includes('tool_result');
  if (!JSON.stringify(request.body.messages[0]?.content ?? '').includes(PROMPT)) throw new Error('the flood script answers one prompt');
  return answered ? reply.text('It printed a lot.') : reply.message([block.toolUse('bash', { command: COMMAND })]);
}

/** In the page: which of the terminal's drawn lines are inside its visible box, and how many are drawn. */
function visibleLines(terminal: Element): { visible: string[]; drawn: number } {
  const box = terminal.getBoundingClientRect();
  const lines = Array.from(terminal.querySelectorAll('.terminal-line'));
  const visible = lines.filter((line) => {
    const rect = line.getBoundingClientRect();
    return rect.top >= box.top - 1 && rect.bottom <= box.bottom + 1;
  });
  return { visible: visible.map((line) => (line.textContent ?? '').trimEnd()), drawn: lines.length };
}

describe('a flooded terminal in the browser', { skip }, () => {
  let browser: Browser;
  before(async () => {
    browser = await launchChromium();
  });
  after(async () => {
    await browser?.close();
  });

  test('shows the tail when the command ends, the head on Home, and draws only the lines in view', () =>
    withApp(browser, 'terminal-flood', script, async (e2e) => {
      const { page } = e2e;
      await page.emulateMedia({ colorScheme: 'dark' });
      await startSession(e2e, PROMPT);
      await page.getByRole('article', { name: 'Permission request: bash' }).getByRole('button', { name: 'Allow once' }).click();
      await page.getByRole('article', { name: "Cove's reply" }).filter({ hasText: 'It printed a lot.' }).waitFor();
      const terminal = page.getByRole('article', { name: /^bash tool/ }).getByRole('group', { name: 'bash output' });
      await terminal.scrollIntoViewIfNeeded();
      // 30,002 lines reach the page (the first 256 KB are all stored): more than the 100 + 5,000 kept.
      const card = page.getByRole('article', { name: /^bash tool/ });
      await card
        .getByText(/^[\d,]+ lines left out: the first 100 and the last 5,000 are kept$/)
        .waitFor()
        .catch(async (error: Error) => {
          // Says what the card showed instead (it timed out twice in forty runs under load).
          throw new Error(`${error.message}\nthe card's note: ${await card.locator('.output-note').allInnerTexts()}`);
        });

      const atEnd = await terminal.evaluate(visibleLines);
      assert.equal(atEnd.visible.at(-1), 'last-line', `the last line shows without scrolling: ${atEnd.visible.join(' | ')}`);
      assert.ok(atEnd.drawn < 60, `only the lines in view are drawn, not ${atEnd.drawn}`);
      const height = await terminal.evaluate((element) => element.getBoundingClientRect().height);
      assert.ok(height <= MAX_TERMINAL_HEIGHT, `the terminal is ${height} px tall, at most ${MAX_TERMINAL_HEIGHT}`);
      await page.setViewportSize({ width: 900, height: 700 });
      await terminal.scrollIntoViewIfNeeded();
      await e2e.screenshot('terminal-flood-1-tail-900x700');
      await page.setViewportSize({ width: 1280, height: 860 });

      await terminal.focus();
      await page.keyboard.press('Home');
      await page.waitForFunction((element) => element?.scrollTop === 0, await terminal.elementHandle());
      await page.evaluate(() => new Promise((resolve) => requestAnimationFrame(() => requestAnimationFrame(resolve))));
      const atTop = await terminal.evaluate(visibleLines);
      assert.equal(atTop.visible[0], 'first-line', `Home shows the first line: ${atTop.visible.join(' | ')}`);
      assert.equal(atTop.visible[1], '1');
      assert.ok(atTop.drawn < 60, `only the lines in view are drawn at the top, not ${atTop.drawn}`);
      await terminal.scrollIntoViewIfNeeded();
      await e2e.screenshot('terminal-flood-2-head');
    }));
});

/**
 * In the page, before the app loads: counts the reads that make the browser lay the page out to
 * size a virtualized row (`offsetHeight` of an element with `data-index`) or a terminal's and the
 * session list's scroller (`clientWidth`), except inside ResizeObserver callbacks, which run
 * after the browser's own layout. @tanstack/react-virtual's defaults make both reads as rows and
 * terminals mount, in React's commit (../../renderer/ui/virtual-layout.ts).
 */
// Source text, not a function: the TypeScript loader wraps named functions in a helper that does
// not exist in the page.
const COUNT_LAYOUT_READS = `(() => {
  const reads = { rowHeights: 0, scrollerWidths: 0 };
  window.__layoutReads = reads;
  let inObserver = 0;
  const Observer = window.ResizeObserver;
  window.ResizeObserver = class extends Observer {
    constructor(callback) {
      super((entries, observer) => {
        inObserver++;
        try {
          callback(entries, observer);
        } finally {
          inObserver--;
        }
      });
    }
  };
  const watch = (proto, name, count) => {
    const property = Object.getOwnPropertyDescriptor(proto, name);
    Object.defineProperty(proto, name, {
      configurable: true,
      get() {
        if (inObserver === 0) count(this);
        return property.get.call(this);
      },
    });
  };
  watch(HTMLElement.prototype, 'offsetHeight', (element) => {
    if (element.hasAttribute('data-index')) reads.rowHeights++;
  });
  watch(Element.prototype, 'clientWidth', (element) => {
    if (element.matches('.terminal, .session-scroller')) reads.scrollerWidths++;
  });
})()`;

describe('virtualized rows in the browser', { skip }, () => {
  let browser: Browser;
  before(async () => {
    browser = await launchChromium();
  });
  after(async () => {
    await browser?.close();
  });

  test('rows, a terminal and the session list are sized without a layout inside the commit, and no row overlaps another', async () => {
    const e2e = await startE2E(script, browser);
    try {
      const { page } = e2e;
      await page.addInitScript({ content: COUNT_LAYOUT_READS });
      await openApp(e2e);
      await startSession(e2e, PROMPT);
      await page.getByRole('article', { name: 'Permission request: bash' }).getByRole('button', { name: 'Allow once' }).click();
      await page.getByRole('article', { name: "Cove's reply" }).filter({ hasText: 'It printed a lot.' }).waitFor();
      await page
        .getByRole('article', { name: /^bash tool/ })
        .getByText('last-line', { exact: true })
        .waitFor();
      const reads = await page.evaluate(() => (window as unknown as { __layoutReads: { rowHeights: number; scrollerWidths: number } }).__layoutReads);
      assert.deepEqual(reads, { rowHeights: 0, scrollerWidths: 0 }, 'layout reads outside ResizeObserver callbacks');
      // Placed by ResizeObserver's sizes: each row starts where the one before it ends.
      const rows = await page.locator('.transcript-row').evaluateAll((elements) =>
        elements.map((element) => {
          const box = element.getBoundingClientRect();
          return { top: box.top, bottom: box.bottom, index: Number(element.getAttribute('data-index')) };
        }),
      );
      rows.sort((a, b) => a.index - b.index);
      assert.ok(rows.length >= 3, `${rows.length} rows drawn`);
      for (let at = 1; at < rows.length; at++) {
        assert.ok(Math.abs(rows[at]!.top - rows[at - 1]!.bottom) <= 1, `row ${rows[at]!.index} starts where row ${rows[at - 1]!.index} ends: ${JSON.stringify(rows)}`);
      }
      const sessionRows = await page.getByRole('navigation', { name: 'Sessions' }).locator('li[data-index]').count();
      assert.ok(sessionRows >= 1, 'the session list shows its row');
      assert.deepEqual(e2e.problems, []);
    } finally {
      await e2e.close();
    }
  });
});
