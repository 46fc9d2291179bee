/**
 * The file sandbox against swaps between its check and its use. Each swap is placed exactly:
 * either between the calls (check, swap, use), or while the thread pool is held by reads of
 * FIFOs that block until the test releases them, so the tool's queued file system work runs only
 * after the folder has become a link to the outside. Zero escapes: nothing outside is read,
 * created or replaced, and no error names the roots.
 */
import { test, describe, afterEach } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { closeSync, existsSync, openSync, promises as fs, readdirSync, readFileSync, renameSync, symlinkSync } from 'node:fs';
import { join } from 'node:path';
import { ToolError } from '../../electron/core/agent/types';
import { commitStaged, loadText, stageBeside, writeAtomic } from '../../electron/core/tools/fs-utils';
import { readFileTool } from '../../electron/core/tools/read-file';
import { resolveInWorkspace } from '../../electron/core/tools/sandbox';
import { writeFileTool } from '../../electron/core/tools/write-file';
import { makeContext, removeFolder, tempFolder, textOf } from './helpers/tool-context';

const OUTSIDE_SECRET = 'outside-secret-content-7f3a';

let folders: string[] = [];
afterEach(() => {
  folders.forEach(removeFolder);
  folders = [];
});

function setup(): { root: string; outside: string } {
  const root = tempFolder('race-root', { 'sub/inside.txt': 'inside content\n', 'sub/keep.txt': 'keep\n' });
  const outside = tempFolder('race-outside', { 'inside.txt': `${OUTSIDE_SECRET}\n`, 'keep.txt': 'outside keep\n' });
  folders.push(root, outside);
  return { root, outside };
}

/** Replaces root/sub with a link to the outside folder (the real sub is moved aside). */
function swapForLink(root: string, outside: string): void {
  renameSync(join(root, 'sub'), join(root, 'sub-moved'));
  symlinkSync(outside, join(root, 'sub'));
}

function assertNoRoots(error: unknown, ...paths: string[]): void {
  assert.ok(error instanceof ToolError, `a ToolError, not ${String(error)}`);
  for (const path of paths) assert.ok(!error.message.includes(path), `the error names a root: ${error.message}`);
}

describe('check, swap, use', () => {
  test('a read through a folder swapped for a link after the check is refused', async () => {
    const { root, outside } = setup();
    const target = resolveInWorkspace('sub/inside.txt', [root], { mustExist: true });
    swapForLink(root, outside);
    const error = await loadText(target.absolute, 'sub/inside.txt', 'read').then(
      () => undefined,
      (caught: unknown) => caught,
    );
    assertNoRoots(error, root, outside);
    assert.match((error as Error).message, /changed while it was being opened/);
  });

  test('a write through a swapped folder creates nothing outside', async () => {
    const { root, outside } = setup();
    const target = resolveInWorkspace('sub/new.txt', [root]);
    swapForLink(root, outside);
    const before = readdirSync(outside).sort();
    const error = await writeAtomic(target.absolute, 'new content', 'sub/new.txt').then(
      () => undefined,
      (caught: unknown) => caught,
    );
    assertNoRoots(error, root, outside);
    assert.deepEqual(readdirSync(outside).sort(), before, 'no temp file or new file was left outside');
  });

  test('a rename whose folder is moved outside between staging and rename lands nowhere outside', async () => {
    const { root, outside } = setup();
    const target = resolveInWorkspace('sub/keep.txt', [root], { mustExist: true });
    const temp = await stageBeside(target.absolute, 'edited\n', 'sub/keep.txt');
    // The real folder, temp file and all, goes outside; a link to it takes its place.
    const moved = join(outside, 'sub');
    renameSync(join(root, 'sub'), moved);
    symlinkSync(moved, join(root, 'sub'));
    assert.throws(
      () => commitStaged(temp, target.absolute, 'sub/keep.txt'),
      (error: unknown) => {
        assertNoRoots(error, root, outside);
        return true;
      },
    );
    assert.equal(readFileSync(join(moved, 'keep.txt'), 'utf8'), 'keep\n', 'the file outside was not replaced');
    assert.deepEqual(readdirSync(moved).sort(), ['inside.txt', 'keep.txt'], 'the temp file is gone too');
  });

  test('a root replaced by a link after the session started is refused, and the error does not name it', async () => {
    const { root, outside } = setup();
    const roots = [root];
    const ctx = makeContext(roots);
    assert.match(textOf(await readFileTool.execute({ path: 'sub/inside.txt' }, ctx)), /inside content/);
    renameSync(root, `${root}-moved`);
    folders.push(`${root}-moved`);
    symlinkSync(join(outside), root);
    const error = await readFileTool.execute({ path: 'inside.txt' }, ctx).then(
      () => undefined,
      (caught: unknown) => caught,
    );
    assertNoRoots(error, root, outside);
    assert.match((error as Error).message, /replaced after the session started/);
  });

  test('ENAMETOOLONG does not echo the root', () => {
    const { root } = setup();
    const long = `${'a'.repeat(300)}/`.repeat(20);
    assert.throws(
      () => resolveInWorkspace(long, [root]),
      (error: unknown) => {
        assertNoRoots(error, root);
        return true;
      },
    );
  });
});

describe('a paused thread pool', () => {
  const poolSize = Number(process.env.UV_THREADPOOL_SIZE ?? 4);

  /** Fills every thread-pool worker with a read of a FIFO that blocks until `release`. */
  function pausePool(folder: string): { release(): Promise<void> } {
    const fifos = Array.from({ length: poolSize }, (_, index) => join(folder, `fifo-${index}`));
    for (const fifo of fifos) execFileSync('mkfifo', [fifo]);
    const reads = fifos.map((fifo) => fs.readFile(fifo));
    return {
      async release() {
        for (const fifo of fifos) closeSync(openSync(fifo, 'w'));
        await Promise.all(reads);
      },
    };
  }

  test('read_file and write_file queued behind blocked workers, folder swapped, then released: zero escapes', async () => {
    const { root, outside } = setup();
    const fifoFolder = tempFolder('race-fifos');
    folders.push(fifoFolder);
    const ctx = makeContext([root]);
    const pool = pausePool(fifoFolder);
    const read = readFileTool.execute({ path: 'sub/inside.txt' }, ctx).then(textOf, (error: unknown) => (error as Error).message);
    const write = writeFileTool.execute({ path: 'sub/keep.txt', content: 'written\n' }, ctx).then(textOf, (error: unknown) => (error as Error).message);
    await new Promise((resolve) => setTimeout(resolve, 50));
    swapForLink(root, outside);
    await pool.release();
    const [readText, writeText] = await Promise.all([read, write]);
    assert.ok(!readText.includes(OUTSIDE_SECRET), `read escaped: ${readText}`);
    assert.equal(readFileSync(join(outside, 'keep.txt'), 'utf8'), 'outside keep\n', `write escaped: ${writeText}`);
    assert.deepEqual(readdirSync(outside).sort(), ['inside.txt', 'keep.txt'], 'nothing was created outside');
    for (const text of [readText, writeText]) assert.ok(!text.includes(outside) && !text.includes(root), text);
    assert.ok(existsSync(join(root, 'sub-moved/inside.txt')), 'the real folder is untouched beside the link');
  });
});
