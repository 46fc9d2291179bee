// `cove serve --host 0.0.0.0` opened from another address of this machine, as a person on the
// network would: the Host and Origin checks and the page's CSP must let its own page connect.
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { networkInterfaces } from 'node:os';
import type { Browser } from 'playwright-core';
import { modelScript, PROMPTS } from './model-script';
import { launchChromium, skipReason, startE2E, startSession } from './support';

const outside = Object.values(networkInterfaces())
  .flat()
  .find((address) => address && address.family === 'IPv4' && !address.internal)?.address;
const skip = skipReason() || (outside ? false : 'this machine has no non-loopback IPv4 address');

describe('cove serve on the network', { skip }, () => {
  let browser: Browser;

  before(async () => {
    browser = await launchChromium();
  });
  after(async () => {
    await browser?.close();
  });

  test('a page opened at the machine address connects and runs a session', async () => {
    const e2e = await startE2E(modelScript, browser, ['--host', '0.0.0.0']);
    const { page, serve } = e2e;
    try {
      await serve.waitForStderr(/warning: listening on every network interface/);
      await page.goto(`http://${outside}:${serve.port}/?token=${serve.token}`);
      await startSession(e2e, PROMPTS.hello);
      await page.getByRole('region', { name: 'Transcript' }).getByRole('note', { name: 'Done' }).waitFor();
      assert.deepEqual(e2e.problems, []);
      await e2e.screenshot('network-1-remote-address');
    } catch (error) {
      await e2e.screenshot('network-FAILED').catch(() => undefined);
      throw error;
    } finally {
      await e2e.close();
    }
  });
});
