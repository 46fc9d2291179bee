// Review in Chromium (issue 13): a bash prompt marks what its command deletes, writes and reaches;
// the review pane switches between unified and side-by-side (and remembers it), reverts one hunk
// on disk, and sends comments on two lines to the agent as one prompt the model server receives.
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Browser } from 'playwright-core';
import type { RecordedRequest } from '../support/model-server';
import { block, reply, type Reply } from '../support/model-server';
import { launchChromium, skipReason, startSession, statusBadge, withApp } from './support';

const skip = skipReason();
const LINES = Array.from({ length: 24 }, (_, index) => `line ${index + 1}`);
const ORIGINAL = `${LINES.join('\n')}\n`;
const COMMAND = 'rm victim.txt && curl -s https://example.com > page.html';
const PROMPTS = { bash: 'Clean up the folder', edit: 'Edit app.ts in two places' } as const;

function script(request: RecordedRequest): Reply {
  const messages = request.body.messages;
  const text = JSON.stringify(messages);
  const first = JSON.stringify(messages[0]?.content ?? '');
  const last = JSON.stringify(messages.at(-1)?.content ?? '');
  const results = (text.match(/tool_result/g) ?? []).length;
  if (last.includes('Review comments:')) return reply.text('Thanks, I will look at both lines.');
  if (first.includes(PROMPTS.bash)) return results === 0 ? reply.message([block.toolUse('bash', { command: COMMAND })]) : reply.text('Left it alone.');
  if (first.includes(PROMPTS.edit)) {
    if (results === 0) return reply.message([block.toolUse('edit_file', { path: 'app.ts', old_text: 'line 2\n', new_text: 'line two\n' })]);
    if (results === 1) return reply.message([block.toolUse('edit_file', { path: 'app.ts', old_text: 'line 20\n', new_text: 'line twenty\n' })]);
    return reply.text('Edited app.ts.');
  }
  throw new Error(`no reply for ${last.slice(0, 80)}`);
}

