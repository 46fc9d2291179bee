/**
 * Checkpoints and rewind through the built `cove run` and `cove rewind`: a session writes,
 * edits, deletes a folder with bash and makes new ones over two prompts; a rewind puts every
 * file back byte for byte, and the person's own git repository (HEAD, refs, objects, index,
 * status) is exactly as it was. Files changed by hand are named, not overwritten.
 */
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { chmodSync, existsSync, lstatSync, mkdirSync, readdirSync, readFileSync, readlinkSync, symlinkSync, writeFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import type { CoveEvent } from '../../shared/events';
import { block, reply } from '../support/model-server';
import { cliFixture, type CliFixture } from '../support/cove-cli';

/** Every folder and file under `dir` (the user's .git apart) with its mode and the hash of its bytes. */
function tree(dir: string): Record<string, string> {
  const out: Record<string, string> = {};
  const walk = (folder: string) => {
    for (const entry of readdirSync(folder, { withFileTypes: true })) {
      const path = join(folder, entry.name);
      const name = relative(dir, path);
      if (name === '.git') continue;
      const mode = (lstatSync(path).mode & 0o777).toString(8);
      if (entry.isSymbolicLink()) out[name] = `link ${readlinkSync(path)}`;
      else if (entry.isDirectory()) {
        out[`${name}/`] = mode;
        walk(path);
      } else out[name] = `${mode} ${createHash('sha256').update(readFileSync(path)).digest('hex')}`;
    }
  };
  walk(dir);
  return out;
}

const gitEnv = { ...process.env, GIT_CONFIG_GLOBAL: '/dev/null', GIT_AUTHOR_NAME: 't', GIT_AUTHOR_EMAIL: 't@t', GIT_COMMITTER_NAME: 't', GIT_COMMITTER_EMAIL: 't@t' };
const userGit = (root: string, ...args: string[]) => execFileSync('git', ['-C', root, ...args], { encoding: 'utf8', env: gitEnv });

/** The person's repository as git and the disk see it. */
function repositoryState(root: string) {
  const objects: string[] = [];
  const walk = (folder: string) => {
    for (const entry of readdirSync(folder, { withFileTypes: true })) {
      if (entry.isDirectory()) walk(join(folder, entry.name));
      else objects.push(relative(root, join(folder, entry.name)));
    }
  };
  walk(join(root, '.git', 'objects'));
  // The index is read before any git command runs: the person's own `git status` may rewrite it.
  const index = createHash('sha256')
    .update(readFileSync(join(root, '.git', 'index')))
    .digest('hex');
  return {
    index,
    head: userGit(root, 'rev-parse', 'HEAD'),
    refs: userGit(root, 'show-ref'),
    objects: objects.sort(),
    status: userGit(root, 'status', '--porcelain', '--untracked-files=all'),
  };
}

/** A repository with committed, edited, untracked, ignored and executable files and a folder to delete. */
function populate(root: string): void {
  mkdirSync(join(root, 'src'));
  mkdirSync(join(root, 'olddir', 'inner'), { recursive: true });
  mkdirSync(join(root, 'node_modules', 'dep'), { recursive: true });
  // Git keeps no folders: this one is deleted by the run and must come back all the same.
  mkdirSync(join(root, 'emptydir'));
  writeFileSync(join(root, 'src', 'app.ts'), 'export const answer = 41;\n');
  writeFileSync(join(root, 'olddir', 'a.txt'), 'old a\n');
  writeFileSync(join(root, 'olddir', 'inner', 'b.bin'), Buffer.from([0, 1, 2, 255, 0, 10]));
  writeFileSync(join(root, 'run.sh'), '#!/bin/sh\necho run\n');
  writeFileSync(join(root, '.gitignore'), 'node_modules/\n');
  // Line endings git would convert, a private file and a link: all must come back as they were.
  writeFileSync(join(root, '.gitattributes'), '* text=auto eol=lf\n');
  writeFileSync(join(root, 'windows.txt'), 'first\r\nsecond\r\n');
  writeFileSync(join(root, 'private.key'), 'key one\n', { mode: 0o600 });
  chmodSync(join(root, 'private.key'), 0o600);
  symlinkSync('src/app.ts', join(root, 'link-to-app'));
  writeFileSync(join(root, 'node_modules', 'dep', 'index.js'), 'module.exports = 1;\n');
  userGit(root, 'init', '-q');
  userGit(root, 'add', '-A');
  userGit(root, 'commit', '-q', '-m', 'start');
  writeFileSync(join(root, 'src', 'app.ts'), 'export const answer = 42; // edited, not committed\n');
  writeFileSync(join(root, 'notes.txt'), 'untracked notes\n');
}

function sessionOf(events: CoveEvent[]): string {
  const id = events[0]?.sessionId;
  assert.ok(id, 'the run printed its events');
  return id;
}

async function twoPrompts(f: CliFixture): Promise<string> {
  const first = await f.home.run(['run', '--json', '--workspace', f.workspace, '--permission-mode', 'bypass', 'change things']);
  assert.equal(first.code, 0, first.stderr);
  const ends = first.events.filter((event) => event.type === 'toolExecutionEnd');
  assert.equal(ends.length, 3);
  for (const end of ends) assert.equal(end.type === 'toolExecutionEnd' && end.isError, false, JSON.stringify(end));
  const checkpoints = first.events.filter((event) => event.type === 'checkpoint');
  assert.deepEqual(
    checkpoints.map((event) => event.type === 'checkpoint' && event.moment),
    ['beforeTool', 'beforeTool', 'beforeTool', 'runEnd'],
  );
  const id = sessionOf(first.events);
  const second = await f.home.run(['run', '--json', '--resume', id, '--permission-mode', 'bypass', 'one more']);
  assert.equal(second.code, 0, second.stderr);
  assert.equal(readFileSync(join(f.workspace, 'later.txt'), 'utf8'), 'second prompt\n');
  return id;
}

const SCRIPT = [
  reply.message([
    block.toolUse('write_file', { path: 'src/new.ts', content: 'export const fresh = true;\n' }, { id: 'toolu_write' }),
    block.toolUse('edit_file', { path: 'src/app.ts', old_text: '42', new_text: '43' }, { id: 'toolu_edit' }),
  ]),
  reply.message([
    block.toolUse(
      'bash',
      {
        command:
          'rm -rf olddir link-to-app && rmdir emptydir && mkdir -p newempty/inner made/deep && echo hi > made/deep/x.txt && rm notes.txt && chmod +x run.sh && printf "changed\\n" > windows.txt && echo two > private.key',
      },
      { id: 'toolu_bash' },
    ),
  ]),
  reply.text('done'),
  reply.message([block.toolUse('write_file', { path: 'later.txt', content: 'second prompt\n' }, { id: 'toolu_later' })]),
  reply.text('done again'),
  reply.text('noted'),
];

describe('cove rewind', () => {
  test('puts back every file as before the first prompt, byte for byte, and leaves the user repository untouched', async () => {
    const f = await cliFixture(SCRIPT);
    try {
      populate(f.workspace);
      chmodSync(join(f.workspace, 'run.sh'), 0o644);
      const before = tree(f.workspace);
      // Lets git settle its index's stat cache once, as the person's next `git status` would.
      userGit(f.workspace, 'status', '--porcelain');
      const repository = repositoryState(f.workspace);
      const id = await twoPrompts(f);
      assert.equal(existsSync(join(f.workspace, 'olddir')), false);
      assert.equal(existsSync(join(f.workspace, 'emptydir')), false);
      assert.ok(lstatSync(join(f.workspace, 'newempty', 'inner')).isDirectory());
      assert.equal(readFileSync(join(f.workspace, 'made', 'deep', 'x.txt'), 'utf8'), 'hi\n');

      const changed = tree(f.workspace);
      const listed = await f.home.run(['sessions', '--changes', id, '--json']);
      assert.equal(listed.code, 0, listed.stderr);
      const changes = JSON.parse(listed.stdout) as { prompts: Array<{ prompt: number; files: Array<{ path: string; change: string; diff: string }> }>; session: Array<{ path: string }> };
      const summary = (files: Array<{ path: string; change: string }>) => files.map((file) => `${file.change} ${file.path}`).sort();
      assert.deepEqual(summary(changes.prompts[0]!.files), [
        'added made/deep/x.txt',
        'added src/new.ts',
        'deleted link-to-app',
        'deleted notes.txt',
        'deleted olddir/a.txt',
        'deleted olddir/inner/b.bin',
        'modified private.key',
        'modified run.sh',
        'modified src/app.ts',
        'modified windows.txt',
      ]);
      assert.deepEqual(summary(changes.prompts[1]!.files), ['added later.txt']);
      assert.equal(changes.session.length, 11);
      assert.match(changes.prompts[0]!.files.find((file) => file.path === 'src/app.ts')!.diff, /-export const answer = 42;.*\n\+export const answer = 43;/);
      const text = await f.home.run(['sessions', '--changes', id]);
      assert.match(text.stdout, /prompt 1: change things\n(.*\n)* {2}M \S+\/src\/app\.ts\n/);
      const dry = await f.home.run(['rewind', id, '--to', '1', '--dry-run']);
      assert.equal(dry.code, 0, dry.stderr);
      assert.match(dry.stdout, /would put back .* before prompt 1 \("change things"\)/);
      for (const line of [
        /restore +\S+\/olddir\/inner\/b\.bin/,
        /remove +\S+\/made\/deep\/x\.txt/,
        /revert +\S+\/src\/app\.ts/,
        /remove +\S+\/later\.txt/,
        /restore +\S+\/notes\.txt/,
        /restore +\S+\/emptydir\/ /,
        /remove +\S+\/newempty\/inner\/ /,
      ])
        assert.match(dry.stdout, line);
      assert.deepEqual(tree(f.workspace), changed, 'a dry run changes nothing');

      const rewound = await f.home.run(['rewind', id, '--to', '1']);
      assert.equal(rewound.code, 0, `${rewound.stdout}\n${rewound.stderr}`);
      assert.deepEqual(tree(f.workspace), before);
      assert.deepEqual(repositoryState(f.workspace), repository);

      // The conversation goes on, and the model is told what the rewind undid.
      const resumed = await f.home.run(['run', '--json', '--resume', id, 'what now?']);
      assert.equal(resumed.code, 0, resumed.stderr);
      const sent = JSON.stringify(f.server.requests.at(-1)!.body.messages.at(-1));
      assert.match(sent, /\[Cove\] The person rewound the workspace files to how they were before their prompt 1 \(\\"change things\\"\)/);
      assert.match(sent, /what now\?/);
    } finally {
      await f.close();
    }
  });

  test('a file changed by hand since is named and kept unless --force; a file no checkpoint knows is never removed', async () => {
    const f = await cliFixture(SCRIPT);
    try {
      populate(f.workspace);
      const before = tree(f.workspace);
      const id = await twoPrompts(f);
      const latest = await f.home.run(['rewind', id]);
      assert.equal(latest.code, 0, `${latest.stdout}\n${latest.stderr}`);
      assert.match(latest.stdout, /before prompt 2/);
      assert.equal(existsSync(join(f.workspace, 'later.txt')), false);

      writeFileSync(join(f.workspace, 'src', 'new.ts'), 'my own edit\n');
      writeFileSync(join(f.workspace, 'mine.txt'), 'made by hand, after the runs\n');

      const refused = await f.home.run(['rewind', id, '--to', '1']);
      assert.equal(refused.code, 1);
      assert.match(refused.stderr, /changed by hand .*src\/new\.ts.*--force/);
      assert.equal(readFileSync(join(f.workspace, 'src', 'new.ts'), 'utf8'), 'my own edit\n');
      assert.ok(existsSync(join(f.workspace, 'made', 'deep', 'x.txt')), 'a refused rewind changes nothing');

      const forced = await f.home.run(['rewind', id, '--to', '1', '--force']);
      assert.equal(forced.code, 0, forced.stderr);
      assert.match(forced.stdout, /keep +\S+\/mine\.txt: no checkpoint knows it/);
      assert.equal(readFileSync(join(f.workspace, 'mine.txt'), 'utf8'), 'made by hand, after the runs\n');
      const after = tree(f.workspace);
      delete after['mine.txt'];
      assert.deepEqual(after, before);
    } finally {
      await f.close();
    }
  });

  test('bad input: an unknown session, a prompt out of range and a bad --to are one clear line each; a folder that is not a git repository rewinds too', async () => {
    const f = await cliFixture([reply.message([block.toolUse('write_file', { path: 'a.txt', content: 'a\n' }, { id: 'toolu_a' })]), reply.text('ok')]);
    try {
      const unknown = await f.home.run(['rewind', 'no-such-session']);
      assert.equal(unknown.code, 2);
      assert.match(unknown.stderr, /no-such-session: no such session/);
      const bad = await f.home.run(['rewind', 'x', '--to', 'two']);
      assert.equal(bad.code, 2);
      assert.match(bad.stderr, /--to must be a prompt number/);
      const run = await f.home.run(['run', '--json', '--workspace', f.workspace, '--permission-mode', 'bypass', 'write']);
      assert.equal(run.code, 0, run.stderr);
      const range = await f.home.run(['rewind', sessionOf(run.events), '--to', '5']);
      assert.equal(range.code, 2);
      assert.match(range.stderr, /there is no prompt 5 in this session \(it has 1\)/);
      assert.ok(existsSync(join(f.workspace, 'a.txt')));
      // The workspace is not a git repository: its checkpoints work all the same.
      const rewound = await f.home.run(['rewind', sessionOf(run.events)]);
      assert.equal(rewound.code, 0, rewound.stderr);
      assert.equal(existsSync(join(f.workspace, 'a.txt')), false);
      assert.deepEqual(readdirSync(f.workspace), []);
    } finally {
      await f.close();
    }
  });
});
