/**
 * Checkpoints staged from a file watcher's list, against real folders, real inotify and real
 * git: after every change (by hand or by a shell command that has just exited) the watched
 * repository records exactly what a second repository that asks git status about the whole
 * tree records. Lost events fall back to that walk and say so.
 */
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync, spawn } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ShadowRepo, type Snapshot } from '../../electron/core/checkpoints/shadow-repo';
import type { WatcherLimits } from '../../electron/core/checkpoints/workspace-watcher';

const linux = process.platform === 'linux';
const skipReason = linux ? false : 'the watcher runs on Linux only (elsewhere every checkpoint asks git status)';

function tempDir(prefix: string): string {
  return mkdtempSync(join(tmpdir(), prefix));
}

function sh(root: string, script: string): void {
  execFileSync('sh', ['-c', script], { cwd: root, env: { ...process.env, GIT_CONFIG_GLOBAL: '/dev/null' } });
}

/** A watched repository and a walking one on the same root; `both` checks they agree. */
function pair(root: string, limits?: Partial<WatcherLimits>) {
  const homes = [tempDir('cove-watch-home-'), tempDir('cove-walk-home-')];
  const watched = new ShadowRepo(homes[0]!, root, 1024);
  watched.watchChanges(limits);
  const walked = new ShadowRepo(homes[1]!, root, 1024);
  const files = async (repo: ShadowRepo, commit: string) => JSON.stringify([...(await repo.entries(commit))].sort());
  return {
    watched,
    async both(step: string): Promise<Snapshot> {
      const seen = await watched.snapshot(step);
      const walk = await walked.snapshot(step);
      assert.equal(await files(watched, seen.commit), await files(walked, walk.commit), `${step}: the files recorded differ`);
      assert.deepEqual(seen.emptyFolders, walk.emptyFolders, `${step}: the empty folders differ`);
      assert.deepEqual(seen.large, walk.large, `${step}: the large files differ`);
      assert.deepEqual(seen.skipped, walk.skipped, `${step}: what was skipped differs`);
      return seen;
    },
    close() {
      watched.close();
      for (const home of homes) rmSync(home, { recursive: true, force: true });
    },
  };
}

