// A worktree per session, in Chromium: the New session checkbox is disabled, with the reason,
// for a folder that is not a git repository; in a repository the session's edit lands in its
// worktree, not in the person's tree, until the header's Merge brings it in and removes the
// worktree and its branch. At a run's end the session offers its branch: the review pane shows
// the branch against its base (a commit made in the worktree and work not yet committed), and
// Discard from there removes the worktree, the person's tree untouched.
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, realpathSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Browser } from 'playwright-core';
import type { RecordedRequest } from '../support/model-server';
import { block, reply, type Reply } from '../support/model-server';
import { launchChromium, skipReason, statusBadge, withApp } from './support';

const skip = skipReason();
const gitEnv = { ...process.env, GIT_CONFIG_GLOBAL: '/dev/null', GIT_AUTHOR_NAME: 't', GIT_AUTHOR_EMAIL: 't@t', GIT_COMMITTER_NAME: 't', GIT_COMMITTER_EMAIL: 't@t' };
const userGit = (root: string, ...args: string[]) => execFileSync('git', ['-C', root, ...args], { encoding: 'utf8', env: gitEnv });

/** Makes the workspace a repository on main with app.txt committed; returns that commit. */
function startRepository(root: string): string {
  userGit(root, 'init', '-q', '-b', 'main');
  writeFileSync(join(root, 'app.txt'), 'original\n');
  userGit(root, 'add', '-A');
  userGit(root, 'commit', '-q', '-m', 'start');
  return userGit(root, 'rev-parse', 'HEAD');
}

function script(request: RecordedRequest): Reply {
  if (JSON.stringify(request.body.messages).includes('tool_result')) return reply.text('Edited app.txt in the worktree.');
  return reply.message([block.toolUse('write_file', { path: 'app.txt', content: 'from the session\n' })]);
}

