// Tool cards in Chromium: a bash call's live progress bar and elapsed time while it runs, its
// output and exit code after, and the card redrawn from the store after a reload.
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import type { Browser } from 'playwright-core';
import { modelScript, PROMPTS, SLOW_COMMAND } from './model-script';
import { launchChromium, skipReason, startSession, withApp } from './support';

const skip = skipReason();

describe('tool cards in the browser', { skip }, () => {
  let browser: Browser;

  before(async () => {
    browser = await launchChromium();
  });
  after(async () => {
    await browser?.close();
  });

  test('a bash call shows a progress bar while it runs, then its output and exit code; a reload keeps the card', () =>
    withApp(browser, 'tools-bash', modelScript, async (e2e) => {
      const { page } = e2e;
      // Start without a prompt, so the session can be set to never ask before the run starts.
      await startSession(e2e, '');
      await page.getByRole('combobox', { name: /^Permission mode/ }).selectOption({ label: 'Bypass (never ask)' });
      await e2e.waitForSessions((sessions) => sessions[0]?.permissionMode === 'bypass', 'the session in bypass mode');
      await page.getByRole('textbox', { name: 'Message' }).fill(PROMPTS.bash);
      await page.getByRole('button', { name: 'Send' }).click();

      const card = page.getByRole('article', { name: /^bash tool: / });
      const progress = card.getByRole('progressbar', { name: 'bash progress' });
      await progress.waitFor();
      await page.getByRole('article', { name: 'bash tool: Running' }).waitFor();
      assert.match((await progress.getAttribute('aria-valuetext')) ?? '', /^running for /);
      await card.getByText('tick 1').waitFor();
      await e2e.screenshot('tools-1-bash-running');

      await page.getByRole('article', { name: 'bash tool: Done' }).waitFor({ timeout: 20_000 });
      await progress.waitFor({ state: 'detached' });
      await card.getByText('exit 0', { exact: true }).waitFor();
      await card.getByText('tick 6').waitFor();
      assert.equal(await card.locator('code.tool-summary').textContent(), SLOW_COMMAND);
      // The title is the label the bash declaration sent with toolExecutionStart.
      assert.equal(await card.locator('.tool-name').textContent(), 'Run Command');
      await page.getByRole('article', { name: "Cove's reply" }).filter({ hasText: 'The counter reached 6.' }).waitFor();
      await e2e.screenshot('tools-2-bash-done');

      await page.reload();
      await page
        .getByRole('list', { name: 'Session list' })
        .getByRole('button', { name: new RegExp(`^${PROMPTS.bash}`) })
        .click();
      const redrawn = page.getByRole('article', { name: 'bash tool: Done' });
      await redrawn.getByText('exit 0', { exact: true }).waitFor();
      await redrawn.getByText('tick 6').waitFor();
      assert.equal(await redrawn.locator('.tool-name').textContent(), 'Run Command', 'the stored event keeps the label');
      await page.getByRole('article', { name: 'Your message' }).filter({ hasText: PROMPTS.bash }).waitFor();
      await e2e.screenshot('tools-3-after-reload');
    }));
});
