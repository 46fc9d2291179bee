/**
 * A worktree per session through the built `cove`: two `cove run --worktree` sessions at once in
 * one repository, each with its own scripted model server, edit the same file. Until a merge the
 * person's tree, HEAD, index and status are exactly as they were; `cove sessions --changes`
 * shows each branch against its base; the first merge brings its change, the second would
 * conflict and is refused with the repository left as it was (not mid-merge); a discard leaves
 * no worktree and no branch behind.
 */
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { CoveEvent } from '../../shared/events';
import { block, reply, startModelServer } from '../support/model-server';
import { cliFixture } from '../support/cove-cli';

const gitEnv = { ...process.env, GIT_CONFIG_GLOBAL: '/dev/null', GIT_AUTHOR_NAME: 't', GIT_AUTHOR_EMAIL: 't@t', GIT_COMMITTER_NAME: 't', GIT_COMMITTER_EMAIL: 't@t' };
const userGit = (root: string, ...args: string[]) => execFileSync('git', ['-C', root, ...args], { encoding: 'utf8', env: gitEnv });

function repositoryState(root: string) {
  return {
    index: createHash('sha256')
      .update(readFileSync(join(root, '.git', 'index')))
      .digest('hex'),
    head: userGit(root, 'rev-parse', 'HEAD'),
    branch: userGit(root, 'symbolic-ref', '--short', 'HEAD'),
    status: userGit(root, 'status', '--porcelain', '--untracked-files=all'),
    shared: readFileSync(join(root, 'shared.txt'), 'utf8'),
  };
}

const editing = (content: string, extra?: string) => [
  reply.message([
    block.toolUse('write_file', { path: 'shared.txt', content }, { id: 'toolu_shared' }),
    ...(extra ? [block.toolUse('write_file', { path: extra, content: `${extra}\n` }, { id: 'toolu_extra' })] : []),
  ]),
  reply.text('edited'),
];

function sessionOf(events: CoveEvent[]): string {
  const id = events[0]?.sessionId;
  assert.ok(id, 'the run printed its events');
  return id;
}

describe('cove run --worktree', () => {
  test('two sessions at once in one repository never touch each other nor the person’s tree; merge, a refused conflict, discard', async () => {
    const f = await cliFixture(editing('from A\n', 'only-a.txt'));
    const second = await startModelServer(editing('from B\n'));
    try {
      const repo = join(f.workspace, 'repo');
      mkdirSync(repo);
      userGit(repo, 'init', '-q', '-b', 'main');
      writeFileSync(join(repo, 'shared.txt'), 'base\n');
      userGit(repo, 'add', '-A');
      userGit(repo, 'commit', '-q', '-m', 'start');
      userGit(repo, 'status', '--porcelain');
      const before = repositoryState(repo);

      const args = ['run', '--json', '--worktree', '--workspace', repo, '--permission-mode', 'bypass'];
      const [a, b] = await Promise.all([f.home.run([...args, 'edit as A']), f.home.run([...args, 'edit as B'], { env: { ANTHROPIC_BASE_URL: second.url } })]);
      assert.equal(a.code, 0, a.stderr);
      assert.equal(b.code, 0, b.stderr);
      const [idA, idB] = [sessionOf(a.events), sessionOf(b.events)];
      for (const run of [a, b]) {
        const ends = run.events.filter((event) => event.type === 'toolExecutionEnd');
        assert.ok(ends.length > 0 && ends.every((event) => event.type === 'toolExecutionEnd' && !event.isError), JSON.stringify(ends));
        assert.match(run.stderr, /works in a worktree of its own, \S+\/worktrees\/\w+\//);
      }
      assert.deepEqual(repositoryState(repo), before, 'the person’s tree, HEAD, index and status are untouched until a merge');
      const worktrees = userGit(repo, 'worktree', 'list', '--porcelain');
      assert.equal(worktrees.match(/^worktree /gm)?.length, 3);
      assert.ok(!worktrees.includes(`worktree ${repo}/`), 'no worktree inside the person’s tree');
      assert.equal(userGit(repo, 'branch', '--list', 'cove/*').trim().split('\n').length, 2);

      const listed = await f.home.run(['sessions', '--changes', idA, '--json']);
      assert.equal(listed.code, 0, listed.stderr);
      const changes = JSON.parse(listed.stdout) as { worktree: { branch: string; baseBranch: string; files: Array<{ path: string; change: string; diff: string }> } };
      assert.equal(changes.worktree.baseBranch, 'main');
      assert.match(changes.worktree.branch, /^cove\/\w{8}$/);
      assert.deepEqual(
        changes.worktree.files.map((file) => `${file.change} ${file.path}`),
        ['added only-a.txt', 'modified shared.txt'],
      );
      assert.match(changes.worktree.files[1]!.diff, /-base\n\+from A/);

      const merged = await f.home.run(['sessions', '--merge', idA]);
      assert.equal(merged.code, 0, merged.stderr);
      assert.equal(readFileSync(join(repo, 'shared.txt'), 'utf8'), 'from A\n');
      assert.equal(readFileSync(join(repo, 'only-a.txt'), 'utf8'), 'only-a.txt\n');
      assert.equal(userGit(repo, 'status', '--porcelain'), '', 'a merge leaves the tree clean');
      const afterMerge = repositoryState(repo);
      assert.notEqual(afterMerge.head, before.head);

      const conflict = await f.home.run(['sessions', '--merge', idB]);
      assert.equal(conflict.code, 1);
      assert.match(conflict.stderr, /would conflict in shared\.txt; nothing was changed/);
      assert.deepEqual(repositoryState(repo), afterMerge, 'a refused merge changes nothing');
      assert.equal(existsSync(join(repo, '.git', 'MERGE_HEAD')), false, 'never left mid-merge');

      const discarded = await f.home.run(['sessions', '--discard', idB]);
      assert.equal(discarded.code, 0, discarded.stderr);
      assert.equal(userGit(repo, 'worktree', 'list', '--porcelain').match(/^worktree /gm)?.length, 1);
      assert.equal(userGit(repo, 'branch', '--list', 'cove/*'), '');
      assert.deepEqual(readdirSync(join(f.home.path, 'worktrees')), []);
      assert.deepEqual(repositoryState(repo), afterMerge);

      // Both sessions work in the person's folder again.
      const sessions = await f.home.run(['sessions', '--json']);
      for (const line of sessions.stdout.trim().split('\n')) assert.deepEqual((JSON.parse(line) as { workspaces: string[] }).workspaces, [repo]);
      const again = await f.home.run(['sessions', '--merge', idB]);
      assert.equal(again.code, 1);
      assert.match(again.stderr, /has no worktree of its own/);
    } finally {
      await second.close();
      await f.close();
    }
  });

  test('a folder that is not a git repository: refused by name, no session made', async () => {
    const f = await cliFixture([reply.text('never')]);
    try {
      const run = await f.home.run(['run', '--worktree', '--workspace', f.workspace, 'hello']);
      assert.equal(run.code, 2);
      assert.match(run.stderr, /--worktree: no worktree for this session: \S+ is not in a git repository/);
      const sessions = await f.home.run(['sessions', '--json']);
      assert.equal(sessions.stdout.trim(), '');
      assert.equal(f.server.requests.length, 0);
    } finally {
      await f.close();
    }
  });
});
