// Diffs in the prompt, in Chromium: an edit's permission card shows the change it would make,
// with line numbers, before anyone clicks; an edit that cannot apply says so; nothing is
// written until the click.
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Browser } from 'playwright-core';
import type { RecordedRequest } from '../support/model-server';
import { block, reply, type Reply } from '../support/model-server';
import { launchChromium, skipReason, startSession, statusBadge, withApp } from './support';

const skip = skipReason();
const ORIGINAL = 'line one\nline two\nline three\nline four\n';
const PROMPTS = { edit: 'Edit app.txt please', broken: 'Edit app.txt badly', create: 'Make new.txt and edit app.txt' } as const;

function script(request: RecordedRequest): Reply {
  const prompt = JSON.stringify(request.body.messages[0]?.content ?? '');
  const answered = JSON.stringify(request.body.messages).includes('tool_result');
  if (prompt.includes(PROMPTS.create) && !answered) {
    return reply.message([
      block.toolUse('write_file', { path: 'new.txt', content: 'brand new\n' }),
      block.toolUse('edit_file', { path: 'app.txt', old_text: 'line one', new_text: 'line 1' }),
    ]);
  }
  if (answered) return reply.text('Done with app.txt.');
  if (prompt.includes(PROMPTS.edit)) return reply.message([block.toolUse('edit_file', { path: 'app.txt', old_text: 'line three', new_text: 'line 3, edited' })]);
  if (prompt.includes(PROMPTS.broken)) return reply.message([block.toolUse('edit_file', { path: 'app.txt', old_text: 'line five', new_text: 'x' })]);
  throw new Error(`no reply for ${prompt.slice(0, 80)}`);
}

describe('diffs in permission prompts', { skip }, () => {
  let browser: Browser;
  before(async () => {
    browser = await launchChromium();
  });
  after(async () => {
    await browser?.close();
  });

  test("an edit's approval shows its diff with line numbers before the click, and the click applies exactly that", () =>
    withApp(browser, 'checkpoints-preview', script, async (e2e) => {
      const { page } = e2e;
      writeFileSync(join(e2e.workspace, 'app.txt'), ORIGINAL);
      await startSession(e2e, PROMPTS.edit);
      const card = page.getByRole('article', { name: 'Permission request: edit_file' });
      const preview = card.getByRole('region', { name: 'Change this edit would make' });
      const diff = preview.getByLabel('Diff: 1 lines added, 1 removed');
      await diff.waitFor();
      const text = (await diff.textContent()) ?? '';
      assert.match(text, / {3}3 {6}-line three/);
      assert.match(text, / {8}3 \+line 3, edited/);
      assert.match(text, / {3}2 {4}2 {2}line two/);
      assert.equal(readFileSync(join(e2e.workspace, 'app.txt'), 'utf8'), ORIGINAL, 'the preview wrote nothing');
      await e2e.screenshot('checkpoints-1-preview');

      await card.getByRole('button', { name: 'Allow once' }).click();
      await page.getByRole('article', { name: "Cove's reply" }).filter({ hasText: 'Done with app.txt.' }).waitFor();
      assert.equal(readFileSync(join(e2e.workspace, 'app.txt'), 'utf8'), ORIGINAL.replace('line three', 'line 3, edited'));
    }));

  test('an edit that would fail says so in its prompt', () =>
    withApp(browser, 'checkpoints-preview-error', script, async (e2e) => {
      const { page } = e2e;
      writeFileSync(join(e2e.workspace, 'app.txt'), ORIGINAL);
      await startSession(e2e, PROMPTS.broken);
      const card = page.getByRole('article', { name: 'Permission request: edit_file' });
      const problem = card.getByRole('alert', { name: 'This edit would fail' });
      await problem.waitFor();
      assert.match((await problem.textContent()) ?? '', /This edit would fail: .*app\.txt/);
      await e2e.screenshot('checkpoints-2-preview-error');
      await card.getByRole('button', { name: 'Deny' }).click();
      await card.getByRole('status').filter({ hasText: 'Denied' }).waitFor();
    }));

  test('the review pane shows each prompt\'s files with diffs and reverts one; "Rewind to here" shows what it will change, then puts the files back', () =>
    withApp(browser, 'checkpoints-rewind', script, async (e2e) => {
      const { page } = e2e;
      writeFileSync(join(e2e.workspace, 'app.txt'), ORIGINAL);
      await startSession(e2e, PROMPTS.create);
      for (const tool of ['write_file', 'edit_file']) {
        await page
          .getByRole('article', { name: `Permission request: ${tool}` })
          .getByRole('button', { name: 'Allow once' })
          .click();
      }
      await page.getByRole('article', { name: "Cove's reply" }).filter({ hasText: 'Done with app.txt.' }).waitFor();
      assert.equal(readFileSync(join(e2e.workspace, 'new.txt'), 'utf8'), 'brand new\n');
      await statusBadge(page.locator('header.session-header'), 'done').waitFor();

      // The review pane shows the prompt's files with their diffs.
      await page.getByRole('button', { name: 'Review changes' }).click();
      const review = page.getByRole('dialog', { name: 'Changes in this session' });
      const first = review.getByRole('region', { name: 'Prompt 1' });
      await first.getByRole('listitem', { name: 'Added new.txt' }).getByText('+brand new').waitFor();
      await first.getByRole('listitem', { name: 'Modified app.txt' }).getByText('+line 1').waitFor();
      await review.getByRole('button', { name: 'Whole session' }).click();
      await review.getByRole('list', { name: 'Files the session changed' }).getByRole('listitem', { name: 'Added new.txt' }).waitFor();
      await e2e.screenshot('checkpoints-4-review');

      // One file reverted from the pane: that file only.
      await review.getByRole('button', { name: 'By prompt' }).click();
      await first.getByRole('listitem', { name: 'Modified app.txt' }).getByRole('button', { name: 'Revert file' }).click();
      await review.getByRole('status').filter({ hasText: 'Reverted app.txt to how it was before prompt 1.' }).waitFor();
      assert.equal(readFileSync(join(e2e.workspace, 'app.txt'), 'utf8'), ORIGINAL);
      assert.equal(readFileSync(join(e2e.workspace, 'new.txt'), 'utf8'), 'brand new\n');
      await review.getByRole('button', { name: 'Close' }).click();

      const prompt = page.getByRole('article', { name: 'Your message' }).filter({ hasText: PROMPTS.create });
      await prompt.getByRole('button', { name: 'Rewind to here' }).click();
      const plan = prompt.getByRole('region', { name: 'Rewind to before prompt 1' });
      await plan.getByText(/Remove .*new\.txt/).waitFor();
      assert.equal(await plan.getByText(/Revert .*app\.txt/).count(), 0, 'app.txt is already as it was');
      assert.ok(existsSync(join(e2e.workspace, 'new.txt')), 'showing the plan changes nothing');
      await e2e.screenshot('checkpoints-3-rewind-plan');

      await plan.getByRole('button', { name: 'Rewind files' }).click();
      await plan.getByRole('status').filter({ hasText: 'Rewound: 0 put back, 1 removed' }).waitFor();
      assert.equal(existsSync(join(e2e.workspace, 'new.txt')), false);
      assert.equal(readFileSync(join(e2e.workspace, 'app.txt'), 'utf8'), ORIGINAL);
    }));
});
