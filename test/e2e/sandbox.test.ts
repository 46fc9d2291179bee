// No bash sandbox in the browser host: the window says so in a banner, and a bash call that an
// allow rule covers still asks, naming the reason; allowing it runs the command.
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Browser } from 'playwright-core';
import { block, reply, type RecordedRequest } from '../support/model-server';
import { launchChromium, openApp, skipReason, startE2E, startSession } from './support';

const skip = skipReason();

function script(request: RecordedRequest) {
  const answered = JSON.stringify(request.body.messages).includes('tool_result');
  return answered ? reply.text('Touched the marker.') : reply.message([block.toolUse('bash', { command: 'touch marker' })]);
}

describe('no bash sandbox in the browser', { skip }, () => {
  let browser: Browser;
  before(async () => {
    browser = await launchChromium();
  });
  after(async () => {
    await browser?.close();
  });

  test('a banner says why, and an allowed bash call asks first', async () => {
    const e2e = await startE2E(script, browser, [], { COVE_BWRAP: '/nonexistent/bwrap' });
    try {
      writeFileSync(join(e2e.home.path, 'settings.json'), JSON.stringify({ permissions: { allow: ['bash'] } }));
      await openApp(e2e);
      const banner = e2e.page.getByRole('alert').filter({ hasText: 'No OS sandbox can run for bash' });
      await banner.waitFor();
      assert.match((await banner.textContent()) ?? '', /COVE_BWRAP=\/nonexistent\/bwrap is not an executable file/);
      await startSession(e2e, 'Touch the marker');
      const card = e2e.page.getByRole('article', { name: 'Permission request: bash' });
      await card.getByText(/no OS sandbox can run here/).waitFor();
      assert.equal(existsSync(join(e2e.workspace, 'marker')), false, 'nothing runs before the answer');
      await e2e.screenshot('sandbox-unavailable-asking');
      await card.getByRole('button', { name: 'Allow once' }).click();
      await e2e.page.getByRole('article', { name: "Cove's reply" }).filter({ hasText: 'Touched the marker.' }).waitFor();
      assert.equal(existsSync(join(e2e.workspace, 'marker')), true);
      await banner.getByRole('button', { name: 'Dismiss' }).click();
      await banner.waitFor({ state: 'detached' });
      assert.deepEqual(e2e.problems, []);
    } catch (error) {
      await e2e.screenshot('sandbox-unavailable-FAILED').catch(() => undefined);
      throw error;
    } finally {
      await e2e.close();
    }
  });
});
