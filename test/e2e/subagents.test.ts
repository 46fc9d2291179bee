// Subagents in Chromium: a subagent's prompt names it and its sidebar row waits for you; it
// opens in place with its own tool cards and a markdown answer, and a way back; its duration and
// a finished command's are the same after a reload as before.
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Browser } from 'playwright-core';
import { block, reply, type RecordedRequest, type Reply } from '../support/model-server';
import { launchChromium, skipReason, startSession, withApp } from './support';

const skip = skipReason();
const PROMPT = 'Delegate the test survey';
const TASK = 'explore-tests: list the test folder and write notes.md';
const NOTES = 'three tests\n';

function firstPrompt(request: RecordedRequest): string {
  return JSON.stringify(request.body.messages[0]?.content ?? '');
}

function answered(request: RecordedRequest): number {
  return request.body.messages.filter((message) => typeof message.content !== 'string' && message.content.some((part) => part.type === 'tool_result')).length;
}

function script(request: RecordedRequest): Reply {
  const step = answered(request);
  if (firstPrompt(request).includes('explore-tests')) {
    if (step === 0) return reply.message([block.text('Listing the tests first.'), block.toolUse('list_files', { path: '.' })]);
    if (step === 1) return reply.message([block.toolUse('write_file', { path: 'notes.md', content: NOTES })]);
    return reply.text('**Found** three tests:\n\n- `a.test.ts`\n- `b.test.ts`');
  }
  if (firstPrompt(request).includes(PROMPT)) {
    if (step === 0) return reply.message([block.text('Handing this to a subagent.'), block.toolUse('subagent', { task: TASK })]);
    if (step === 1) return reply.message([block.toolUse('bash', { command: 'sleep 6; echo slept' })]);
    return reply.text('The subagent found three tests.');
  }
  throw new Error(`no reply for ${firstPrompt(request).slice(0, 100)}`);
}

