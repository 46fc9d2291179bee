// The model provider fails in the browser: the session shows the error and a Retry button, the
// retry works once the provider is back, and what the person was typing is never lost.
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import type { Browser } from 'playwright-core';
import { reply, type RecordedRequest } from '../support/model-server';
import { launchChromium, skipReason, startSession, statusBadge, withApp } from './support';

const skip = skipReason();

describe('provider errors in the browser', { skip }, () => {
  let browser: Browser;
  before(async () => {
    browser = await launchChromium();
  });
  after(async () => {
    await browser?.close();
  });

  test('an unreachable provider shows the error and Retry; the draft survives; Retry works once it is back', () => {
    let available = false;
    const script = (_request: RecordedRequest) => (available ? reply.text('Back online and answering.') : reply.error(503, 'api_error', 'upstream is down'));
    return withApp(browser, 'provider-errors', script, async (e2e) => {
      const { page } = e2e;
      await startSession(e2e, 'Summarize the repository');
      const failure = page.getByRole('group', { name: 'The run failed' });
      await failure.filter({ hasText: '503 api_error: upstream is down' }).waitFor();
      await statusBadge(page.locator('header.session-header'), 'error').waitFor();
      // Every attempt was made: the first and the default three retries.
      assert.equal(e2e.model.requests.length, 4);
      await page.getByRole('note').filter({ hasText: 'Retrying' }).first().waitFor();

      const composer = page.getByRole('textbox', { name: 'Message' });
      await composer.fill('a follow-up I am still writing');
      await e2e.screenshot('provider-errors-1-failed');

      available = true;
      await failure.getByRole('button', { name: 'Retry' }).click();
      await page.getByRole('article', { name: "Cove's reply" }).filter({ hasText: 'Back online and answering.' }).waitFor();
      await statusBadge(page.locator('header.session-header'), 'done').waitFor();
      assert.equal(await composer.inputValue(), 'a follow-up I am still writing', 'nothing typed is lost');
      const sent = JSON.stringify(e2e.model.requests.at(-1)!.body.messages);
      assert.equal(sent.split('Summarize the repository').length - 1, 1, 'Retry sends the prompt once, not a second copy of it');
      assert.equal(await page.getByRole('article', { name: 'Your message' }).count(), 1, 'the transcript shows the prompt once');
      await e2e.screenshot('provider-errors-2-retried');
    });
  });
});
