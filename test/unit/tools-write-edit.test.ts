import { test, describe, beforeEach, afterEach } from 'node:test';
import assert from 'node:assert/strict';
import { chmodSync, existsSync, lstatSync, readFileSync, readdirSync, statSync, symlinkSync } from 'node:fs';
import { join } from 'node:path';
import { writeFileTool } from '../../electron/core/tools/write-file';
import { editFileTool } from '../../electron/core/tools/edit-file';
import { hashTag } from '../../electron/core/tools/hashline-tag';
import { makeContext, removeFolder, tempFolder, textOf, toolError, writeTree } from './helpers/tool-context';

let base: string;
let root: string;

beforeEach(() => {
  base = tempFolder('write', { 'outside/secret.txt': 'outside\n', 'ws/src/app.ts': 'const a = 1;\nconst b = 2;\n' });
  root = join(base, 'ws');
});

afterEach(() => removeFolder(base));

const write = (path: string, content: string, context = makeContext([root])) => writeFileTool.execute({ path, content }, context);
const edit = (path: string, old_text: string, new_text: string, context = makeContext([root])) => editFileTool.execute({ path, old_text, new_text }, context);
const onDisk = (path: string) => readFileSync(join(root, path), 'utf8');
/** Temp files left behind by a failed or finished atomic write. */
const leftovers = (folder: string) => readdirSync(folder).filter((name) => name.includes('.cove-'));

describe('write_file', () => {
  test('creates a file and its folders, with a diff from /dev/null and the new tag', async () => {
    const context = makeContext([root]);
    const result = await write('deep/new/file.txt', 'hello\nworld\n', context);
    assert.equal(onDisk('deep/new/file.txt'), 'hello\nworld\n');
    const tag = hashTag('hello\nworld\n');
    assert.equal(textOf(result), `Created deep/new/file.txt (2 lines, 12 bytes). Tag: [deep/new/file.txt#${tag}]`);
    assert.match(result.diff!, /^--- \/dev\/null\n\+\+\+ b\/deep\/new\/file\.txt\n@@ -0,0 \+1,2 @@\n\+hello\n\+world\n$/);
    assert.equal(context.snapshots.recall('deep/new/file.txt', tag), 'hello\nworld');
    // One line is "1 line", not "1 lines".
    assert.match(textOf(await write('deep/one.txt', 'just one\n', context)), /^Created deep\/one\.txt \(1 line, 9 bytes\)\./);
  });

  test('replaces a file atomically, keeping its mode, with a unified diff', async () => {
    chmodSync(join(root, 'src/app.ts'), 0o751);
    const result = await write('src/app.ts', 'const a = 1;\nconst b = 3;\n');
    assert.equal(onDisk('src/app.ts'), 'const a = 1;\nconst b = 3;\n');
    assert.equal(statSync(join(root, 'src/app.ts')).mode & 0o777, 0o751);
    assert.match(result.diff!, /--- a\/src\/app\.ts\n\+\+\+ b\/src\/app\.ts\n@@ -1,2 \+1,2 @@\n const a = 1;\n-const b = 2;\n\+const b = 3;\n/);
    assert.match(textOf(result), /^Wrote src\/app\.ts \(2 lines, 26 bytes\): \+1 −1 lines\./);
    assert.deepEqual(leftovers(join(root, 'src')), []);
  });

  test('a CRLF file stays CRLF when the model writes LF', async () => {
    writeTree(root, { 'win.txt': 'a\r\nb\r\n' });
    const result = await write('win.txt', 'a\nc\n');
    assert.equal(onDisk('win.txt'), 'a\r\nc\r\n');
    assert.doesNotMatch(result.diff!, /\r/);
  });

  test('writes through a symlink that stays inside, replacing the target and keeping the link', async () => {
    symlinkSync('src/app.ts', join(root, 'alias.ts'));
    await write('alias.ts', 'changed\n');
    assert.equal(onDisk('src/app.ts'), 'changed\n');
    assert.ok(lstatSync(join(root, 'alias.ts')).isSymbolicLink());
    assert.equal(readFileSync(join(root, 'alias.ts'), 'utf8'), 'changed\n');
  });

  test('refuses outside paths, symlinked or not, and writes nothing', async () => {
    symlinkSync(join(base, 'outside'), join(root, 'escape'));
    symlinkSync(join(base, 'outside', 'planted.txt'), join(root, 'dangling'));
    for (const path of ['../outside/secret.txt', 'escape/secret.txt', 'escape/new.txt', 'dangling']) {
      const error = await toolError(() => write(path, 'pwned\n'));
      assert.equal(error.message, `${path} is outside the workspace`);
    }
    assert.equal(readFileSync(join(base, 'outside/secret.txt'), 'utf8'), 'outside\n');
    assert.deepEqual(readdirSync(join(base, 'outside')), ['secret.txt']);
  });

  test('a directory is refused', async () => {
    const error = await toolError(() => write('src', 'x'));
    assert.match(error.message, /^src is a directory/);
  });

  test('the same content writes nothing', async () => {
    const before = statSync(join(root, 'src/app.ts')).mtimeMs;
    const result = await write('src/app.ts', 'const a = 1;\nconst b = 2;\n');
    assert.match(textOf(result), /already has this content/);
    assert.equal(result.diff, undefined);
    assert.equal(statSync(join(root, 'src/app.ts')).mtimeMs, before);
  });
});