describe('subagents in the browser', { skip }, () => {
  let browser: Browser;

  before(async () => {
    browser = await launchChromium();
  });
  after(async () => {
    await browser?.close();
  });

  test('a subagent asks by name, waits for you, opens with its own cards and markdown answer, and keeps its times after a reload', () =>
    withApp(browser, 'subagents', script, async (e2e) => {
      const { page } = e2e;
      await startSession(e2e, PROMPT);
      const sidebar = page.getByRole('complementary', { name: 'Subagents' });
      const row = sidebar.getByRole('listitem').first();
      await row.waitFor();
      const name = (await row.locator('.subagent-open').textContent())!.trim();
      assert.ok(name.length > 0, 'the row shows the display name');

      const card = page.getByRole('article', { name: `Permission request from subagent ${name}: write_file` });
      await card.waitFor();
      assert.equal(await card.locator('.permission-header strong').textContent(), `Subagent ‘${name}’ asks: allow Write file?`);
      await sidebar.getByRole('listitem', { name: `Subagent ${name}: Waiting for you` }).waitFor();
      assert.equal(await sidebar.locator('h2 .count').textContent(), '1 waiting', 'the heading counts the asking subagent as waiting, not running');
      await page.getByRole('button', { name: 'Subagents panel, 1 waiting', exact: true }).waitFor();
      // Long enough that a duration of 0 s after the reload would be wrong.
      await page.waitForTimeout(2_200);
      await e2e.screenshot('subagents-1-waiting');

      await sidebar.getByRole('button', { name: `Open subagent ${name}` }).click();
      const own = page.getByRole('region', { name: `Transcript of subagent ${name}` });
      await own.getByRole('article', { name: /list_files tool/ }).waitFor();
      assert.equal(await page.getByRole('region', { name: 'Transcript', exact: true }).count(), 0, "the subagent's transcript is shown in place of the session's");
      const ownCard = own.getByRole('article', { name: /Permission request: write_file/ });
      await ownCard.getByRole('button', { name: 'Allow once' }).click();
      await own.getByRole('article', { name: /write_file tool/ }).waitFor();
      const answer = own.getByRole('article', { name: "Cove's reply" }).filter({ hasText: 'three tests' });
      await answer.locator('strong', { hasText: 'Found' }).waitFor();
      assert.equal((await answer.textContent())!.includes('**'), false, 'the answer is rendered as markdown');
      await sidebar.getByRole('listitem', { name: `Subagent ${name}: Done` }).waitFor();
      await e2e.screenshot('subagents-2-opened');
      await page.setViewportSize({ width: 900, height: 700 });
      await page.emulateMedia({ colorScheme: 'dark' });
      // Nothing in the subagent's transcript reaches below the window: the page itself never scrolls.
      await page
        .waitForFunction(() => document.documentElement.scrollHeight <= innerHeight, undefined, { timeout: 5_000 })
        .catch(async () => {
          assert.fail(`the page is ${await page.evaluate(() => document.documentElement.scrollHeight)} px tall in a 700 px window`);
        });
      await e2e.screenshot('subagents-2-opened-900x700-dark');
      await page.emulateMedia({ colorScheme: 'light' });
      await page.setViewportSize({ width: 1280, height: 860 });
      assert.equal(readFileSync(join(e2e.workspace, 'notes.md'), 'utf8'), NOTES);

      await page.getByRole('button', { name: '← Back to the session' }).click();
      const transcript = page.getByRole('region', { name: 'Transcript', exact: true });
      // Its answer in the session's own card for the call is markdown too.
      const delegated = transcript.locator('article.tool-card').filter({ hasText: 'Delegate to a subagent' });
      // A card is one line until opened.
      await delegated.locator('button.tool-toggle').click();
      await delegated
        .getByRole('group', { name: /output/ })
        .locator('strong', { hasText: 'Found' })
        .waitFor();
      await transcript.getByRole('article', { name: 'Permission request: bash' }).getByRole('button', { name: 'Allow once' }).click();
      const elapsed = (await row.locator('.subagent-elapsed').textContent())!;
      assert.ok(Number(/^(\d+) s$/.exec(elapsed)?.[1]) >= 2, `the subagent ran for its wait at least (${elapsed})`);
      // The command after it runs for 6 s: its timer is at 2 s or more before the reload…
      const timer = transcript.getByRole('progressbar', { name: /bash progress/ });
      await timer.and(page.locator('[aria-valuetext^="running for "]')).waitFor();
      await page.waitForFunction(() => /running for ([2-9]|\d\d)/.test(document.querySelector('[role="progressbar"]')?.getAttribute('aria-valuetext') ?? ''));

      await page.reload();
      await page
        .getByRole('list', { name: 'Session list' })
        .getByRole('button', { name: new RegExp(`^${PROMPT}`) })
        .click();
      // …and after it, counting on from the command's start rather than from the reload.
      const after = page.getByRole('region', { name: 'Transcript', exact: true }).getByRole('progressbar', { name: /bash progress/ });
      const text = await after.getAttribute('aria-valuetext');
      assert.match(text ?? '', /running for ([2-9]|\d\d)/, `the running command's timer survives the reload (${text})`);
      await e2e.screenshot('subagents-3-reloaded-running');
      const reloaded = page.getByRole('complementary', { name: 'Subagents' }).getByRole('listitem', { name: `Subagent ${name}: Done` });
      await reloaded.waitFor();
      assert.equal(await reloaded.locator('.subagent-elapsed').textContent(), elapsed, 'the same duration after a reload, not 0 s');
      await page.getByRole('article', { name: "Cove's reply" }).filter({ hasText: 'The subagent found three tests.' }).waitFor({ timeout: 20_000 });
      await e2e.screenshot('subagents-3-reloaded');
      assert.equal(existsSync(join(e2e.workspace, 'notes.md')), true);
    }));
});
