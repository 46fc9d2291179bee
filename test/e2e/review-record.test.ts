// The review's record in Chromium (issue 13): a hunk revert made in the review pane is a row of
// the transcript that a reload draws again and whose Undo puts the agent's line back on disk;
// line comments not yet sent survive a reload; a steered message offers no "Rewind to here";
// a rewind that cuts the conversation back folds the rows it cut away (their prompts offering no
// rewind) under a marker saying the conversation continued from there, on reload too, and the
// next request is sent without them.
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Browser, Page } from 'playwright-core';
import type { RecordedRequest } from '../support/model-server';
import { block, reply, type Reply } from '../support/model-server';
import { launchChromium, skipReason, startSession, statusBadge, withApp, type E2E } from './support';

const skip = skipReason();
const LINES = Array.from({ length: 24 }, (_, index) => `line ${index + 1}`);
const ORIGINAL = `${LINES.join('\n')}\n`;
const PROMPTS = { edit: 'Edit app.ts in two places', one: 'Write one.txt', steer: 'Make it say hello', two: 'Write two.txt', three: 'Now tell me what is there' } as const;

function script(request: RecordedRequest): Reply {
  const messages = request.body.messages;
  const text = JSON.stringify(messages);
  const last = JSON.stringify(messages.at(-1)?.content ?? '');
  const results = (text.match(/tool_result/g) ?? []).length;
  if (text.includes(PROMPTS.edit)) {
    if (results === 0) return reply.message([block.toolUse('edit_file', { path: 'app.ts', old_text: 'line 2\n', new_text: 'line two\n' })]);
    if (results === 1) return reply.message([block.toolUse('edit_file', { path: 'app.ts', old_text: 'line 20\n', new_text: 'line twenty\n' })]);
    return reply.text('Edited app.ts.');
  }
  if (last.includes(PROMPTS.three)) return reply.text('Only one.txt is there.');
  if (last.includes('tool_result')) return reply.text(last.includes('two.txt') || text.lastIndexOf(PROMPTS.two) > text.lastIndexOf(PROMPTS.steer) ? 'Wrote two.txt.' : 'Wrote one.txt.');
  if (last.includes(PROMPTS.two)) return reply.message([block.toolUse('write_file', { path: 'two.txt', content: 'two\n' })]);
  if (last.includes(PROMPTS.one)) return reply.message([block.toolUse('write_file', { path: 'one.txt', content: 'one\n' })]);
  throw new Error(`no reply for ${last.slice(0, 80)}`);
}

const transcriptOf = (page: Page) => page.getByRole('region', { name: 'Transcript' });
const header = (page: Page) => page.locator('header.session-header');

async function shots(e2e: E2E, name: string): Promise<void> {
  const { page } = e2e;
  await page.setViewportSize({ width: 1400, height: 900 });
  await e2e.screenshot(`${name}-1400`);
  await page.setViewportSize({ width: 900, height: 700 });
  await page.emulateMedia({ colorScheme: 'dark' });
  await page.screenshot({ path: `/tmp/cove-e2e/${name}-900-dark.png` });
  await page.setViewportSize({ width: 1400, height: 900 });
  await page.emulateMedia({ colorScheme: 'light' });
}

async function allow(page: Page, tool: string): Promise<void> {
  await page
    .getByRole('article', { name: `Permission request: ${tool}` })
    .getByRole('button', { name: 'Allow once' })
    .last()
    .click();
}