describe('checkpoints from a file watcher', { skip: skipReason }, () => {
  test('every kind of change, by hand or by a command that just exited, is recorded as a full walk records it', async () => {
    const root = tempDir('cove-watch-root-');
    const outside = tempDir('cove-watch-outside-');
    const repos = pair(root);
    try {
      mkdirSync(join(root, 'src', 'lib'), { recursive: true });
      writeFileSync(join(root, 'src', 'a.ts'), 'a\n');
      writeFileSync(join(root, 'src', 'b.ts'), 'b\n');
      writeFileSync(join(root, 'src', 'lib', 'c.ts'), 'c\n');
      writeFileSync(join(root, '.gitignore'), 'build/\n*.log\n');
      assert.equal((await repos.both('first')).watched, undefined, 'the first checkpoint walks the tree');

      writeFileSync(join(root, 'src', 'a.ts'), 'a, edited by hand\n');
      assert.equal((await repos.both('hand edit')).watched, true);

      // Checkpointed the moment the command exits: its events may not have been read yet.
      sh(root, 'mkdir -p new/deep/er && for i in $(seq 1 300); do echo $i > new/deep/er/f$i.txt; done; echo top > new/top.txt; mkdir empty-one; rm src/b.ts');
      assert.equal((await repos.both('a command that made a tree')).watched, true);

      sh(root, 'echo log > debug.log; mkdir -p build/x && echo o > build/x/o.js; mkdir -p node_modules/p && echo i > node_modules/p/i.js; mkdir -p src/.venv && echo v > src/.venv/v');
      const ignored = await repos.both('ignored files');
      assert.equal(ignored.watched, true);
      assert.ok(![...(await repos.watched.entries(ignored.commit)).keys()].some((path) => /debug\.log|build\/|node_modules|\.venv/.test(path)));

      sh(root, `rm -rf new/deep && mv src/lib ${outside}/lib && rmdir empty-one && mkdir -p e1/e2`);
      assert.equal((await repos.both('folders deleted, moved out, made')).watched, true);

      sh(root, 'rmdir e1/e2; rm src/a.ts && mkdir src/a.ts && echo in > src/a.ts/in; ln -s src/a.ts/in link; head -c 2048 /dev/zero > big.bin');
      assert.equal((await repos.both('a file made a folder, a symlink, a large file')).watched, true);

      sh(root, `mv ${outside}/lib src/lib; rm -r src/a.ts && echo back > src/a.ts; echo small > big.bin; rm link`);
      assert.equal((await repos.both('moved back in, a folder made a file, a large file shrunk')).watched, true);

      writeFileSync(join(root, '.gitignore'), 'build/\n');
      const unignored = await repos.both('.gitignore edited');
      assert.equal(unignored.watched, undefined, 'an edited .gitignore is answered by git status');
      assert.equal(unignored.lostTrack, undefined);

      sh(root, 'mkdir nested && cd nested && git init -q && echo n > n.txt');
      assert.equal((await repos.both('a repository made inside')).watched, undefined);
      writeFileSync(join(root, 'after.txt'), 'after\n');
      assert.equal((await repos.both('after the nested repository')).watched, true);
    } finally {
      repos.close();
      rmSync(root, { recursive: true, force: true });
      rmSync(outside, { recursive: true, force: true });
    }
  });

  test('more changes than the watcher keeps: that checkpoint walks the tree and says why; the next one is watched again', async () => {
    const root = tempDir('cove-watch-root-');
    const repos = pair(root, { maxChanges: 50 });
    try {
      writeFileSync(join(root, 'a.txt'), 'a\n');
      await repos.both('first');
      sh(root, 'mkdir many && for i in $(seq 1 120); do echo $i > many/f$i; done');
      const flood = await repos.both('a flood of changes');
      assert.equal(flood.watched, undefined);
      assert.match(flood.lostTrack ?? '', /more than 50 paths changed/);
      writeFileSync(join(root, 'a.txt'), 'a, again\n');
      const next = await repos.both('after the flood');
      assert.equal(next.watched, true);
      assert.equal(next.lostTrack, undefined);
    } finally {
      repos.close();
      rmSync(root, { recursive: true, force: true });
    }
  });

  test('a watcher that cannot start (too many folders) says so once; every checkpoint then walks the tree', async () => {
    const root = tempDir('cove-watch-root-');
    const repos = pair(root, { maxFolders: 2 });
    try {
      sh(root, 'mkdir -p a b c && echo a > a/f && echo b > b/f');
      const first = await repos.both('first');
      assert.match(first.lostTrack ?? '', /could not start \(more than 2 folders to watch\)/);
      writeFileSync(join(root, 'c', 'f'), 'c\n');
      const second = await repos.both('second');
      assert.equal(second.watched, undefined);
      assert.equal(second.lostTrack, undefined, 'said once, not by every checkpoint');
    } finally {
      repos.close();
      rmSync(root, { recursive: true, force: true });
    }
  });

  test('a session that never closes its checkpoints still lets the process exit', async () => {
    const root = tempDir('cove-watch-root-');
    const home = tempDir('cove-watch-home-');
    const script = join(home, 'run.mts');
    try {
      writeFileSync(join(root, 'a.txt'), 'a\n');
      const module = join(process.cwd(), 'electron/core/checkpoints/shadow-repo.ts');
      writeFileSync(
        script,
        `import { ShadowRepo } from ${JSON.stringify(module)};\nimport { writeFileSync } from 'node:fs';\nconst repo = new ShadowRepo(${JSON.stringify(home)}, ${JSON.stringify(root)});\nrepo.watchChanges();\nawait repo.snapshot('one');\nwriteFileSync(${JSON.stringify(join(root, 'a.txt'))}, 'b');\nconst second = await repo.snapshot('two');\nconsole.log(second.watched ? 'watched' : 'walked');\n`,
      );
      const child = spawn(process.execPath, ['--import', 'tsx', script], { stdio: ['ignore', 'pipe', 'inherit'] });
      let out = '';
      child.stdout.on('data', (chunk: Buffer) => (out += chunk.toString()));
      const timer = setTimeout(() => child.kill('SIGKILL'), 30_000);
      const [code, signal] = await new Promise<[number | null, NodeJS.Signals | null]>((resolve) => child.on('exit', (...result) => resolve(result)));
      clearTimeout(timer);
      assert.equal(signal, null, 'the watcher kept the process alive after its work was done');
      assert.equal(code, 0);
      assert.equal(out.trim(), 'watched');
    } finally {
      rmSync(root, { recursive: true, force: true });
      rmSync(home, { recursive: true, force: true });
    }
  });
});
