// Permission prompts in Chromium: approve a write with a click and see its diff, deny one and
// see the denial, and a second session running while the first waits for an answer.
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Browser } from 'playwright-core';
import { modelScript, PROMPTS, WRITTEN } from './model-script';
import { launchChromium, skipReason, startSession, statusBadge, withApp } from './support';

const skip = skipReason();

describe('permission prompts in the browser', { skip }, () => {
  let browser: Browser;

  before(async () => {
    browser = await launchChromium();
  });
  after(async () => {
    await browser?.close();
  });

  test('approving a write with a click writes the file and the tool card shows its diff', () =>
    withApp(browser, 'permissions-allow', modelScript, async (e2e) => {
      const { page } = e2e;
      await startSession(e2e, PROMPTS.write);
      const card = page.getByRole('article', { name: 'Permission request: write_file' });
      await card.getByRole('button', { name: 'Allow once' }).waitFor();
      assert.match((await card.textContent()) ?? '', /hello\.txt/);
      // The prompt's title and summary are the write_file declaration's label and summary.
      assert.equal(await card.locator('.permission-header strong').textContent(), 'Allow Write file?');
      assert.equal(await card.locator('.permission-summary').textContent(), 'hello.txt');
      await statusBadge(page.locator('header.session-header'), 'waiting').waitFor();
      assert.equal(existsSync(join(e2e.workspace, 'hello.txt')), false, 'nothing is written before the answer');
      await e2e.screenshot('permissions-1-asking');

      await card.getByRole('button', { name: 'Allow once' }).click();
      await card.getByRole('status').filter({ hasText: 'Allowed once' }).waitFor();
      const tool = page.getByRole('article', { name: 'write_file tool: Done' });
      await tool.getByLabel('Diff: 1 lines added, 0 removed').waitFor();
      await tool.getByText('+Hello from Cove').waitFor();
      await page.getByRole('article', { name: "Cove's reply" }).filter({ hasText: 'Wrote hello.txt.' }).waitFor();
      assert.equal(readFileSync(join(e2e.workspace, 'hello.txt'), 'utf8'), WRITTEN);
      await e2e.screenshot('permissions-2-allowed');

      await page.reload();
      await page
        .getByRole('list', { name: 'Session list' })
        .getByRole('button', { name: new RegExp(`^${PROMPTS.write}`) })
        .click();
      await page.getByRole('article', { name: 'write_file tool: Done' }).getByLabel('Diff: 1 lines added, 0 removed').waitFor();
      await page.getByRole('article', { name: 'Permission request: write_file' }).getByRole('status').filter({ hasText: 'Allowed once' }).waitFor();
      await e2e.screenshot('permissions-3-after-reload');
    }));

  test('denying a call leaves the file alone and the tool card says it was denied', () =>
    withApp(browser, 'permissions-deny', modelScript, async (e2e) => {
      const { page } = e2e;
      await startSession(e2e, PROMPTS.deny);
      const card = page.getByRole('article', { name: 'Permission request: write_file' });
      await card.getByRole('button', { name: 'Deny' }).click();
      await card.getByRole('status').filter({ hasText: 'Denied' }).waitFor();
      const tool = page.getByRole('article', { name: 'write_file tool: Denied' });
      await tool.getByRole('note').filter({ hasText: 'Denied:' }).waitFor();
      await page.getByRole('article', { name: "Cove's reply" }).filter({ hasText: 'I left notes.txt alone' }).waitFor();
      assert.equal(existsSync(join(e2e.workspace, 'notes.txt')), false);
      const denial = JSON.stringify(e2e.model.requests.at(-1)!.body.messages.at(-1));
      assert.match(denial, /tool_result/);
      assert.match(denial, /denied/i);
      assert.equal(denial.match(/the person denied it/g)?.length, 1, 'the model reads the denial once, not doubled');
      await e2e.screenshot('permissions-4-denied');
    }));

  test('while one session waits for an answer, another runs, the wait is visible from it, and Y answers it', () =>
    withApp(browser, 'permissions-two-sessions', modelScript, async (e2e) => {
      const { page } = e2e;
      await startSession(e2e, PROMPTS.write);
      await page.getByRole('article', { name: 'Permission request: write_file' }).waitFor();

      await startSession(e2e, PROMPTS.hang);
      await statusBadge(page.locator('header.session-header'), 'running').waitFor();
      const banner = page.getByRole('status').filter({ hasText: `“${PROMPTS.write}” is waiting for you` });
      await banner.waitFor();
      const waitingRow = page.getByRole('list', { name: 'Session list' }).getByRole('listitem').filter({ hasText: PROMPTS.write });
      await statusBadge(waitingRow, 'waiting').waitFor();
      await waitingRow.getByText('1 prompt waiting').waitFor();
      await e2e.screenshot('permissions-5-waiting-elsewhere');

      await banner.getByRole('button', { name: `Go to “${PROMPTS.write}”` }).click();
      // This time by keyboard: Y on the focused card allows once.
      const card = page.getByRole('article', { name: 'Permission request: write_file' });
      await card.focus();
      await page.keyboard.press('y');
      await card.getByRole('status').filter({ hasText: 'Allowed once' }).waitFor();
      await page.getByRole('article', { name: 'write_file tool: Done' }).waitFor();
      await banner.waitFor({ state: 'detached' });
      await statusBadge(waitingRow, 'done').waitFor();
      const running = page.getByRole('list', { name: 'Session list' }).getByRole('listitem').filter({ hasText: PROMPTS.hang });
      await statusBadge(running, 'running').waitFor();
      await e2e.screenshot('permissions-6-answered');
    }));
});
