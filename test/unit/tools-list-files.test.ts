import { test, describe, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { symlinkSync } from 'node:fs';
import { join } from 'node:path';
import { listFilesTool, MAX_LISTED } from '../../electron/core/tools/list-files';
import { makeContext, removeFolder, tempFolder, textOf, toolError, writeTree } from './helpers/tool-context';

let base: string;
let root: string;

before(() => {
  base = tempFolder('list', {
    'outside/secret.txt': 'x',
    'ws/.gitignore': 'dist/\n*.log\n!keep.log\n',
    'ws/.git/HEAD': 'ref: refs/heads/main\n',
    'ws/.github/workflows/ci.yml': 'on: push\n',
    'ws/README.md': '# hi\n',
    'ws/debug.log': 'noise\n',
    'ws/keep.log': 'kept\n',
    'ws/dist/out.js': 'built\n',
    'ws/node_modules/pkg/index.js': 'dep\n',
    'ws/src/.gitignore': 'generated.ts\n',
    'ws/src/generated.ts': 'gen\n',
    'ws/src/a.ts': 'a\n',
    'ws/src/b.ts': 'b\n',
    'ws/src/b.test.ts': 'b\n',
    'ws/src/lib/c.ts': 'c\n',
    'ws/src/lib/node_modules/x.js': 'nested dependency\n',
    'ws/src/lib/deep/d.ts': 'd\n',
    'ws/src/lib/deep/deeper/e.ts': 'e\n',
  });
  root = join(base, 'ws');
  symlinkSync(join(base, 'outside'), join(root, 'escape'));
});

after(() => removeFolder(base));

const list = async (params: { path?: string; pattern?: string; max_depth?: number }) => textOf(await listFilesTool.execute(params, makeContext([root])));

describe('list_files', () => {
  test('tree order, folders marked, .gitignore (root and nested, with negation) honoured, .git and node_modules skipped', async () => {
    assert.equal(
      await list({}),
      [
        '.github/',
        '.github/workflows/',
        '.github/workflows/ci.yml',
        '.gitignore',
        'README.md',
        'escape/',
        'keep.log',
        'src/',
        'src/.gitignore',
        'src/a.ts',
        'src/b.test.ts',
        'src/b.ts',
        'src/lib/',
        'src/lib/c.ts',
        'src/lib/deep/',
        '(folders at depth 3 were not expanded; raise max_depth or list one of them to see inside)',
      ].join('\n'),
    );
  });

  test('a symlinked folder is listed but not followed out of the workspace', async () => {
    assert.doesNotMatch(await list({ max_depth: 10 }), /secret/);
  });

  test('pattern without a slash matches names at any depth', async () => {
    assert.equal(await list({ pattern: '*.ts', max_depth: 10 }), ['src/a.ts', 'src/b.test.ts', 'src/b.ts', 'src/lib/c.ts', 'src/lib/deep/d.ts', 'src/lib/deep/deeper/e.ts'].join('\n'));
    assert.equal(await list({ pattern: '*.{yml,md}', max_depth: 10 }), ['.github/workflows/ci.yml', 'README.md'].join('\n'));
  });

  test('pattern with a slash matches the path relative to the listed folder', async () => {
    assert.equal(await list({ path: 'src', pattern: 'lib/*.ts', max_depth: 2 }), 'src/lib/c.ts\n(folders at depth 2 were not expanded; raise max_depth or list one of them to see inside)');
    assert.equal(await list({ path: 'src/', pattern: 'lib/**/*.ts', max_depth: 10 }), ['src/lib/c.ts', 'src/lib/deep/d.ts', 'src/lib/deep/deeper/e.ts'].join('\n'));
  });

  test('max_depth 1 lists only the folder itself', async () => {
    assert.equal(
      await list({ path: 'src/lib', max_depth: 1 }),
      ['src/lib/c.ts', 'src/lib/deep/', '(folders at depth 1 were not expanded; raise max_depth or list one of them to see inside)'].join('\n'),
    );
  });

  test('nothing matching says so', async () => {
    assert.equal(await list({ pattern: '*.rs', max_depth: 10 }), '(nothing under . matches *.rs)');
  });

  test(`capped at ${MAX_LISTED} entries with a count of the rest, shallow entries first`, async () => {
    const files: Record<string, string> = { 'many/top.txt': 'x' };
    for (let i = 0; i < 1100; i++) files[`many/sub/f${String(i).padStart(4, '0')}.txt`] = '';
    writeTree(root, files);
    const lines = (await list({ path: 'many' })).split('\n');
    assert.equal(lines.length, MAX_LISTED + 1);
    assert.equal(lines[0], 'many/sub/');
    assert.ok(lines.includes('many/top.txt'));
    assert.equal(lines[MAX_LISTED], '… 102 more entries not shown (the list stops at 1,000); narrow it with path, pattern or max_depth');
  });

  test('errors name the path', async () => {
    assert.equal((await toolError(() => list({ path: '../outside' }))).message, '../outside is outside the workspace');
    assert.equal((await toolError(() => list({ path: 'escape' }))).message, 'escape is outside the workspace');
    assert.match((await toolError(() => list({ path: 'README.md' }))).message, /^README\.md is a file, not a folder; use read_file/);
    const missing = await toolError(() => list({ path: 'nope' }));
    assert.equal(missing.kind, 'notFound');
    assert.match(missing.message, /^nope does not exist/);
  });
});