describe('review', { skip }, () => {
  let browser: Browser;
  before(async () => {
    browser = await launchChromium();
  });
  after(async () => {
    await browser?.close();
  });

  test('a bash prompt marks what the command deletes, writes and reaches, each in words', () =>
    withApp(browser, 'review-bash-marks', script, async (e2e) => {
      const { page } = e2e;
      writeFileSync(join(e2e.workspace, 'victim.txt'), 'keep me\n');
      await startSession(e2e, PROMPTS.bash);
      const card = page.getByRole('article', { name: 'Permission request: bash' });
      const legend = card.getByRole('list', { name: 'Risky parts of this command' });
      await legend.waitFor();
      const entries = await legend.getByRole('listitem').allTextContents();
      assert.ok(
        entries.some((entry) => /^Deletes victim\.txt: deletes victim\.txt \(rm\)/.test(entry)),
        entries.join('\n'),
      );
      assert.ok(
        entries.some((entry) => /^Network curl: curl reaches the network/.test(entry)),
        entries.join('\n'),
      );
      assert.ok(
        entries.some((entry) => /^Writes page\.html: writes page\.html \(a redirection with >\)/.test(entry)),
        entries.join('\n'),
      );
      const command = card.getByLabel('The command, with its risky parts marked');
      assert.equal((await command.locator('mark').allTextContents()).join('|'), 'victim.txt|curl|page.html');
      assert.match((await command.textContent()) ?? '', /rm victim\.txt1 && curl2 -s https:\/\/example\.com > page\.html3/);
      await e2e.screenshot('review-1-bash-marks');
      await page.setViewportSize({ width: 900, height: 700 });
      await page.emulateMedia({ colorScheme: 'dark' });
      await command.scrollIntoViewIfNeeded();
      await page.screenshot({ path: '/tmp/cove-e2e/review-1-bash-marks-900-dark.png' });
      await card.getByRole('button', { name: 'Deny' }).click();
      await card.getByRole('status').filter({ hasText: 'Denied' }).waitFor();
      assert.ok(existsSync(join(e2e.workspace, 'victim.txt')));
    }));

  test('the review pane toggles side by side and remembers it, reverts one hunk, and sends line comments as one prompt', () =>
    withApp(browser, 'review-pane', script, async (e2e) => {
      const { page } = e2e;
      const file = join(e2e.workspace, 'app.ts');
      writeFileSync(file, ORIGINAL);
      await startSession(e2e, PROMPTS.edit);
      for (let call = 0; call < 2; call++) {
        await page.getByRole('article', { name: 'Permission request: edit_file' }).getByRole('button', { name: 'Allow once' }).last().click();
        await page.getByRole('article', { name: 'Permission request: edit_file' }).nth(call).getByRole('status').waitFor();
      }
      await page.getByRole('article', { name: "Cove's reply" }).filter({ hasText: 'Edited app.ts.' }).waitFor();
      await statusBadge(page.locator('header.session-header'), 'done').waitFor();
      const edited = ORIGINAL.replace('line 2\n', 'line two\n').replace('line 20\n', 'line twenty\n');
      assert.equal(readFileSync(file, 'utf8'), edited);

      await page.getByRole('button', { name: 'Review changes' }).click();
      const review = page.getByRole('dialog', { name: 'Changes in this session' });
      const item = review.getByRole('region', { name: 'Prompt 1' }).getByRole('listitem', { name: 'Modified app.ts' });
      await item.getByRole('region', { name: 'Hunk 2 of app.ts' }).waitFor();
      assert.equal(await item.locator('table.review-unified').count(), 2);
      await review.getByRole('button', { name: 'Side by side' }).click();
      assert.equal(await item.locator('table.review-split').count(), 2);
      // Side by side: the removed line and the added one that replaces it share a row.
      const row = item.locator('tr.review-row').filter({ hasText: 'line twenty' });
      assert.match((await row.textContent()) ?? '', /^2−line 22\+line two$|^20−line 2020\+line twenty$/);
      // Syntax colour from the lazy-loaded highlighter: TypeScript numbers in their own spans.
      await item.locator('.review-code .hljs-number').first().waitFor();
      await e2e.screenshot('review-2-side-by-side');

      // Remembered: after a reload the pane opens side by side.
      await page.reload();
      await page.getByRole('button', { name: 'Review changes' }).click();
      await item.locator('table.review-split').first().waitFor();
      assert.equal(await review.getByRole('button', { name: 'Side by side' }).getAttribute('aria-pressed'), 'true');

      // Comments on two lines, made in the pane, go to the agent as one prompt.
      await item.getByRole('button', { name: 'Comment on app.ts line 2', exact: true }).click();
      await item.getByRole('textbox', { name: 'Your comment on app.ts line 2', exact: true }).fill('Keep the digit here');
      await item.getByRole('button', { name: 'Add comment' }).click();
      await item.getByRole('button', { name: 'Comment on app.ts line 20 (removed)' }).click();
      await item.getByRole('textbox', { name: 'Your comment on app.ts line 20' }).fill('Why was this rewritten?');
      await item.getByRole('button', { name: 'Add comment' }).click();
      assert.equal(await item.getByRole('note').count(), 2);
      await review.getByRole('region', { name: 'Your review comments' }).getByText('2 comments for the agent: app.ts:2, app.ts:20').waitFor();
      await e2e.screenshot('review-3-comments');
      await page.setViewportSize({ width: 900, height: 700 });
      await page.emulateMedia({ colorScheme: 'dark' });
      await page.screenshot({ path: '/tmp/cove-e2e/review-3-comments-900-dark.png' });
      await page.setViewportSize({ width: 1280, height: 860 });
      await page.emulateMedia({ colorScheme: 'light' });

      // One hunk reverted: only its line comes back on disk.
      await item.getByRole('region', { name: 'Hunk 1 of app.ts' }).getByRole('button', { name: 'Revert hunk' }).click();
      await review.getByRole('status').filter({ hasText: 'Reverted the hunk @@ -1,5 +1,5 @@ of app.ts.' }).waitFor();
      assert.equal(readFileSync(file, 'utf8'), edited.replace('line two\n', 'line 2\n'));
      // The prompt's view agrees with the disk: the reverted hunk is gone from it and the other is its first now.
      await item.getByRole('region', { name: 'Hunk 2 of app.ts' }).waitFor({ state: 'detached' });
      await item.getByRole('region', { name: 'Hunk 1 of app.ts' }).getByText('line twenty').first().waitFor();

      await review.getByRole('button', { name: 'Send 2 comments to the agent' }).click();
      await page.getByRole('article', { name: "Cove's reply" }).filter({ hasText: 'Thanks, I will look at both lines.' }).waitFor();
      const sent = JSON.stringify(e2e.model.requests.at(-1)!.body.messages);
      assert.ok(sent.includes('Review comments:\\n- app.ts:2: Keep the digit here\\n  > line two'), sent.slice(-600));
      assert.ok(sent.includes('- app.ts:20 (a line the change removed): Why was this rewritten?\\n  > line 20'), sent.slice(-600));
      await e2e.screenshot('review-4-sent');
    }));
});
