// A command that floods its terminal, in Chromium: the finished card shows its last line without
// any scrolling, its first line is a Home key away, and the page holds only the lines in view.
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import type { Browser } from 'playwright-core';
import type { RecordedRequest } from '../support/model-server';
import { block, reply, type Reply } from '../support/model-server';
import { launchChromium, skipReason, startSession, withApp } from './support';

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
      await card.getByText(/^[\d,]+ lines left out: the first 100 and the last 5,000 are kept$/).waitFor();

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