describe('a worktree per session', { skip }, () => {
  let browser: Browser;
  before(async () => {
    browser = await launchChromium();
  });
  after(async () => {
    await browser?.close();
  });

  test('the checkbox says why it is off outside git; in a repository the edit stays in the worktree until Merge', () =>
    withApp(browser, 'worktree', script, async (e2e) => {
      const { page } = e2e;
      const plain = realpathSync(mkdtempSync(join(tmpdir(), 'cove-plain-')));
      try {
        const head = startRepository(e2e.workspace);

        await page.getByRole('button', { name: 'New session' }).click();
        const field = page.getByRole('combobox', { name: 'Project folder' });
        const choice = page.getByRole('checkbox', { name: 'Work in a separate git worktree' });
        await field.fill(plain);
        await page.getByRole('button', { name: 'Check folder' }).click();
        await page.getByText(/Not available: .* is not in a git repository/).waitFor();
        assert.equal(await choice.isDisabled(), true);
        await e2e.screenshot('worktree-1-not-git');

        await field.fill(e2e.workspace);
        await page.getByRole('button', { name: 'Check folder' }).click();
        await page.getByText('A new branch from main; merge or discard it at the end.').waitFor();
        await choice.check();
        await page.getByRole('textbox', { name: 'Message' }).fill('Change app.txt');
        await page.getByRole('button', { name: 'Start session' }).click();
        await page.getByRole('article', { name: 'Permission request: write_file' }).getByRole('button', { name: 'Allow once' }).click();
        await page.getByRole('article', { name: "Cove's reply" }).filter({ hasText: 'Edited app.txt in the worktree.' }).waitFor();
        await statusBadge(page.locator('header.session-header'), 'done').waitFor();
        assert.equal(readFileSync(join(e2e.workspace, 'app.txt'), 'utf8'), 'original\n', 'the person’s tree is untouched');
        assert.equal(userGit(e2e.workspace, 'worktree', 'list', '--porcelain').match(/^worktree /gm)?.length, 2);

        const actions = page.getByRole('group', { name: 'Worktree' });
        await actions.getByText(/Worktree cove\/\w{8} from main/).waitFor();
        await e2e.screenshot('worktree-2-actions');
        await actions.getByRole('button', { name: 'Merge into main' }).click();
        await page
          .getByRole('status')
          .filter({ hasText: /Merged cove\/\w{8} into main/ })
          .waitFor();
        assert.equal(readFileSync(join(e2e.workspace, 'app.txt'), 'utf8'), 'from the session\n');
        assert.notEqual(userGit(e2e.workspace, 'rev-parse', 'HEAD'), head);
        assert.equal(userGit(e2e.workspace, 'worktree', 'list', '--porcelain').match(/^worktree /gm)?.length, 1);
        assert.equal(userGit(e2e.workspace, 'branch', '--list', 'cove/*'), '');
        await e2e.waitForSessions((sessions) => sessions.length === 1 && sessions[0]!.workspaces[0] === e2e.workspace, 'the session back in the person’s folder');
      } finally {
        rmSync(plain, { recursive: true, force: true });
      }
    }));

  test('at the run end the session offers its branch: the review pane shows it against main, and Discard there removes it', () =>
    withApp(browser, 'worktree-branch', script, async (e2e) => {
      const { page } = e2e;
      const head = startRepository(e2e.workspace);

      await page.getByRole('button', { name: 'New session' }).click();
      await page.getByRole('combobox', { name: 'Project folder' }).fill(e2e.workspace);
      await page.getByRole('button', { name: 'Check folder' }).click();
      await page.getByText('A new branch from main; merge or discard it at the end.').waitFor();
      await page.getByRole('checkbox', { name: 'Work in a separate git worktree' }).check();
      await page.getByRole('textbox', { name: 'Message' }).fill('Change app.txt');
      await page.getByRole('button', { name: 'Start session' }).click();
      await page.getByRole('article', { name: 'Permission request: write_file' }).getByRole('button', { name: 'Allow once' }).click();
      await page.getByRole('article', { name: "Cove's reply" }).filter({ hasText: 'Edited app.txt in the worktree.' }).waitFor();
      await statusBadge(page.locator('header.session-header'), 'done').waitFor();

      // A commit of the session's own in the worktree, beside the edit it has not committed.
      const worktree = userGit(e2e.workspace, 'worktree', 'list', '--porcelain')
        .split('\n')
        .filter((line) => line.startsWith('worktree '))
        .map((line) => line.slice('worktree '.length))
        .find((path) => path !== e2e.workspace)!;
      writeFileSync(join(worktree, 'committed.txt'), 'committed on the branch\n');
      userGit(worktree, 'add', 'committed.txt');
      userGit(worktree, 'commit', '-q', '-m', 'on the branch');

      const offer = page.getByRole('region', { name: "The session's branch" });
      await offer.getByText(/The work of this run is on cove\/\w{8}, not yet in main\./).waitFor();
      await page.setViewportSize({ width: 1400, height: 900 });
      await e2e.screenshot('worktree-3-end-offer');
      await offer.getByRole('button', { name: 'Review the branch' }).click();
      const review = page.getByRole('dialog', { name: 'Changes in this session' });
      assert.equal(await review.getByRole('button', { name: 'Branch against main' }).getAttribute('aria-pressed'), 'true');
      const files = review.getByRole('list', { name: /^Files on cove\/\w{8}$/ });
      await files.getByRole('listitem', { name: 'Added committed.txt' }).getByText('+committed on the branch').waitFor();
      await files.getByRole('listitem', { name: 'Modified app.txt' }).getByText('+from the session').waitFor();
      assert.equal(await files.getByRole('button', { name: 'Revert hunk' }).count(), 0, "the branch's diff is git's, not the checkpoints': no hunk revert");
      await e2e.screenshot('worktree-4-branch-review');
      await page.setViewportSize({ width: 900, height: 700 });
      await page.emulateMedia({ colorScheme: 'dark' });
      await page.screenshot({ path: '/tmp/cove-e2e/worktree-4-branch-review-900-dark.png' });
      await page.emulateMedia({ colorScheme: 'light' });

      const finish = review.getByRole('group', { name: 'Finish the branch' });
      await finish.getByRole('button', { name: 'Discard worktree' }).click();
      await finish.getByRole('button', { name: "Discard the worktree's work" }).click();
      await review
        .getByRole('status')
        .filter({ hasText: /Discarded cove\/\w{8}; the session works in/ })
        .waitFor();
      assert.equal(readFileSync(join(e2e.workspace, 'app.txt'), 'utf8'), 'original\n');
      assert.equal(userGit(e2e.workspace, 'rev-parse', 'HEAD'), head);
      assert.equal(userGit(e2e.workspace, 'worktree', 'list', '--porcelain').match(/^worktree /gm)?.length, 1);
      assert.equal(userGit(e2e.workspace, 'branch', '--list', 'cove/*'), '');
      await review.getByRole('button', { name: 'Close' }).click();
      assert.equal(await offer.count(), 0, 'nothing left to offer');
      assert.equal(await page.getByRole('group', { name: 'Worktree' }).count(), 0, "the header's actions went with it");
    }));
});
