// Events with identity, in Chromium through `cove serve`: while a run is in progress and has been
// steered, a reload and a second tab redraw the session exactly as the first tab shows it, and a
// steering message sent from one tab appears in the other. Every row comes from numbered events
// (userMessage included), so what loaded and what streamed in never doubles or goes missing.
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import type { Browser, Page } from 'playwright-core';
import { modelScript, PROMPTS } from './model-script';
import { launchChromium, skipReason, startSession, statusBadge, withApp } from './support';

const skip = skipReason();

const transcriptOf = (page: Page) => page.getByRole('region', { name: 'Transcript' });
const sessionHeader = (page: Page) => page.locator('header.session-header');

/** Each row of the transcript as its accessible name and text: what a person sees, in order. */
function rows(page: Page): Promise<string[]> {
  return transcriptOf(page)
    .locator('article, [role="note"]')
    .evaluateAll((nodes) => nodes.map((node) => `${node.getAttribute('aria-label')}: ${(node.textContent ?? '').replace(/\s+/g, ' ').trim()}`));
}

async function steer(page: Page, text: string): Promise<void> {
  await page.getByRole('textbox', { name: 'Message' }).fill(text);
  await page.getByRole('button', { name: 'Send' }).click();
  await transcriptOf(page).getByRole('article', { name: 'Your message' }).filter({ hasText: text }).waitFor();
}

async function openSession(page: Page, title: string): Promise<void> {
  await page
    .getByRole('list', { name: 'Session list' })
    .getByRole('listitem')
    .filter({ hasText: title })
    .getByRole('button', { name: new RegExp(`^${title}`) })
    .click();
  await transcriptOf(page).getByRole('article', { name: 'Your message' }).first().waitFor();
}

describe('a session redrawn exactly, steering included', { skip }, () => {
  let browser: Browser;

  before(async () => {
    browser = await launchChromium();
  });
  after(async () => {
    await browser?.close();
  });

  test('a reload and a second tab show what the first tab shows while the run is going', () =>
    withApp(browser, 'event-identity', modelScript, async (e2e) => {
      const { page } = e2e;
      await startSession(e2e, PROMPTS.hang);
      await statusBadge(sessionHeader(page), 'running').waitFor();
      await transcriptOf(page).getByRole('article', { name: "Cove's reply" }).filter({ hasText: 'Let me thin' }).waitFor();
      await steer(page, 'Also look at the docs folder');
      const first = await rows(page);
      const prompts = first.filter((row) => row.startsWith('Your message'));
      assert.equal(prompts.length, 2, prompts.join('\n'));
      assert.match(prompts[0]!, new RegExp(PROMPTS.hang));
      assert.match(prompts[1]!, /sent to the running agent, not read yet.*Also look at the docs folder/);

      const second = await e2e.context.newPage();
      await second.goto(e2e.serve.url);
      await openSession(second, PROMPTS.hang);
      await transcriptOf(second).getByRole('article', { name: 'Your message' }).filter({ hasText: 'Also look at the docs folder' }).waitFor();
      assert.deepEqual(await rows(second), first, 'a second tab draws the same rows');

      await page.reload();
      await openSession(page, PROMPTS.hang);
      await transcriptOf(page).getByRole('article', { name: 'Your message' }).filter({ hasText: 'Also look at the docs folder' }).waitFor();
      assert.deepEqual(await rows(page), first, 'a reload draws the same rows');
      await statusBadge(sessionHeader(page), 'running').waitFor();

      // Steering from the second tab reaches the first live, once.
      await steer(second, 'And the tests');
      await transcriptOf(page).getByRole('article', { name: 'Your message' }).filter({ hasText: 'And the tests' }).waitFor();
      assert.deepEqual(await rows(page), await rows(second));
      assert.equal((await rows(page)).filter((row) => row.includes('And the tests')).length, 1);
      await e2e.screenshot('event-identity-steered');

      await page.getByRole('button', { name: 'Stop', exact: true }).click();
      await transcriptOf(second).getByRole('note', { name: 'Stopped' }).waitFor();
      await transcriptOf(page).getByRole('note', { name: 'Stopped' }).waitFor();
      // Stop means stop: the two notes the run never read say so, and start no run of their own.
      await transcriptOf(page).locator('[data-steering="stopped"]').nth(1).waitFor();
      assert.equal(await transcriptOf(page).getByText('not read: the run was stopped first').count(), 2);
      await second.reload();
      await openSession(second, PROMPTS.hang);
      await transcriptOf(second).getByRole('note', { name: 'Stopped' }).waitFor();
      assert.deepEqual(await rows(second), await rows(page), 'after the run, a reload still draws the same rows');
      await second.close();
    }));
});
