import { test, describe, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { symlinkSync } from 'node:fs';
import { join } from 'node:path';
import { createSearchTool, type SearchParams } from '../../electron/core/tools/search';
import { findRipgrep } from '../../electron/core/tools/search-ripgrep';
import { MAX_SHOWN_MATCHES } from '../../electron/core/tools/search-results';
import { makeContext, removeFolder, tempFolder, textOf, toolError, writeTree } from './helpers/tool-context';

const ripgrepTool = createSearchTool({ engine: 'ripgrep' });
const builtinTool = createSearchTool({ engine: 'builtin' });
const hasRipgrep = findRipgrep() !== null;

let base: string;
let root: string;

function utf16(text: string): Buffer {
  return Buffer.concat([Buffer.from([0xff, 0xfe]), Buffer.from(text, 'utf16le')]);
}

before(() => {
  const many: Record<string, string> = {};
  for (let i = 0; i < 30; i++) many[`ws/many/file${i}.txt`] = Array.from({ length: 10 }, (_, line) => `hit ${i}:${line}`).join('\n');
  base = tempFolder('search', {
    ...many,
    'outside/secret.txt': 'needle outside\n',
    'ws/.gitignore': 'dist/\n*.log\n!keep.log\n',
    'ws/.git/HEAD': 'needle in git\n',
    'ws/.github/ci.yml': 'run: needle\n',
    'ws/README.md': 'A Needle in the readme\nnothing here\n',
    'ws/debug.log': 'needle in an ignored log\n',
    'ws/keep.log': 'needle in a kept log\n',
    'ws/dist/out.js': 'needle in dist\n',
    'ws/node_modules/pkg/index.js': 'needle in a dependency\n',
    'ws/src/.gitignore': 'generated.ts\n',
    'ws/src/generated.ts': 'needle generated\n',
    'ws/src/app.ts': 'import { needle } from "./lib/needle";\nexport function find() {\n  return needle;\n}\n',
    'ws/src/lib/needle.ts': 'export const needle = 1;\nexport function  spaced() {}\n',
    'ws/src/lib/needle.test.ts': 'test("needle", () => {});\n',
    'ws/src/windows.txt': 'first needle\r\nneedle at the end\r\nlast\r\n',
    'ws/src/wide.min.js': `${'a'.repeat(1000)}needle${'b'.repeat(1000)}\n`,
    'ws/src/blob.bin': Buffer.concat([Buffer.from('needle'), Buffer.from([0, 1, 2])]),
    'ws/src/utf16.txt': utf16('a needle in UTF-16\n'),
    'ws/src/bom.txt': Buffer.concat([Buffer.from([0xef, 0xbb, 0xbf]), Buffer.from('needle after a BOM\n')]),
    'ws/src/no-newline.txt': 'ends with needle',
  });
  root = join(base, 'ws');
  symlinkSync(join(base, 'outside'), join(root, 'escape'));
  symlinkSync(join(root, 'src/app.ts'), join(root, 'src/alias.ts'));
});

after(() => removeFolder(base));

async function both(params: SearchParams): Promise<string> {
  const builtin = await builtinTool.execute(params, makeContext([root]));
  assert.equal((builtin.details as { engine: string }).engine, 'builtin');
  if (!hasRipgrep) return textOf(builtin);
  const ripgrep = await ripgrepTool.execute(params, makeContext([root]));
  assert.equal((ripgrep.details as { engine: string }).engine, 'ripgrep');
  assert.equal(textOf(ripgrep), textOf(builtin), `engines differ for ${JSON.stringify(params)}`);
  return textOf(builtin);
}

describe('search: ripgrep and the built-in engine give the same answer', { skip: hasRipgrep ? false : 'rg is not on PATH: only the built-in engine runs' }, () => {
  test('default search: case-insensitive, .gitignore honoured, hidden files in, .git/node_modules/binary/symlinks out', async () => {
    assert.equal(
      await both({ pattern: 'needle', path: '.' }),
      [
        '13 matches in 11 files:',
        '.github/ci.yml:1: run: needle',
        'README.md:1: A Needle in the readme',
        'keep.log:1: needle in a kept log',
        'src/app.ts:1: import { needle } from "./lib/needle";',
        'src/app.ts:3:   return needle;',
        'src/bom.txt:1: needle after a BOM',
        'src/lib/needle.test.ts:1: test("needle", () => {});',
        'src/lib/needle.ts:1: export const needle = 1;',
        'src/no-newline.txt:1: ends with needle',
        'src/utf16.txt:1: a needle in UTF-16',
        `src/wide.min.js:1: …${'a'.repeat(80)}needle${'b'.repeat(214)}…`,
        'src/windows.txt:1: first needle',
        'src/windows.txt:2: needle at the end',
      ].join('\n'),
    );
  });

  test('case_sensitive', async () => {
    assert.equal(await both({ pattern: 'Needle', case_sensitive: true }), '1 match in 1 file:\nREADME.md:1: A Needle in the readme');
  });

  test('anchors work per line, CRLF included', async () => {
    assert.equal(await both({ pattern: 'end$', path: 'src' }), '1 match in 1 file:\nsrc/windows.txt:2: needle at the end');
    assert.equal(
      await both({ pattern: '^export\\s+function\\s+\\w+', path: 'src' }),
      '2 matches in 2 files:\nsrc/app.ts:2: export function find() {\nsrc/lib/needle.ts:2: export function  spaced() {}',
    );
  });

  test('a match never spans lines', async () => {
    assert.equal(await both({ pattern: 'find\\(\\) \\{\\s+return', path: 'src' }), 'No matches for find\\(\\) \\{\\s+return in src.');
  });

  test('include by name, by path, with braces', async () => {
    assert.equal(await both({ pattern: 'needle', include: '*.test.ts' }), '1 match in 1 file:\nsrc/lib/needle.test.ts:1: test("needle", () => {});');
    assert.equal(
      await both({ pattern: 'needle', path: 'src', include: 'lib/*.ts' }),
      '2 matches in 2 files:\nsrc/lib/needle.test.ts:1: test("needle", () => {});\nsrc/lib/needle.ts:1: export const needle = 1;',
    );
    assert.equal(await both({ pattern: 'needle', include: '*.{yml,md}' }), '2 matches in 2 files:\n.github/ci.yml:1: run: needle\nREADME.md:1: A Needle in the readme');
  });

  test('an include glob never brings back ignored files', async () => {
    assert.equal(await both({ pattern: 'needle', include: '*.log' }), '1 match in 1 file:\nkeep.log:1: needle in a kept log');
    assert.equal(await both({ pattern: 'needle', include: 'generated.ts' }), 'No matches for needle in . (files matching generated.ts).');
  });

  test(`capped at ${MAX_SHOWN_MATCHES} matches, first by path and line, with the rest counted`, async () => {
    const text = await both({ pattern: '^hit', path: 'many' });
    const lines = text.split('\n');
    assert.equal(lines[0], '300 matches in 30 files:');
    assert.equal(lines.length, 1 + MAX_SHOWN_MATCHES + 1);
    assert.equal(lines[1], 'many/file0.txt:1: hit 0:0');
    assert.equal(lines[11], 'many/file1.txt:1: hit 1:0');
    assert.equal(lines[MAX_SHOWN_MATCHES + 1], '… 100 more matches not shown (the first 200 by path and line are listed); narrow the search with path, include or a more specific pattern');
  });
});

describe('search keeps the first matches of a large result, whatever order they arrive in', () => {
  test('1,500 matches over 5 files', async () => {
    const files: Record<string, string> = {};
    for (let file = 4; file >= 0; file--) files[`pile/p${file}/data.txt`] = Array.from({ length: 300 }, (_, line) => `item ${file}-${line + 1}`).join('\n');
    writeTree(root, files);
    const lines = (await both({ pattern: 'item', path: 'pile' })).split('\n');
    assert.equal(lines[0], '1,500 matches in 5 files:');
    assert.equal(lines[1], 'pile/p0/data.txt:1: item 0-1');
    assert.equal(lines[MAX_SHOWN_MATCHES], 'pile/p0/data.txt:200: item 0-200');
    assert.match(lines[MAX_SHOWN_MATCHES + 1]!, /^… 1,300 more matches not shown/);
  });
});

describe('search', () => {
  test('a single file as path', async () => {
    for (const tool of [builtinTool, ripgrepTool]) {
      const result = await tool.execute({ pattern: 'needle', path: 'src/app.ts' }, makeContext([root]));
      assert.equal(textOf(result), '2 matches in 1 file:\nsrc/app.ts:1: import { needle } from "./lib/needle";\nsrc/app.ts:3:   return needle;');
    }
  });

  test('an invalid pattern is an invalid argument naming it, before any engine runs', async () => {
    for (const tool of [builtinTool, ripgrepTool]) {
      const error = await toolError(() => tool.execute({ pattern: 'foo(' }, makeContext([root])));
      assert.equal(error.kind, 'invalidArgs');
      assert.match(error.message, /^pattern "foo\(" is not a valid regular expression: Unterminated group$/);
    }
  });

  test('a pattern only ripgrep rejects is an invalid argument too', { skip: !hasRipgrep }, async () => {
    const error = await toolError(() => ripgrepTool.execute({ pattern: '[]needle' }, makeContext([root])));
    assert.equal(error.kind, 'invalidArgs');
    assert.match(error.message, /^pattern "\[\]needle" is not a valid regular expression for ripgrep: /);
  });

  test('paths outside, through symlinks or not, are refused', async () => {
    for (const path of ['../outside', 'escape', `${base}/outside/secret.txt`]) {
      const error = await toolError(() => builtinTool.execute({ pattern: 'needle', path }, makeContext([root])));
      assert.equal(error.message, `${path} is outside the workspace`);
    }
  });

  test('a cancelled search ends as cancelled, with either engine', async () => {
    for (const tool of hasRipgrep ? [builtinTool, ripgrepTool] : [builtinTool]) {
      const context = makeContext([root]);
      context.abort.abort();
      assert.equal((await toolError(() => tool.execute({ pattern: 'needle' }, context))).kind, 'cancelled');
    }
  });

  test('a large tree is cancelled mid-way', async () => {
    const files: Record<string, string> = {};
    for (let i = 0; i < 3000; i++) files[`big/d${i % 50}/f${i}.txt`] = 'needle\n'.repeat(20);
    writeTree(root, files);
    for (const tool of hasRipgrep ? [builtinTool, ripgrepTool] : [builtinTool]) {
      const context = makeContext([root]);
      const pending = tool.execute({ pattern: 'needle', path: 'big' }, context);
      queueMicrotask(() => context.abort.abort());
      assert.equal((await toolError(() => pending)).kind, 'cancelled');
    }
  });
});
