/**
 * Revert of one hunk (electron/core/checkpoints/hunk-revert.ts) after a real `cove run`: the
 * session edits two far-apart lines of one file and writes another; reverting the first hunk
 * puts back only that line on disk, a hunk whose lines were changed by hand since is refused
 * with the reason and the file left byte for byte as it was, and the user's own repository and
 * the shadow repository's refs stay as they were.
 */
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { revertHunk, singleHunkPatch } from '../../electron/core/checkpoints/hunk-revert';
import { RewindError } from '../../electron/core/checkpoints/rewind';
import { timelineOf } from '../../electron/core/checkpoints/timeline';
import { openStore } from '../../electron/core/store';
import { block, reply } from '../support/model-server';
import { cliFixture } from '../support/cove-cli';

const LINES = Array.from({ length: 30 }, (_, index) => `line ${index + 1}`);
const gitEnv = { ...process.env, GIT_CONFIG_GLOBAL: '/dev/null', GIT_AUTHOR_NAME: 't', GIT_AUTHOR_EMAIL: 't@t', GIT_COMMITTER_NAME: 't', GIT_COMMITTER_EMAIL: 't@t' };
const userGit = (root: string, ...args: string[]) => execFileSync('git', ['-C', root, ...args], { encoding: 'utf8', env: gitEnv });

const SCRIPT = [
  // One call per turn: two edits of one file in the same message run at once, and the second loses the first (see the report).
  reply.message([block.toolUse('edit_file', { path: 'list.txt', old_text: 'line 3\n', new_text: 'line three\n' }, { id: 'toolu_first' })]),
  reply.message([block.toolUse('edit_file', { path: 'list.txt', old_text: 'line 27\n', new_text: 'line twenty-seven\n' }, { id: 'toolu_second' })]),
  reply.message([block.toolUse('write_file', { path: 'other.txt', content: 'other\n' }, { id: 'toolu_other' })]),
  reply.text('done'),
];

describe('hunk revert', () => {
  test('puts back one hunk of a prompt on disk, and refuses a hunk changed by hand since', async () => {
    const f = await cliFixture(SCRIPT);
    try {
      const file = join(f.workspace, 'list.txt');
      writeFileSync(file, `${LINES.join('\n')}\n`);
      userGit(f.workspace, 'init', '-q');
      userGit(f.workspace, 'add', '-A');
      userGit(f.workspace, 'commit', '-q', '-m', 'start');
      const userRefs = userGit(f.workspace, 'show-ref');
      const result = await f.home.run(['run', '--json', '--workspace', f.workspace, '--permission-mode', 'bypass', 'edit the list']);
      assert.equal(result.code, 0, result.stderr);
      for (const end of result.events) if (end.type === 'toolExecutionEnd') assert.equal(end.isError, false, JSON.stringify(end.result));
      const edited = readFileSync(file, 'utf8');
      assert.match(edited, /line three\n[\s\S]*line twenty-seven\n/);

      const store = openStore(f.home.path);
      const id = result.events[0]!.sessionId;
      const timeline = timelineOf(store.loadEvents(id));
      store.close();
      const input = { coveHome: f.home.path, workspaceRoots: [f.workspace], timeline, root: f.workspace, path: 'list.txt' };

      const first = await revertHunk({ ...input, prompt: 1, hunk: 0 });
      assert.equal(first.reverted, true, first.reason);
      assert.match(first.hunk, /^@@ -1,6 \+1,6 @@/);
      assert.equal(readFileSync(file, 'utf8'), edited.replace('line three\n', 'line 3\n'), 'only the first hunk is undone');
      assert.equal(readFileSync(join(f.workspace, 'other.txt'), 'utf8'), 'other\n', 'other files stay');

      // The second hunk's line is edited by hand: git will not reverse over it.
      const byHand = readFileSync(file, 'utf8').replace('line twenty-seven\n', 'line 27, by hand\n');
      writeFileSync(file, byHand);
      const refused = await revertHunk({ ...input, hunk: 1, prompt: 1 });
      assert.equal(refused.reverted, false);
      assert.match(refused.reason!, /list\.txt was changed since in these lines.*nothing was changed/);
      assert.equal(readFileSync(file, 'utf8'), byHand, 'a refused revert writes nothing');

      // The whole session's diff has the same hunks; the first is undone already, so it no longer applies.
      const again = await revertHunk({ ...input, hunk: 0 });
      assert.equal(again.reverted, false);

      await assert.rejects(revertHunk({ ...input, prompt: 1, hunk: 5 }), (error: Error) => error instanceof RewindError && /no hunk 6/.test(error.message));
      await assert.rejects(revertHunk({ ...input, prompt: 2, hunk: 0 }), /there is no prompt 2/);
      await assert.rejects(revertHunk({ ...input, root: '/tmp', prompt: 1, hunk: 0 }), /not a workspace folder/);
      await assert.rejects(revertHunk({ ...input, path: 'untouched.txt', prompt: 1, hunk: 0 }), /did not change in prompt 1/);
      await assert.rejects(revertHunk({ ...input, path: '../outside.txt', prompt: 1, hunk: 0 }), /not a path inside/);
      assert.equal(userGit(f.workspace, 'show-ref'), userRefs, "the user's refs are untouched");
      assert.equal(userGit(f.workspace, 'diff', '--cached', '--name-only'), '', "the user's index is untouched");
    } finally {
      await f.close();
    }
  });

  test('a single-hunk patch keeps the file header and only the hunk asked for', () => {
    const diff = ['diff --git a/x b/x', 'index 1..2 100644', '--- a/x', '+++ b/x', '@@ -1 +1 @@', '-a', '+b', '@@ -9 +9 @@', '-c', '+d', ''].join('\n');
    assert.deepEqual(singleHunkPatch(diff, 1), { patch: ['diff --git a/x b/x', 'index 1..2 100644', '--- a/x', '+++ b/x', '@@ -9 +9 @@', '-c', '+d', ''].join('\n'), header: '@@ -9 +9 @@' });
    assert.equal(singleHunkPatch(diff, 2), null);
  });
});
