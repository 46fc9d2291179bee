// The app in Chromium through `cove serve`: start a session in a typed folder, watch the reply,
// stop a run, reload and find everything, and the token refused.
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import type { Browser, Page } from 'playwright-core';
import { modelScript, PROMPTS } from './model-script';
import { launchChromium, skipReason, startSession, statusBadge, withApp } from './support';

const skip = skipReason();

const sessionHeader = (page: Page) => page.locator('header.session-header');
const sessionRow = (page: Page, title: string) => page.getByRole('list', { name: 'Session list' }).getByRole('listitem').filter({ hasText: title });

describe('sessions in the browser', { skip }, () => {
  let browser: Browser;

  before(async () => {
    browser = await launchChromium();
  });
  after(async () => {
    await browser?.close();
  });

  test('adds a typed workspace, sends a prompt and shows the streamed reply', () =>
    withApp(browser, 'sessions-reply', modelScript, async (e2e) => {
      const { page } = e2e;
      await page.getByText('No sessions yet').waitFor();
      await page.getByRole('combobox', { name: 'Project folder' }).fill(`${e2e.workspace}/nope`);
      await page.getByRole('button', { name: 'Check folder' }).click();
      await page.getByRole('alert').filter({ hasText: 'does not exist' }).waitFor();
      await e2e.screenshot('sessions-1-bad-folder');

      await startSession(e2e, PROMPTS.hello);
      const transcript = page.getByRole('region', { name: 'Transcript' });
      await transcript.getByRole('article', { name: 'Your message' }).filter({ hasText: PROMPTS.hello }).waitFor();
      const answer = transcript.getByRole('article', { name: "Cove's reply" });
      await answer.filter({ hasText: 'Hello! I looked around this folder.' }).waitFor();
      assert.equal(await answer.locator('strong').first().textContent(), 'this', 'markdown is rendered');
      await transcript.getByRole('note', { name: 'Done' }).waitFor();
      await statusBadge(sessionRow(page, PROMPTS.hello), 'done').waitFor();
      await statusBadge(sessionHeader(page), 'done').waitFor();
      assert.match((await sessionRow(page, PROMPTS.hello).textContent()) ?? '', new RegExp(e2e.workspace.split('/').at(-1)!));
      await e2e.screenshot('sessions-2-reply');
      assert.match(JSON.stringify(e2e.model.requests.at(-1)!.body.messages), new RegExp(PROMPTS.hello));
    }));

  test('stops a run that hangs: Stop, then the session shows it was aborted', () =>
    withApp(browser, 'sessions-stop', modelScript, async (e2e) => {
      const { page } = e2e;
      await startSession(e2e, PROMPTS.hang);
      await e2e.model.waitForRequests(1);
      await statusBadge(sessionHeader(page), 'running').waitFor();
      await page.getByRole('article', { name: "Cove's reply" }).filter({ hasText: 'Let me thin' }).waitFor();
      await e2e.screenshot('sessions-3-running');
      await page.getByRole('button', { name: 'Stop', exact: true }).click();
      await statusBadge(sessionHeader(page), 'aborted').waitFor();
      await page.getByRole('region', { name: 'Transcript' }).getByRole('note', { name: 'Stopped' }).waitFor();
      await page.getByRole('button', { name: 'Stop', exact: true }).waitFor({ state: 'detached' });
      await e2e.model.waitForDisconnect(0);
      await e2e.screenshot('sessions-4-aborted');
    }));

  test('a reload finds the sessions, the transcript and its end again', () =>
    withApp(browser, 'sessions-reload', modelScript, async (e2e) => {
      const { page } = e2e;
      await startSession(e2e, PROMPTS.hello);
      await page.getByRole('region', { name: 'Transcript' }).getByRole('note', { name: 'Done' }).waitFor();
      await startSession(e2e, PROMPTS.hang);
      await statusBadge(sessionHeader(page), 'running').waitFor();
      await page.getByRole('button', { name: 'Stop', exact: true }).click();
      await statusBadge(sessionHeader(page), 'aborted').waitFor();

      await page.reload();
      await statusBadge(sessionRow(page, PROMPTS.hello), 'done').waitFor();
      await statusBadge(sessionRow(page, PROMPTS.hang), 'aborted').waitFor();
      assert.equal(await page.getByRole('list', { name: 'Session list' }).getByRole('listitem').count(), 2);
      assert.doesNotMatch(page.url(), /token=/, 'the token is kept out of the address bar');

      await sessionRow(page, PROMPTS.hello)
        .getByRole('button', { name: new RegExp(`^${PROMPTS.hello}`) })
        .click();
      const transcript = page.getByRole('region', { name: 'Transcript' });
      await transcript.getByRole('article', { name: 'Your message' }).filter({ hasText: PROMPTS.hello }).waitFor();
      await transcript.getByRole('article', { name: "Cove's reply" }).filter({ hasText: 'Hello! I looked around this folder.' }).waitFor();
      await transcript.getByRole('note', { name: 'Done' }).waitFor();
      await e2e.screenshot('sessions-5-after-reload');
    }));

  test('a wrong token is refused with 401, and no cookie is handed out', () =>
    withApp(browser, 'sessions-token', modelScript, async (e2e) => {
      const stranger = await browser.newContext();
      try {
        const tab = await stranger.newPage();
        const response = await tab.goto(`http://127.0.0.1:${e2e.serve.port}/?token=not-the-token-0123456789`);
        assert.equal(response?.status(), 401);
        await tab.getByText('401 Unauthorized').waitFor();
        assert.deepEqual(await stranger.cookies(), []);
        const bare = await tab.goto(`http://127.0.0.1:${e2e.serve.port}/`);
        assert.equal(bare?.status(), 401);
        await tab.screenshot({ path: '/tmp/cove-e2e/sessions-6-unauthorized.png' });
      } finally {
        await stranger.close();
      }
      // The person with the right link still has a working app.
      assert.equal((await e2e.context.cookies()).length, 1);
      await e2e.page.getByRole('button', { name: 'New session' }).waitFor();
    }));
});