describe('the review, recorded', { skip }, () => {
  let browser: Browser;
  before(async () => {
    browser = await launchChromium();
  });
  after(async () => {
    await browser?.close();
  });

  test('a hunk revert is a transcript row after a reload and its Undo puts the line back; unsent comments survive a reload', () =>
    withApp(browser, 'review-record-revert', script, async (e2e) => {
      const { page } = e2e;
      const file = join(e2e.workspace, 'app.ts');
      writeFileSync(file, ORIGINAL);
      await startSession(e2e, PROMPTS.edit);
      for (let call = 0; call < 2; call++) {
        await allow(page, 'edit_file');
        await page.getByRole('article', { name: 'Permission request: edit_file' }).nth(call).getByRole('status').waitFor();
      }
      await page.getByRole('article', { name: "Cove's reply" }).filter({ hasText: 'Edited app.ts.' }).waitFor();
      await statusBadge(header(page), 'done').waitFor();
      const edited = readFileSync(file, 'utf8');

      await page.getByRole('button', { name: 'Review changes' }).click();
      const review = page.getByRole('dialog', { name: 'Changes in this session' });
      const item = review.getByRole('region', { name: 'Prompt 1' }).getByRole('listitem', { name: 'Modified app.ts' });
      await item.getByRole('button', { name: 'Comment on app.ts line 2', exact: true }).click();
      await item.getByRole('textbox', { name: 'Your comment on app.ts line 2', exact: true }).fill('Keep the digit here');
      await item.getByRole('button', { name: 'Add comment' }).click();

      // The comment is a draft until sent: a reload keeps it, and the header says it waits.
      await page.reload();
      await page.getByRole('button', { name: 'Review changes (1 comment not sent)' }).click();
      await review.getByRole('region', { name: 'Your review comments' }).getByText('1 comment for the agent: app.ts:2').waitFor();
      assert.equal(await item.getByRole('note').count(), 1);

      await item.getByRole('region', { name: 'Hunk 1 of app.ts' }).getByRole('button', { name: 'Revert hunk' }).click();
      await review.getByRole('status').filter({ hasText: 'Reverted the hunk @@ -1,5 +1,5 @@ of app.ts.' }).waitFor();
      const reverted = edited.replace('line two\n', 'line 2\n');
      assert.equal(readFileSync(file, 'utf8'), reverted);
      await review.getByRole('button', { name: 'Close' }).click();

      const row = transcriptOf(page).getByRole('note', { name: 'Revert', exact: true });
      await row.getByText("Reverted the hunk @@ -1,5 +1,5 @@ of app.ts (prompt 1's change) in the review pane.").waitFor();
      await page.reload();
      await row.waitFor();
      await row.scrollIntoViewIfNeeded();
      await shots(e2e, 'review-record-1-revert-row');

      await row.getByRole('button', { name: 'Undo revert' }).click();
      await transcriptOf(page).getByRole('note', { name: 'Revert undone' }).getByText("Undid the revert of the hunk @@ -1,5 +1,5 @@ of app.ts: the agent's change is back.").waitFor();
      assert.equal(readFileSync(file, 'utf8'), edited, "the agent's line is back");
      await row.getByText(/since undone\.$/).waitFor();
      assert.equal(await row.getByRole('button', { name: 'Undo revert' }).count(), 0);
      assert.equal(await page.getByRole('button', { name: 'Review changes (1 comment not sent)' }).count(), 1, 'the draft is still there');
    }));

  test('a steered message offers no rewind; a cut conversation is folded under its marker, on reload too, and left out of the next request', () =>
    withApp(browser, 'review-record-cut', script, async (e2e) => {
      const { page } = e2e;
      await startSession(e2e, PROMPTS.one);
      await page.getByRole('article', { name: 'Permission request: write_file' }).waitFor();
      // Sent while the run waits on the prompt: steering, not a prompt of its own.
      await page.getByRole('textbox', { name: 'Message' }).fill(PROMPTS.steer);
      await page.getByRole('button', { name: 'Send' }).click();
      const steered = transcriptOf(page).getByRole('article', { name: 'Your message' }).filter({ hasText: PROMPTS.steer });
      await steered.waitFor();
      await allow(page, 'write_file');
      await page.getByRole('article', { name: "Cove's reply" }).filter({ hasText: 'Wrote one.txt.' }).waitFor();
      await statusBadge(header(page), 'done').waitFor();
      const first = transcriptOf(page).getByRole('article', { name: 'Your message' }).filter({ hasText: PROMPTS.one });
      await first.getByRole('button', { name: 'Rewind to here' }).waitFor();
      assert.equal(await steered.getByRole('button', { name: 'Rewind to here' }).count(), 0, 'no rewind on a steered message');

      await page.getByRole('textbox', { name: 'Message' }).fill(PROMPTS.two);
      await page.getByRole('button', { name: 'Send' }).click();
      await allow(page, 'write_file');
      await page.getByRole('article', { name: "Cove's reply" }).filter({ hasText: 'Wrote two.txt.' }).waitFor();
      await statusBadge(header(page), 'done').waitFor();
      assert.ok(existsSync(join(e2e.workspace, 'two.txt')));

      const second = transcriptOf(page).getByRole('article', { name: 'Your message' }).filter({ hasText: PROMPTS.two });
      await second.getByRole('button', { name: 'Rewind to here' }).click();
      // Main counts the steered message, so this is prompt 3.
      const plan = second.getByRole('region', { name: 'Rewind to before prompt 3' });
      await plan.getByText(/Remove .*two\.txt/).waitFor();
      await plan.getByRole('checkbox', { name: 'Also cut the conversation back to before this prompt' }).check();
      await plan.getByRole('button', { name: 'Rewind files' }).click();

      const marker = transcriptOf(page).getByRole('region', { name: 'Conversation cut' });
      await marker.getByText('The conversation continued from here.').waitFor();
      assert.equal(existsSync(join(e2e.workspace, 'two.txt')), false);
      assert.equal(await second.count(), 0, 'the cut prompt is folded away');
      await marker.getByText(/files rewound \(0 put back, 1 removed\); the 6 rows folded here are no longer sent to the model/).waitFor();

      await page.reload();
      await marker.waitFor();
      assert.equal(await second.count(), 0, 'folded after a reload too');
      await marker.getByRole('button', { name: 'Show what was cut (6 rows)' }).click();
      await marker.getByRole('region', { name: 'Cut from the conversation' }).or(marker.getByLabel('Cut from the conversation')).getByText(PROMPTS.two).waitFor();
      // The files can no longer be rewound to a prompt the conversation no longer holds: no offer on it.
      const folded = marker.getByLabel('Cut from the conversation').getByRole('article', { name: 'Your message' }).filter({ hasText: PROMPTS.two });
      await folded.waitFor();
      assert.equal(await folded.getByRole('button', { name: 'Rewind to here' }).count(), 0, 'a prompt folded under the cut offers no rewind');
      await marker.getByText('The conversation continued from here.').scrollIntoViewIfNeeded();
      await shots(e2e, 'review-record-2-cut');

      await page.getByRole('textbox', { name: 'Message' }).fill(PROMPTS.three);
      await page.getByRole('button', { name: 'Send' }).click();
      await page.getByRole('article', { name: "Cove's reply" }).filter({ hasText: 'Only one.txt is there.' }).waitFor();
      const sent = JSON.stringify(e2e.model.requests.at(-1)!.body.messages);
      assert.ok(!sent.includes(PROMPTS.two), 'the cut prompt is not sent again');
      assert.ok(sent.includes(PROMPTS.one) && sent.includes(PROMPTS.steer));
    }));
});
