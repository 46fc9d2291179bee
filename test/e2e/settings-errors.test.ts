// Errors a person can act on, and Settings that are complete, in Chromium through `cove serve`:
// a refused key says so once and leads to Settings, where a key is checked before it is saved;
// Retry and Resume go on without sending the prompt twice; a lost server pauses Send; rules are
// added, checked as they are typed and edited, on disk; the model comes from the catalog.
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Browser, Page } from 'playwright-core';
import { holdFirst } from '../support/held-reply';
import { reply, type RecordedRequest } from '../support/model-server';
import { launchChromium, openApp, skipReason, startE2E, startSession, statusBadge, type E2E } from './support';
import { startServe } from './serve-process';

const skip = skipReason();
const GOOD_KEY = 'sk-ant-api03-good-key-for-the-scripted-server';
const CATALOG = {
  kind: 'list' as const,
  data: [
    { id: 'claude-sonnet-4-5', display_name: 'Claude Sonnet 4.5', max_input_tokens: 200_000, max_tokens: 64_000 },
    { id: 'claude-opus-4-1', display_name: 'Claude Opus 4.1', max_input_tokens: 200_000, max_tokens: 32_000 },
  ],
};

/** How many times `text` was sent as a text block in a request: a retried prompt must appear once. */
function timesSent(request: RecordedRequest, text: string): number {
  return request.body.messages
    .flatMap((message) => (typeof message.content === 'string' ? [message.content] : message.content.flatMap((part) => (part.type === 'text' ? [part.text] : []))))
    .filter((part) => part.includes(text)).length;
}

async function withFixture(name: string, e2e: Promise<E2E>, body: (e2e: E2E) => Promise<void>): Promise<void> {
  const fixture = await e2e;
  try {
    await openApp(fixture);
    await body(fixture);
  } catch (error) {
    await fixture.screenshot(`${name}-FAILED`).catch(() => undefined);
    throw error;
  } finally {
    await fixture.close();
  }
}

