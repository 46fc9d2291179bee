/**
 * Empty folders in real shadow checkpoints: listed (nested ones too, never inside node_modules
 * or a folder holding only ignored files), kept in the commit message, and carried over without
 * a walk only when asked.
 */
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ShadowRepo } from '../../electron/core/checkpoints/shadow-repo';

describe('empty folders in checkpoints', () => {
  test('are listed and kept with the commit; a carried-over list skips the walk', async () => {
    const home = mkdtempSync(join(tmpdir(), 'cove-ef-home-'));
    const root = mkdtempSync(join(tmpdir(), 'cove-ef-root-'));
    try {
      for (const folder of ['empty', 'new/inner', 'node_modules/pkg/empty', 'full/sub', 'ignored-only']) mkdirSync(join(root, folder), { recursive: true });
      writeFileSync(join(root, 'full', 'sub', 'file.txt'), 'x\n');
      writeFileSync(join(root, '.gitignore'), '*.log\n');
      writeFileSync(join(root, 'ignored-only', 'a.log'), 'log\n');
      mkdirSync(join(root, 'full', 'empty-beside'));
      const repo = new ShadowRepo(home, root);
      const first = await repo.snapshot('one');
      assert.deepEqual(first.emptyFolders, ['empty/', 'full/empty-beside/', 'new/inner/']);
      assert.deepEqual(await repo.emptyFoldersAt(first.commit), first.emptyFolders);

      // Only a folder changed: still a checkpoint of its own.
      rmSync(join(root, 'empty'), { recursive: true });
      const second = await repo.snapshot('two');
      assert.notEqual(second.commit, first.commit);
      assert.deepEqual(second.emptyFolders, ['full/empty-beside/', 'new/inner/']);

      mkdirSync(join(root, 'made-after'));
      const carried = await repo.snapshot('three', { foldersUnchanged: true });
      assert.deepEqual(carried.emptyFolders, second.emptyFolders, 'the list is carried, not walked for');
      assert.equal(carried.commit, second.commit);
      const walked = await repo.snapshot('four');
      assert.deepEqual(walked.emptyFolders, ['full/empty-beside/', 'made-after/', 'new/inner/']);
    } finally {
      rmSync(home, { recursive: true, force: true });
      rmSync(root, { recursive: true, force: true });
    }
  });
});
