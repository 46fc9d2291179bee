import { test, describe, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { mkdirSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { resolveInWorkspace } from '../../electron/core/tools/sandbox';
import { removeFolder, tempFolder, toolError } from './helpers/tool-context';

let base: string;
let workspace: string;
let outside: string;

before(() => {
  base = tempFolder('sandbox');
  workspace = join(base, 'ws');
  outside = join(base, 'outside');
  mkdirSync(join(workspace, 'sub'), { recursive: true });
  mkdirSync(outside);
  writeFileSync(join(workspace, 'file.txt'), 'inside\n');
  writeFileSync(join(workspace, 'sub', 'inner.txt'), 'inner\n');
  writeFileSync(join(outside, 'secret.txt'), 'secret\n');
  const links: Array<[string, string]> = [
    ['link-inside-file', 'sub/inner.txt'],
    ['link-inside-dir', 'sub'],
    ['link-inside-absolute', join(workspace, 'sub', 'inner.txt')],
    ['link-outside-file', '../outside/secret.txt'],
    ['link-outside-dir', outside],
    ['dangling-outside', join(outside, 'nope.txt')],
    ['dangling-outside-relative', '../outside/missing/deeper.txt'],
    ['dangling-inside', 'sub/new.txt'],
    ['chain1', 'chain2'],
    ['chain2', 'link-outside-dir'],
    ['c1', 'c2'],
    ['c2', 'link-inside-dir'],
    ['loop1', 'loop2'],
    ['loop2', 'loop1'],
    ['link-up', '..'],
    ['link-root', '/'],
  ];
  for (const [name, target] of links) symlinkSync(target, join(workspace, name));
  symlinkSync(workspace, join(base, 'ws-link'));
});

after(() => removeFolder(base));

describe('resolveInWorkspace allows paths that really lead inside', () => {
  const cases: Array<[string, string, boolean]> = [
    // given, expected relative, exists
    ['file.txt', 'file.txt', true],
    ['./file.txt', 'file.txt', true],
    ['sub/../file.txt', 'file.txt', true],
    ['sub//inner.txt', 'sub/inner.txt', true],
    ['.', '.', true],
    ['link-inside-file', 'sub/inner.txt', true],
    ['link-inside-absolute', 'sub/inner.txt', true],
    ['link-inside-dir/inner.txt', 'sub/inner.txt', true],
    ['link-inside-dir/../file.txt', 'file.txt', true],
    ['c1/inner.txt', 'sub/inner.txt', true],
    ['dangling-inside', 'sub/new.txt', false],
    ['new/deep/file.txt', 'new/deep/file.txt', false],
    ['link-inside-dir/new/file.txt', 'sub/new/file.txt', false],
    ['new/../file.txt', 'file.txt', true],
    // The OS climbs from the link's target: outside/.. is the base, and base/ws is the workspace.
    ['link-outside-dir/../ws/file.txt', 'file.txt', true],
  ];
  for (const [given, relative, exists] of cases) {
    test(given, () => {
      const resolved = resolveInWorkspace(given, [workspace]);
      assert.equal(resolved.relative, relative);
      assert.equal(resolved.display, relative);
      assert.equal(resolved.exists, exists);
      assert.equal(resolved.root, workspace);
      assert.equal(resolved.absolute, relative === '.' ? workspace : join(workspace, relative));
    });
  }

  test('an absolute path inside', () => {
    assert.equal(resolveInWorkspace(join(workspace, 'sub', 'inner.txt'), [workspace]).relative, 'sub/inner.txt');
  });

  test('/proc/self/root leading back inside', () => {
    const resolved = resolveInWorkspace(`/proc/self/root${workspace}/file.txt`, [workspace]);
    assert.equal(resolved.relative, 'file.txt');
  });

  test('roots are compared as real paths', () => {
    const resolved = resolveInWorkspace('file.txt', [join(base, 'ws-link')]);
    assert.equal(resolved.root, workspace);
    assert.equal(resolved.absolute, join(workspace, 'file.txt'));
    assert.equal(resolveInWorkspace(join(base, 'ws-link', 'sub', 'inner.txt'), [join(base, 'ws-link')]).relative, 'sub/inner.txt');
  });

  test('a path under a second root is displayed absolute, so it resolves back to the same file', () => {
    const resolved = resolveInWorkspace(join(outside, 'secret.txt'), [workspace, outside]);
    assert.equal(resolved.root, outside);
    assert.equal(resolved.relative, 'secret.txt');
    assert.equal(resolved.display, join(outside, 'secret.txt'));
    assert.equal(resolveInWorkspace(resolved.display, [workspace, outside]).absolute, resolved.absolute);
  });
});

describe('resolveInWorkspace refuses paths that lead outside, without naming the roots', () => {
  const refused = [
    '..',
    '../outside/secret.txt',
    'sub/../../outside/secret.txt',
    '../ws-link/file.txt/../../outside/secret.txt',
    'link-outside-file',
    'link-outside-dir/secret.txt',
    'link-outside-dir/not-yet.txt',
    'link-outside-dir/new/deep/file.txt',
    'dangling-outside',
    'dangling-outside-relative',
    'chain1/secret.txt',
    'link-up/outside/secret.txt',
    'link-up',
    'link-root/etc/passwd',
    '/etc/passwd',
    '/proc/self/root/etc/passwd',
    '/proc/self/cwd/package.json',
    'new/../../outside/x.txt',
    'new/../link-outside-dir/secret.txt',
    'new/deeper/../../link-outside-file',
  ];
  for (const given of refused) {
    test(given, async () => {
      const error = await toolError(() => resolveInWorkspace(given, [workspace]));
      assert.equal(error.kind, 'failed');
      assert.equal(error.message, `${given} is outside the workspace`);
      assert.ok(!error.message.includes(workspace) || given.includes(workspace));
      assert.ok(!error.message.includes(base));
    });
  }

  test('/proc/self/root into the outside folder', async () => {
    const given = `/proc/self/root${outside}/secret.txt`;
    const error = await toolError(() => resolveInWorkspace(given, [workspace]));
    assert.equal(error.message, `${given} is outside the workspace`);
  });
});

describe('resolveInWorkspace errors', () => {
  test('a symlink loop names the path', async () => {
    const error = await toolError(() => resolveInWorkspace('loop1/x', [workspace]));
    assert.equal(error.kind, 'failed');
    assert.match(error.message, /^loop1\/x has too many levels of symbolic links$/);
  });

  test('mustExist reports a missing path as notFound', async () => {
    const error = await toolError(() => resolveInWorkspace('missing.txt', [workspace], { mustExist: true }));
    assert.equal(error.kind, 'notFound');
    assert.match(error.message, /missing\.txt/);
    assert.ok(!error.message.includes(workspace));
  });

  test('an empty path is an invalid argument', async () => {
    assert.equal((await toolError(() => resolveInWorkspace('  ', [workspace]))).kind, 'invalidArgs');
  });

  test('no roots means everything is outside', async () => {
    const error = await toolError(() => resolveInWorkspace('file.txt', []));
    assert.match(error.message, /^file\.txt is outside the workspace/);
  });
});
