/**
 * The shadow repository against real git and real folders: what a snapshot records and leaves
 * out, and that the person's own repository is byte-for-byte the same afterwards.
 */
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { chmodSync, mkdirSync, mkdtempSync, readFileSync, readdirSync, rmSync, statSync, utimesSync, writeFileSync } from 'node:fs';
import { createHash } from 'node:crypto';
import { tmpdir } from 'node:os';
import { join, relative } from 'node:path';
import { ShadowRepo } from '../../electron/core/checkpoints/shadow-repo';

function tempDir(prefix: string): string {
  return mkdtempSync(join(tmpdir(), prefix));
}

/** Every file under `dir` with the hash of its bytes, so any change to any file shows. */
function fingerprint(dir: string): Record<string, string> {
  const out: Record<string, string> = {};
  const walk = (folder: string) => {
    for (const entry of readdirSync(folder, { withFileTypes: true })) {
      const path = join(folder, entry.name);
      if (entry.isDirectory()) walk(path);
      else out[relative(dir, path)] = createHash('sha256').update(readFileSync(path)).digest('hex');
    }
  };
  walk(dir);
  return out;
}

function userGit(root: string, ...args: string[]): string {
  return execFileSync('git', ['-C', root, ...args], {
    encoding: 'utf8',
    env: { ...process.env, GIT_CONFIG_GLOBAL: '/dev/null', GIT_AUTHOR_NAME: 't', GIT_AUTHOR_EMAIL: 't@t', GIT_COMMITTER_NAME: 't', GIT_COMMITTER_EMAIL: 't@t' },
  });
}

