// Accessibility in Chromium: axe-core on every main screen, in the light and the dark theme
// (the app follows prefers-color-scheme), wide and 900×700, must find no serious or critical violation; and the
// whole flow (open a folder, start a session, send a prompt, approve, open and close Settings)
// works from the keyboard alone. Screenshots of each screen, dark, wide and 900×700, go to /tmp/cove-e2e/.
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import type { Browser, Page } from 'playwright-core';
import type { RecordedRequest } from '../support/model-server';
import { block, reply, type Reply } from '../support/model-server';
import { launchChromium, skipReason, startSession, statusBadge, withApp, type E2E } from './support';

const skip = skipReason();
const AXE_SOURCE = readFileSync(createRequire(import.meta.url).resolve('axe-core'), 'utf8');

const PROMPTS = { look: 'Look around and write notes', helper: 'Ask a helper to check', keyboard: 'Keyboard only, write keys.txt' } as const;
const HELPER_TASK = 'Helper task: list the files';
const FINAL_REPLY = 'Wrote **notes.txt**. See [the guide](https://example.com/guide) and `npm test`.';

function toolResults(request: RecordedRequest): number {
  return request.body.messages.reduce((count, message) => (typeof message.content === 'string' ? count : count + message.content.filter((part) => part.type === 'tool_result').length), 0);
}

function script(request: RecordedRequest): Reply {
  const prompt = JSON.stringify(request.body.messages[0]?.content ?? '');
  const step = toolResults(request);
  if (JSON.stringify(request.body.messages.at(-1)?.content ?? '').includes('second prompt')) return reply.text('The second answer.');
  if (prompt.includes(HELPER_TASK)) return reply.hang({ afterEvents: 4, partial: reply.text('Listing the files now', { chunks: 2 }) });
  if (prompt.includes(PROMPTS.look)) {
    if (step === 0) {
      return reply.message([
        block.text('Looking around first.'),
        block.toolUse('list_files', { path: '.' }),
        block.toolUse('bash', { command: "printf '\\033[32mgreen\\033[0m and \\033[1;31mbold red\\033[0m\\nplain line\\n'" }),
      ]);
    }
    if (step === 2) return reply.message([block.text('Now the notes.'), block.toolUse('write_file', { path: 'notes.txt', content: 'notes\n' })]);
    return reply.text(FINAL_REPLY);
  }
  if (prompt.includes(PROMPTS.helper)) return reply.message([block.toolUse('subagent', { task: HELPER_TASK })]);
  if (prompt.includes(PROMPTS.keyboard)) {
    if (step === 0) return reply.message([block.toolUse('write_file', { path: 'keys.txt', content: 'typed\n' })]);
    return reply.text('Wrote keys.txt.');
  }
  throw new Error(`the accessibility script has no reply for ${prompt.slice(0, 120)}`);
}

interface Violation {
  id: string;
  impact: string | null;
  help: string;
  nodes: Array<{ target: string[]; failureSummary?: string }>;
}

/** Runs axe-core on the page as it is; the serious and critical violations. */
async function seriousViolations(page: Page): Promise<Violation[]> {
  // Evaluated through DevTools rather than added as a script tag, which the page's CSP (script-src 'self') refuses.
  if (!(await page.evaluate(() => 'axe' in window))) await page.evaluate(AXE_SOURCE);
  const violations = await page.evaluate(async () => {
    const axe = (window as unknown as { axe: { run(context: Document, options: object): Promise<{ violations: Violation[] }> } }).axe;
    const result = await axe.run(document, { resultTypes: ['violations'] });
    return result.violations.map((violation) => ({
      id: violation.id,
      impact: violation.impact,
      help: violation.help,
      nodes: violation.nodes.map((node) => ({ target: node.target, failureSummary: node.failureSummary })),
    }));
  });
  return violations.filter((violation) => violation.impact === 'serious' || violation.impact === 'critical');
}

const WIDE = { width: 1280, height: 860 };
const NARROW = { width: 900, height: 700 };
const SCREENS = [
  { colorScheme: 'light', viewport: WIDE },
  { colorScheme: 'dark', viewport: WIDE },
  { colorScheme: 'dark', viewport: NARROW },
] as const;