/** Polls what main wrote until it holds (main answers before the page redraws, or after). */
async function eventually(check: () => boolean, what: string): Promise<void> {
  const deadline = Date.now() + 10_000;
  while (!check()) {
    if (Date.now() > deadline) throw new Error(`never saw ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

const settingsDialog = (page: Page) => page.getByRole('dialog', { name: 'Settings' });

describe('errors a person can act on, and complete settings', { skip }, () => {
  let browser: Browser;
  before(async () => {
    browser = await launchChromium();
  });
  after(async () => {
    await browser?.close();
  });

  test('a refused key is named once and opens Settings; a wrong key is refused there and not saved; a good one is; Retry sends the prompt once', () => {
    const script = () => reply.text('Answered with the good key.');
    return withFixture('errors-key', startE2E(script, browser, [], {}, { validApiKeys: [GOOD_KEY], models: CATALOG }), async (e2e) => {
      const { page } = e2e;
      await startSession(e2e, 'Explain the build');
      const failure = page.getByRole('group', { name: 'The API key was refused' });
      await failure.waitFor();
      await failure.getByText('Check or replace it in Settings').waitFor();
      assert.equal(await page.getByText('invalid x-api-key').count(), 1, 'the refusal is shown once, not in the header too');
      await statusBadge(page.locator('header.session-header'), 'error').waitFor();
      await e2e.screenshot('errors-key-1-refused');

      await failure.getByRole('button', { name: 'Open Settings' }).click();
      const dialog = settingsDialog(page);
      await dialog.getByRole('textbox', { name: 'API key' }).fill('sk-ant-api03-wrong');
      await dialog.getByRole('button', { name: 'Check and save API key' }).click();
      await dialog.getByRole('alert').filter({ hasText: 'The API refused this key' }).waitFor();
      assert.equal(existsSync(join(e2e.home.path, 'api-key')), false, 'a refused key is not saved');

      await dialog.getByRole('textbox', { name: 'API key' }).fill(GOOD_KEY);
      await dialog.getByRole('button', { name: 'Check and save API key' }).click();
      await dialog.getByRole('status').filter({ hasText: 'An API key is stored in Cove.' }).waitFor();
      assert.equal(readFileSync(join(e2e.home.path, 'api-key'), 'utf8').trim(), GOOD_KEY);
      await dialog.getByRole('button', { name: 'Close' }).click();

      const before = e2e.model.requests.length;
      await failure.getByRole('button', { name: 'Retry' }).click();
      await page.getByRole('article', { name: "Cove's reply" }).filter({ hasText: 'Answered with the good key.' }).waitFor();
      const retried = e2e.model.requests.at(-1)!;
      assert.ok(e2e.model.requests.length > before);
      assert.equal(retried.apiKey, GOOD_KEY);
      assert.equal(timesSent(retried, 'Explain the build'), 1, 'Retry does not send the prompt a second time');
      assert.equal(await page.getByRole('article', { name: 'Your message' }).count(), 1, 'the transcript shows the prompt once');
      assert.equal(await page.getByRole('group', { name: 'The API key was refused' }).getByRole('button', { name: 'Retry' }).count(), 0, 'an old failure offers no Retry');
      await e2e.screenshot('errors-key-2-retried');
    });
  });

  test('no key at all: sending says to add one in Settings, and the notice opens it', () =>
    withFixture(
      'errors-no-key',
      startE2E(() => reply.text('unused'), browser, [], { ANTHROPIC_API_KEY: undefined }),
      async (e2e) => {
        const { page } = e2e;
        await startSession(e2e, 'Explain the build');
        const notice = page.getByRole('alert').filter({ hasText: 'No API key: add your Anthropic API key in Settings' });
        await notice.waitFor();
        await e2e.screenshot('errors-no-key');
        await notice.getByRole('button', { name: 'Open Settings' }).click();
        await settingsDialog(page).getByRole('status').filter({ hasText: 'No API key yet' }).waitFor();
        assert.equal(e2e.model.requests.length, 0, 'nothing was sent without a key');
      },
    ));

  test('a lost server shows a banner and pauses Send; an interrupted run explains itself and Resume goes on without the prompt sent twice', () => {
    const held = holdFirst(reply.text('never delivered: the server is killed first'), reply.text('Resumed and finished.'));
    return withFixture('errors-interrupted', startE2E(held.script, browser), async (e2e) => {
      const { page } = e2e;
      await startSession(e2e, 'Refactor the parser');
      await statusBadge(page.locator('header.session-header'), 'running').waitFor();
      await e2e.model.waitForRequests(1);
      await e2e.serve.stop('SIGKILL');

      await page.getByRole('alert').filter({ hasText: 'Lost the connection to Cove' }).waitFor();
      const composer = page.getByRole('textbox', { name: 'Message' });
      await composer.fill('kept while offline');
      assert.equal(await page.getByRole('button', { name: 'Send' }).isDisabled(), true, 'Send waits for the server');
      assert.equal(await page.getByRole('button', { name: 'Stop', exact: true }).isDisabled(), true, 'Stop waits for the server');
      await e2e.screenshot('errors-interrupted-1-offline');

      const restarted = await startServe(e2e.home, ['--port', String(e2e.serve.port), '--token', new URL(e2e.serve.url).searchParams.get('token')!]);
      try {
        const banner = page.getByRole('note', { name: 'Interrupted run' });
        await banner.waitFor();
        await banner.getByText('Cove quit while this session was running').waitFor();
        assert.equal(await composer.inputValue(), 'kept while offline', 'nothing typed is lost');
        await e2e.screenshot('errors-interrupted-2-banner');
        await banner.getByRole('button', { name: 'Resume' }).click();
        await page.getByRole('article', { name: "Cove's reply" }).filter({ hasText: 'Resumed and finished.' }).waitFor();
        assert.equal(timesSent(e2e.model.requests.at(-1)!, 'Refactor the parser'), 1, 'Resume does not send the prompt again');
        await banner.waitFor({ state: 'detached' });
      } finally {
        held.release();
        await restarted.stop();
      }
    });
  });

  test('rules are added and edited with their syntax checked as typed, on disk; the model is picked from the catalog', () =>
    withFixture(
      'settings-rules',
      startE2E(() => reply.text('ok'), browser, [], {}, { models: CATALOG }),
      async (e2e) => {
        const { page } = e2e;
        await startSession(e2e, '');
        await page.getByRole('button', { name: 'Settings' }).click();
        const dialog = settingsDialog(page);
        // The catalog arrives after the dialog opens and adds the model list above the rules:
        // wait for it, so the click below does not land where the button was before the list.
        await dialog.getByRole('combobox', { name: 'Model' }).locator('option', { hasText: 'Claude Opus 4.1' }).waitFor({ state: 'attached' });
        await dialog.getByRole('button', { name: 'Add a rule' }).click();
        const form = dialog.getByRole('form', { name: 'Add a rule' });
        const rule = form.getByRole('textbox', { name: 'Rule' });
        await rule.fill('bash(npm test');
        await form.getByRole('status').filter({ hasText: 'unbalanced parentheses' }).waitFor();
        assert.equal(await form.getByRole('button', { name: 'Add rule' }).isDisabled(), true, 'an invalid rule cannot be saved');
        await rule.fill('Bash(npm test)');
        await form.getByRole('status').filter({ hasText: 'bash' }).waitFor();
        await rule.fill('bash(npm test)');
        await form.getByRole('status').filter({ hasText: '✓ bash(npm test)' }).waitFor();
        await form.getByRole('combobox', { name: 'List' }).selectOption('ask');
        await form.getByRole('button', { name: 'Add rule' }).click();
        const local = join(e2e.workspace, '.cove', 'settings.local.json');
        await dialog
          .getByRole('list', { name: `ask rules in ${local}` })
          .getByText('bash(npm test)')
          .waitFor();
        assert.deepEqual(JSON.parse(readFileSync(local, 'utf8')).permissions.ask, ['bash(npm test)']);
        await e2e.screenshot('settings-rules-1-added');

        await dialog.getByRole('button', { name: 'Edit ask rule bash(npm test)' }).click();
        const edit = dialog.getByRole('form', { name: 'Edit rule bash(npm test)' });
        await edit.getByRole('textbox', { name: 'Rule' }).fill('bash(npm run test:*)');
        await edit.getByRole('status').filter({ hasText: '✓ bash(npm run test:*)' }).waitFor();
        await edit.getByRole('button', { name: 'Save rule' }).click();
        await dialog
          .getByRole('list', { name: `ask rules in ${local}` })
          .getByText('bash(npm run test:*)')
          .waitFor();
        assert.deepEqual(JSON.parse(readFileSync(local, 'utf8')).permissions.ask, ['bash(npm run test:*)']);

        await dialog.getByRole('button', { name: 'Add a rule' }).click();
        const userForm = dialog.getByRole('form', { name: 'Add a rule' });
        await userForm.getByRole('textbox', { name: 'Rule' }).fill('read_file');
        await userForm.getByRole('combobox', { name: 'Settings file' }).selectOption('user');
        await userForm.getByRole('status').filter({ hasText: '✓ read_file' }).waitFor();
        await userForm.getByRole('button', { name: 'Add rule' }).click();
        const user = join(e2e.home.path, 'settings.json');
        await dialog
          .getByRole('list', { name: `allow rules in ${user}` })
          .getByText('read_file')
          .waitFor();
        assert.deepEqual(JSON.parse(readFileSync(user, 'utf8')).permissions.allow, ['read_file']);

        const model = dialog.getByRole('combobox', { name: 'Model' });
        await model.locator('option', { hasText: 'Claude Opus 4.1' }).waitFor({ state: 'attached' });
        await model.selectOption('claude-opus-4-1');
        await dialog.getByRole('button', { name: 'Save settings' }).click();
        const saved = page.getByText('Settings saved. New runs use them.');
        await saved.waitFor();
        // The toast is drawn over the dialog, not under its backdrop: it is what the point hits.
        assert.equal(
          await saved.evaluate((toast) => {
            const box = toast.getBoundingClientRect();
            return toast.contains(document.elementFromPoint(box.left + box.width / 2, box.top + box.height / 2));
          }),
          true,
          'the confirmation is on top while Settings is open',
        );
        await model.selectOption({ label: 'Another model id…' });
        await dialog.getByRole('textbox', { name: 'Model id' }).fill('my-gateway-model');
        await dialog.getByRole('button', { name: 'Save settings' }).click();
        await eventually(() => JSON.parse(readFileSync(user, 'utf8')).model === 'my-gateway-model', 'the typed model id in settings.json');
        await e2e.screenshot('settings-rules-2-model');
        await dialog.getByRole('button', { name: 'Close' }).click();
        await page.getByRole('button', { name: 'Settings', exact: true }).click();
        await settingsDialog(page).getByRole('textbox', { name: 'Model id' }).waitFor();
        assert.equal(await settingsDialog(page).getByRole('textbox', { name: 'Model id' }).inputValue(), 'my-gateway-model');
      },
    ));
});