describe('edit_file', () => {
  test('replaces a unique match and returns the diff and tag', async () => {
    const context = makeContext([root]);
    const result = await edit('src/app.ts', 'const b = 2;', 'const b = 20;', context);
    assert.equal(onDisk('src/app.ts'), 'const a = 1;\nconst b = 20;\n');
    const tag = hashTag(onDisk('src/app.ts'));
    assert.equal(textOf(result), `Edited src/app.ts at line 2: +1 −1 lines. Tag: [src/app.ts#${tag}]`);
    assert.match(result.diff!, /-const b = 2;\n\+const b = 20;/);
    assert.ok(context.snapshots.recall('src/app.ts', tag));
  });

  test('keeps CRLF line endings and the missing final newline', async () => {
    writeTree(root, { 'win.txt': 'one\r\ntwo\r\nthree' });
    await edit('win.txt', 'one\ntwo', 'one\n2\n2b');
    assert.equal(onDisk('win.txt'), 'one\r\n2\r\n2b\r\nthree');
  });

  test('an LF file with a stray CRLF line keeps it', async () => {
    writeTree(root, { 'mixed.txt': 'a\nb\r\nc\nd\n' });
    await edit('mixed.txt', 'c', 'C');
    assert.equal(onDisk('mixed.txt'), 'a\nb\r\nC\nd\n');
  });

  test('several matches: how many and where, nothing written', async () => {
    writeTree(root, { 'dup.ts': 'x();\nfoo();\ny();\nfoo();\nfoo();\n' });
    const error = await toolError(() => edit('dup.ts', 'foo();', 'bar();'));
    assert.equal(error.message, 'old_text occurs 3 times in dup.ts (starting at lines 2, 4, 5); include more of the surrounding lines in old_text so that it matches only one place');
    assert.equal(onDisk('dup.ts'), 'x();\nfoo();\ny();\nfoo();\nfoo();\n');
  });

  test('no match: the most similar lines with their numbers', async () => {
    writeTree(root, { 'calc.ts': 'import x from "x";\n\nfunction total(items) {\n  return items.length;\n}\n\nfunction average(items) {\n  return 0;\n}\n' });
    const error = await toolError(() => edit('calc.ts', 'function totals(items) {\n  return items.size;\n}', 'z'));
    assert.equal(
      error.message,
      'old_text was not found in calc.ts. The most similar lines are:\n3│function total(items) {\n4│  return items.length;\n5│}\n…\n7│function average(items) {\n8│  return 0;\n9│}\nCopy old_text exactly from the file (read it again if it may have changed).',
    );
  });

  test('no match because of indentation: says where the text is', async () => {
    writeTree(root, { 'indent.py': 'def f():\n    if x:\n        return 1\n' });
    const error = await toolError(() => edit('indent.py', 'if x:\n    return 1', 'if y:\n    return 2'));
    assert.match(error.message, /^old_text was not found in indent\.py\. Text that differs only in indentation or spacing is at line 2;/);
    assert.match(error.message, /2│ {4}if x:\n3│ {8}return 1$/);
  });

  test('line numbers pasted from read_file are pointed out', async () => {
    const error = await toolError(() => edit('src/app.ts', '2│const b = 2;', 'x'));
    assert.match(error.message, /contains line numbers from read_file/);
  });

  test('argument errors', async () => {
    assert.equal((await toolError(() => edit('src/app.ts', 'const a = 1;', 'const a = 1;'))).kind, 'invalidArgs');
    assert.match((await toolError(() => edit('src/app.ts', '', 'x'))).message, /old_text is empty.*src\/app\.ts/);
    const missing = await toolError(() => edit('src/nope.ts', 'a', 'b'));
    assert.equal(missing.kind, 'notFound');
    assert.match(missing.message, /^src\/nope\.ts does not exist/);
    assert.equal((await toolError(() => edit('../outside/secret.txt', 'outside', 'x'))).message, '../outside/secret.txt is outside the workspace');
  });

  test('a binary file is refused and left alone', async () => {
    writeTree(root, { 'blob.bin': Buffer.from([1, 0, 2, 3]) });
    const error = await toolError(() => edit('blob.bin', 'a', 'b'));
    assert.match(error.message, /^blob\.bin is a binary file/);
    assert.ok(existsSync(join(root, 'blob.bin')));
    assert.deepEqual(leftovers(root), []);
  });
});