/** Checks a screen in both themes, and dark in a 900×700 window (screenshotting both dark); the problems found, one line each. */
async function checkScreen(e2e: E2E, screen: string): Promise<string[]> {
  const found: string[] = [];
  for (const { colorScheme, viewport } of SCREENS) {
    await e2e.page.emulateMedia({ colorScheme });
    await e2e.page.setViewportSize(viewport);
    // A theme switch repaints through CSS variables; axe reads computed colours, so wait a frame.
    await e2e.page.evaluate(() => new Promise((resolve) => requestAnimationFrame(() => requestAnimationFrame(resolve))));
    const where = `${screen}, ${colorScheme} ${viewport.width}×${viewport.height}`;
    for (const violation of await seriousViolations(e2e.page)) {
      const nodes = violation.nodes
        .slice(0, 4)
        .map((node) => `${node.target.join(' ')}${node.failureSummary ? ` (${node.failureSummary.split('\n').slice(1).join(' ').trim()})` : ''}`)
        .join('; ');
      found.push(`${where}: ${violation.id} [${violation.impact}] ${violation.help}: ${violation.nodes.length} nodes: ${nodes}`);
    }
    if (colorScheme === 'dark') await e2e.screenshot(`a11y-${screen}-${viewport.width}x${viewport.height}`);
  }
  await e2e.page.setViewportSize(WIDE);
  return found;
}

/**
 * Presses Tab (or Shift+Tab) until the focused element is the one wanted, as a person without
 * a mouse would; fails when it cannot be reached in `limit` presses.
 */
async function tabTo(page: Page, role: string, name: string | RegExp, { backwards = false, limit = 80 } = {}): Promise<void> {
  const target = page.getByRole(role as Parameters<Page['getByRole']>[0], { name }).first();
  await target.waitFor();
  for (let presses = 0; presses < limit; presses++) {
    if (await target.evaluate((element) => element === document.activeElement)) return;
    await page.keyboard.press(backwards ? 'Shift+Tab' : 'Tab');
  }
  const focused = await page.evaluate(() => document.activeElement?.outerHTML.slice(0, 200) ?? 'nothing');
  throw new Error(`${role} "${name}" was not reached with ${limit} presses of ${backwards ? 'Shift+Tab' : 'Tab'}; focus is on ${focused}`);
}

