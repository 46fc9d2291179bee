// What the desktop additions look like in the browser host, in Chromium through `cove serve`:
// no Reveal button (a browser tab has no file manager to open, and main answers it cannot), and
// Settings says where a stored key is kept (a 0600 file, the way `cove serve` keeps it).
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { statSync } from 'node:fs';
import { join } from 'node:path';
import type { Browser } from 'playwright-core';
import { modelScript } from './model-script';
import { launchChromium, skipReason, startSession, withApp } from './support';

const skip = skipReason();

describe('desktop additions in the browser host', { skip }, () => {
  let browser: Browser;
  before(async () => {
    browser = await launchChromium();
  });
  after(async () => {
    await browser?.close();
  });

  test('no Reveal button beside the folders, and Settings says the stored key is in an owner-only file', () =>
    withApp(browser, 'host-differences', modelScript, async (e2e) => {
      const { page } = e2e;
      await startSession(e2e, '');
      const folders = page.getByRole('list', { name: 'Workspace folders' });
      await folders.getByRole('listitem').first().waitFor();
      assert.equal(await folders.getByRole('button').count(), 0, 'no file manager to show folders in');

      await page.getByRole('button', { name: 'Settings' }).click();
      const dialog = page.getByRole('dialog', { name: 'Settings' });
      await dialog.getByRole('textbox', { name: 'API key' }).fill('sk-ant-e2e-stored');
      // The scripted server has no Models API, so the key cannot be checked and is saved on the person's word.
      await dialog.getByRole('button', { name: 'Check and save API key' }).click();
      await dialog.getByRole('alert').filter({ hasText: 'has no Models API to check the key with' }).waitFor();
      await dialog.getByRole('button', { name: 'Save without checking' }).click();
      const file = join(e2e.home.path, 'api-key');
      await dialog.getByText(`It is kept unencrypted in ${file}, readable only by you.`).waitFor();
      assert.equal(statSync(file).mode & 0o777, 0o600);
      assert.equal(await dialog.getByRole('checkbox').count(), 0, 'no consent asked where no keychain was ever offered');
    }));
});