describe('shadow repository', () => {
  test('records tracked, untracked, new folders and deletions; leaves ignored folders and big files out', async () => {
    const home = tempDir('cove-cp-home-');
    const root = tempDir('cove-cp-root-');
    try {
      mkdirSync(join(root, 'src'));
      mkdirSync(join(root, 'node_modules', 'dep'), { recursive: true });
      mkdirSync(join(root, 'build'));
      writeFileSync(join(root, 'src', 'a.ts'), 'one\n');
      writeFileSync(join(root, 'src', 'odd [name]*.txt'), 'glob characters are a file name\n');
      writeFileSync(join(root, 'node_modules', 'dep', 'index.js'), 'dep\n');
      writeFileSync(join(root, 'build', 'out.js'), 'built\n');
      writeFileSync(join(root, '.gitignore'), 'build/\n');
      writeFileSync(join(root, 'big.bin'), Buffer.alloc(2048, 7));
      const repo = new ShadowRepo(home, root, 1024);
      const first = await repo.snapshot('refs/cove/test/one');
      assert.equal(first.created, true);
      assert.deepEqual(first.large, ['big.bin']);
      const files = [...(await repo.entries(first.commit)).keys()].sort();
      assert.deepEqual(files, ['.gitignore', 'src/a.ts', 'src/odd [name]*.txt']);

      writeFileSync(join(root, 'src', 'a.ts'), 'two\n');
      rmSync(join(root, 'src', 'odd [name]*.txt'));
      mkdirSync(join(root, 'fresh', 'deep'), { recursive: true });
      writeFileSync(join(root, 'fresh', 'deep', 'n.txt'), 'new\n');
      writeFileSync(join(root, 'run.sh'), '#!/bin/sh\n');
      chmodSync(join(root, 'run.sh'), 0o755);
      const second = await repo.snapshot('refs/cove/test/two');
      assert.equal(second.created, false);
      const changes = (await repo.changes(first.commit, second.commit)).map((change) => `${change.status} ${change.path}`).sort();
      assert.deepEqual(changes, ['A fresh/deep/n.txt', 'A run.sh', 'D src/odd [name]*.txt', 'M src/a.ts']);
      const entries = await repo.entries(second.commit, ['run.sh', 'src/a.ts']);
      assert.equal(entries.get('run.sh')?.mode, '100755');
      assert.equal((await repo.blob(entries.get('src/a.ts')!.sha)).toString(), 'two\n');
      assert.deepEqual(await repo.largeAt(second.commit), ['big.bin']);
      assert.match(await repo.diff(first.commit, second.commit, ['src/a.ts']), /-one\n\+two\n/);

      // Shrunk under the cap: recorded from the next snapshot on.
      writeFileSync(join(root, 'big.bin'), 'small now\n');
      await repo.snapshot('refs/cove/test/three');
      const third = await repo.snapshot('refs/cove/test/four');
      assert.deepEqual(third.large, []);
      assert.ok((await repo.entries(third.commit)).has('big.bin'));
    } finally {
      rmSync(home, { recursive: true, force: true });
      rmSync(root, { recursive: true, force: true });
    }
  });

  test("never touches the person's own repository: HEAD, refs, objects, index and status stay as they were", async () => {
    const home = tempDir('cove-cp-home-');
    const root = tempDir('cove-cp-root-');
    try {
      userGit(root, 'init', '-q');
      writeFileSync(join(root, 'kept.txt'), 'committed\n');
      userGit(root, 'add', 'kept.txt');
      userGit(root, 'commit', '-q', '-m', 'first');
      writeFileSync(join(root, 'kept.txt'), 'edited, not staged\n');
      writeFileSync(join(root, 'loose.txt'), 'untracked\n');
      // The person's own `git status` refreshes their index, so it runs before anything is taken.
      const statusBefore = userGit(root, 'status', '--porcelain');
      const gitBefore = fingerprint(join(root, '.git'));
      const indexMtime = statSync(join(root, '.git', 'index')).mtimeMs;
      const repo = new ShadowRepo(home, root);
      const snapshot = await repo.snapshot('refs/cove/test/one');
      assert.deepEqual([...(await repo.entries(snapshot.commit)).keys()].sort(), ['kept.txt', 'loose.txt']);
      assert.deepEqual(fingerprint(join(root, '.git')), gitBefore);
      assert.equal(statSync(join(root, '.git', 'index')).mtimeMs, indexMtime);
      assert.equal(userGit(root, 'status', '--porcelain'), statusBefore);
    } finally {
      rmSync(home, { recursive: true, force: true });
      rmSync(root, { recursive: true, force: true });
    }
  });

  test('two processes on one root wait for each other; a lock a crashed one left is cleared', async () => {
    const home = tempDir('cove-cp-home-');
    const root = tempDir('cove-cp-root-');
    try {
      const files = Array.from({ length: 300 }, (_, index) => `f${index}.txt`);
      for (const file of files) writeFileSync(join(root, file), `${file}\n`);
      const one = new ShadowRepo(home, root);
      const two = new ShadowRepo(home, root);
      await one.ensure();
      const [a, b] = await Promise.all([one.snapshot('one'), two.snapshot('two')]);
      assert.equal((await one.entries(b.commit)).size, files.length);
      assert.equal((await one.entries(a.commit)).size, files.length);

      const lock = join(one.gitDir, 'index.lock');
      writeFileSync(lock, '');
      const old = new Date(Date.now() - 120_000);
      utimesSync(lock, old, old);
      writeFileSync(join(root, 'f0.txt'), 'changed\n');
      const after = await one.snapshot('after a crash');
      assert.deepEqual(
        (await one.changes(b.commit, after.commit)).map((change) => change.path),
        ['f0.txt'],
      );
    } finally {
      rmSync(home, { recursive: true, force: true });
      rmSync(root, { recursive: true, force: true });
    }
  });

  test('a workspace too big for one checkpoint (a home folder) is refused whole, saying why, and nothing is copied', async () => {
    const home = tempDir('cove-cp-home-');
    const root = tempDir('cove-cp-root-');
    try {
      for (let index = 0; index < 6; index++) writeFileSync(join(root, `f${index}.txt`), 'x\n');
      const repo = new ShadowRepo(home, root, 1024, { files: 5, bytes: 1_000_000 });
      await assert.rejects(repo.snapshot('too many'), /6 files \(12 bytes\) changed since the last checkpoint, more than one checkpoint copies \(5 files/);
      assert.deepEqual(
        readdirSync(join(repo.gitDir, 'objects')).filter((name) => /^[0-9a-f]{2}$/.test(name)),
        [],
      );
    } finally {
      rmSync(home, { recursive: true, force: true });
      rmSync(root, { recursive: true, force: true });
    }
  });

  test('a COVE_HOME inside the workspace is never recorded into itself', async () => {
    const root = tempDir('cove-cp-root-');
    try {
      const home = join(root, '.cove-home');
      writeFileSync(join(root, 'a.txt'), 'a\n');
      const repo = new ShadowRepo(home, root);
      await repo.snapshot('refs/cove/test/one');
      const second = await repo.snapshot('refs/cove/test/two');
      assert.deepEqual([...(await repo.entries(second.commit)).keys()], ['a.txt']);
    } finally {
      rmSync(root, { recursive: true, force: true });
    }
  });
});