describe('accessibility in the browser', { skip }, () => {
  let browser: Browser;
  before(async () => {
    browser = await launchChromium();
  });
  after(async () => {
    await browser?.close();
  });

  test('axe-core finds no serious or critical violation on any main screen, light or dark', () =>
    withApp(browser, 'a11y-screens', script, async (e2e) => {
      const { page } = e2e;
      const problems: string[] = [];
      problems.push(...(await checkScreen(e2e, 'start-page')));

      await page.getByRole('button', { name: 'New session' }).click();
      await page.getByRole('combobox', { name: 'Project folder' }).fill(e2e.workspace);
      await page.getByRole('button', { name: 'Check folder' }).click();
      await page.getByRole('status').filter({ hasText: '✓ ' }).waitFor();
      problems.push(...(await checkScreen(e2e, 'new-session')));

      await page.getByRole('textbox', { name: 'Message' }).fill(PROMPTS.look);
      await page.getByRole('button', { name: 'Start session' }).click();
      const bashPrompt = page.getByRole('article', { name: 'Permission request: bash' });
      await bashPrompt.getByRole('button', { name: 'Allow once' }).waitFor();
      await page.getByRole('article', { name: /^list_files tool/ }).waitFor();
      problems.push(...(await checkScreen(e2e, 'session-permission-prompt')));

      await bashPrompt.getByRole('button', { name: 'Allow once' }).click();
      await page.getByRole('group', { name: 'bash output' }).getByText('plain line').waitFor();
      await page.getByRole('article', { name: 'Permission request: write_file' }).getByRole('button', { name: 'Allow once' }).click();
      await page.getByRole('article', { name: "Cove's reply" }).filter({ hasText: 'See the guide' }).waitFor();
      await statusBadge(page.locator('header.session-header'), 'done').waitFor();
      problems.push(...(await checkScreen(e2e, 'session-transcript')));

      await page.getByRole('button', { name: 'Review changes' }).click();
      const review = page.getByRole('dialog', { name: 'Changes in this session' });
      await review.getByRole('listitem', { name: 'Added notes.txt' }).waitFor();
      problems.push(...(await checkScreen(e2e, 'review-pane')));
      await review.getByRole('button', { name: 'Close' }).click();

      await page.getByRole('button', { name: 'Settings' }).click();
      const settings = page.getByRole('dialog').filter({ hasText: 'API key' }).first();
      await settings.waitFor();
      problems.push(...(await checkScreen(e2e, 'settings')));
      await page.keyboard.press('Escape');
      await settings.waitFor({ state: 'detached' });

      await page.getByRole('searchbox', { name: 'Search sessions' }).fill('notes');
      await page.getByRole('list', { name: 'Search results' }).getByRole('listitem').first().waitFor();
      problems.push(...(await checkScreen(e2e, 'search-results')));
      await page.getByRole('searchbox', { name: 'Search sessions' }).fill('');

      await startSession(e2e, PROMPTS.helper);
      const sidebar = page.getByRole('complementary', { name: 'Subagents' });
      await sidebar.getByText(HELPER_TASK).first().waitFor();
      problems.push(...(await checkScreen(e2e, 'subagent-sidebar')));
      await page.getByRole('button', { name: 'Stop', exact: true }).click();

      assert.equal(problems.length, 0, `axe-core found serious or critical violations:\n${problems.join('\n')}`);
    }));

  test('keyboard only: open a folder, start a session, approve, send a second prompt, open and close Settings', () =>
    withApp(browser, 'a11y-keyboard', script, async (e2e) => {
      const { page } = e2e;
      await page.emulateMedia({ colorScheme: 'dark' });
      await tabTo(page, 'button', 'New session');
      await page.keyboard.press('Enter');
      await tabTo(page, 'combobox', 'Project folder');
      await page.keyboard.type(e2e.workspace);
      await tabTo(page, 'button', 'Check folder');
      await page.keyboard.press('Enter');
      await page.getByRole('status').filter({ hasText: '✓ ' }).filter({ hasText: e2e.workspace }).waitFor();
      await tabTo(page, 'textbox', 'Message');
      await page.keyboard.type(PROMPTS.keyboard);
      await tabTo(page, 'button', 'Start session');
      await page.keyboard.press('Enter');

      const card = page.getByRole('article', { name: 'Permission request: write_file' });
      await card.getByRole('button', { name: 'Allow once' }).waitFor();
      await e2e.screenshot('a11y-keyboard-1-asking');
      assert.equal(existsSync(join(e2e.workspace, 'keys.txt')), false, 'nothing is written before the answer');
      await tabTo(page, 'button', 'Allow once', { backwards: true });
      await page.keyboard.press('Enter');
      await card.getByRole('status').filter({ hasText: 'Allowed once' }).waitFor();
      await page.getByRole('article', { name: "Cove's reply" }).filter({ hasText: 'Wrote keys.txt.' }).waitFor();
      assert.equal(readFileSync(join(e2e.workspace, 'keys.txt'), 'utf8'), 'typed\n');

      await tabTo(page, 'textbox', 'Message');
      await page.keyboard.type('A second prompt, typed');
      await page.keyboard.press('Enter');
      await page.getByRole('article', { name: "Cove's reply" }).filter({ hasText: 'The second answer.' }).waitFor();
      await e2e.screenshot('a11y-keyboard-2-answered');

      await tabTo(page, 'button', 'Settings', { backwards: true });
      await page.keyboard.press('Enter');
      const settings = page.getByRole('dialog').filter({ hasText: 'API key' }).first();
      await settings.waitFor();
      assert.ok(await settings.evaluate((dialog) => dialog.contains(document.activeElement)), 'focus moves into the Settings dialog');
      await e2e.screenshot('a11y-keyboard-3-settings');
      await page.keyboard.press('Escape');
      await settings.waitFor({ state: 'detached' });
      assert.equal(await page.evaluate(() => document.activeElement?.textContent?.trim()), 'Settings', 'closing Settings gives focus back to its button');
    }));
});
