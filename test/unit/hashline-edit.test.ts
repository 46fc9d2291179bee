import { after, before, beforeEach, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, realpathSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ToolError, type ToolContext, type ToolResult } from '../../electron/core/agent/types';
import { hashlineEditTool } from '../../electron/core/tools/hashline-edit';
import { hashTag } from '../../electron/core/tools/hashline-tag';
import { writeAllOrNone } from '../../electron/core/tools/hashline-write';
import { readFileTool } from '../../electron/core/tools/read-file';
import { makeContext } from './helpers/tool-context';

let root: string;
let ctx: ToolContext;

before(() => {
  root = realpathSync(mkdtempSync(join(tmpdir(), 'cove-hashline-')));
});
after(() => rmSync(root, { recursive: true, force: true }));
beforeEach(() => {
  for (const entry of readdirSync(root)) rmSync(join(root, entry), { recursive: true, force: true });
  ctx = { ...makeContext([root]), toolName: 'hashline_edit' };
});

const numbered = (count: number, prefix = 'line') => Array.from({ length: count }, (_, i) => `${prefix} ${i + 1}\n`).join('');

function textOf(result: ToolResult): string {
  return result.content.map((block) => (block.type === 'text' ? block.text : '')).join('');
}

/** Writes a file and reads it through read_file, returning the header it printed. */
async function readInto(path: string, content: string): Promise<string> {
  mkdirSync(join(root, path, '..'), { recursive: true });
  writeFileSync(join(root, path), content);
  const result = await readFileTool.execute({ path }, ctx);
  return textOf(result).split('\n')[0]!;
}

function edit(patch: string): Promise<ToolResult> {
  return hashlineEditTool.execute({ patch }, ctx);
}

async function refusal(patch: string): Promise<ToolError> {
  try {
    await edit(patch);
  } catch (error) {
    assert.ok(error instanceof ToolError, String(error));
    return error;
  }
  assert.fail('expected the patch to be refused');
}

const fileText = (path: string) => readFileSync(join(root, path), 'utf8');

describe('hashline_edit', () => {
  test('applies every kind of operation by the numbers the model was shown', async () => {
    const header = await readInto('a.txt', numbered(8));
    const result = await edit(
      [
        header,
        'insert head',
        '|head',
        'insert before 3',
        '|before 3',
        'replace 2',
        '|two',
        'replace 4-5',
        '|four',
        '|  five  ',
        '|',
        'delete 6-7',
        'insert after 3',
        '|after 3',
        'insert tail',
        '|tail',
      ].join('\n'),
    );
    assert.equal(fileText('a.txt'), 'head\nline 1\ntwo\nbefore 3\nline 3\nafter 3\nfour\n  five  \n\nline 8\ntail\n');
    assert.match(textOf(result), /^Edited a\.txt: 7 operations \(\+\d+ −\d+ lines\); now \[a\.txt#[0-9a-z]{6}\]/);
    assert.match(result.diff!, /^--- a\/a\.txt\n\+\+\+ b\/a\.txt\n@@/);
    assert.match(result.diff!, /^-line 2$/m);
    assert.match(result.diff!, /^\+two$/m);
  });

  test('the result carries the new tag, and a follow-up edit works without reading again', async () => {
    const header = await readInto('a.txt', numbered(3));
    const first = await edit(`${header}\ninsert head\n|zero`);
    const tag = hashTag(fileText('a.txt'));
    assert.ok(textOf(first).includes(`[a.txt#${tag}]`));
    assert.deepEqual(
      (first.details as { files: Array<{ tag: string }> }).files.map((file) => file.tag),
      [tag],
    );
    // Line 4 of the new version is "line 3".
    await edit(`[a.txt#${tag}]\nreplace 4\n|three`);
    assert.equal(fileText('a.txt'), 'zero\nline 1\nline 2\nthree\n');
  });

  test('keeps CRLF line endings and a missing final newline', async () => {
    const header = await readInto('crlf.txt', 'one\r\ntwo\r\nthree');
    await edit(`${header}\nreplace 2\n|TWO\ninsert tail\n|four`);
    assert.equal(fileText('crlf.txt'), 'one\r\nTWO\r\nthree\r\nfour');
  });

  test('untouched lines keep their trailing whitespace', async () => {
    const header = await readInto('ws.txt', 'keep   \nchange\n');
    await edit(`${header}\nreplace 2\n|changed`);
    assert.equal(fileText('ws.txt'), 'keep   \nchanged\n');
  });

  test('overlapping operations are refused and nothing is written', async () => {
    const header = await readInto('a.txt', numbered(10));
    const error = await refusal(`${header}\nreplace 3-5\n|x\ndelete 5`);
    assert.equal(error.kind, 'failed');
    assert.match(error.message, /"replace 3-5" \(patch line 2\) and "delete 5" \(patch line 4\) both touch line 5/);
    assert.equal(fileText('a.txt'), numbered(10));
  });

  test('all sections apply or none: an invalid second section leaves the first file unchanged', async () => {
    const first = await readInto('one.txt', numbered(3));
    const second = await readInto('dir/two.txt', numbered(3));
    const error = await refusal(`${first}\nreplace 1\n|changed\n${second}\ndelete 7`);
    assert.match(error.message, /^No file was changed/);
    assert.match(error.message, /\[dir\/two\.txt#[0-9a-z]{6}\]: "delete 7" \(patch line 5\): dir\/two\.txt had 3 lines when you read it/);
    assert.equal(fileText('one.txt'), numbered(3));

    await edit(`${first}\nreplace 1\n|changed\n${second}\ndelete 3`);
    assert.equal(fileText('one.txt'), 'changed\nline 2\nline 3\n');
    assert.equal(fileText('dir/two.txt'), 'line 1\nline 2\n');
  });

  test('when lines were inserted above since the read, the edit moves with its line', async () => {
    const header = await readInto('a.txt', numbered(10));
    writeFileSync(join(root, 'a.txt'), 'new 1\nnew 2\nnew 3\n' + numbered(10));
    const result = await edit(`${header}\nreplace 5\n|five\ninsert after 7\n|after seven`);
    assert.equal(fileText('a.txt'), 'new 1\nnew 2\nnew 3\n' + numbered(10).replace('line 5\n', 'five\n').replace('line 7\n', 'line 7\nafter seven\n'));
    assert.match(textOf(result), /moved: replace 5 → line 8, insert after 7 → line 10/);
  });

  test('an edit of a line that changed since the read refuses the whole patch', async () => {
    const header = await readInto('a.txt', numbered(10));
    const other = await readInto('b.txt', numbered(2));
    const changed = numbered(10).replace('line 5\n', 'line five (edited by someone)\n');
    writeFileSync(join(root, 'a.txt'), changed);
    const error = await refusal(`${other}\ndelete 1\n${header}\nreplace 5\n|mine`);
    assert.equal(error.kind, 'failed');
    assert.match(error.message, /line 5 "line 5" was changed or deleted since you read the file/);
    assert.ok(error.message.includes(`it is now [a.txt#${hashTag(changed)}]`), error.message);
    assert.match(error.message, /read it again/);
    assert.equal(fileText('a.txt'), changed);
    assert.equal(fileText('b.txt'), numbered(2));
  });

  test('an edit whose line has identical neighbours next to a change is refused as ambiguous', async () => {
    const header = await readInto('a.txt', 'a\n}\n}\nb\n');
    writeFileSync(join(root, 'a.txt'), 'a\n}\n}\n}\nb\n');
    const error = await refusal(`${header}\nreplace 3\n|  }`);
    assert.match(error.message, /line 3 "}" moved and identical lines nearby make its new place ambiguous/);
  });

  test('changes elsewhere in the file do not disturb an edit', async () => {
    const header = await readInto('a.txt', numbered(10));
    writeFileSync(join(root, 'a.txt'), numbered(10).replace('line 9\n', 'nine\n'));
    const result = await edit(`${header}\nreplace 2\n|two`);
    assert.equal(fileText('a.txt'), numbered(10).replace('line 9\n', 'nine\n').replace('line 2\n', 'two\n'));
    assert.match(textOf(result), /your line numbers still held/);
  });

  test('an unknown tag asks for a read first', async () => {
    writeFileSync(join(root, 'a.txt'), numbered(3));
    const error = await refusal('[a.txt#zzzzzz]\ndelete 1');
    assert.match(error.message, /no read of a\.txt with tag zzzzzz is on record; read the file first/);
    assert.equal(fileText('a.txt'), numbered(3));
  });

  test('a tag matching the live file works even without a recorded read', async () => {
    writeFileSync(join(root, 'a.txt'), numbered(3));
    await edit(`[a.txt#${hashTag(numbered(3))}]\ndelete 2`);
    assert.equal(fileText('a.txt'), 'line 1\nline 3\n');
  });

  test('paths outside the workspace and missing files are refused', async () => {
    const outside = await refusal('[../escape.txt#abcdef]\ndelete 1');
    assert.equal(outside.kind, 'failed');
    assert.equal(outside.message, '../escape.txt is outside the workspace');
    const missing = await refusal('[nope.txt#abcdef]\ndelete 1');
    assert.equal(missing.kind, 'notFound');
    assert.match(missing.message, /nope\.txt does not exist.*use write_file to create one/);
  });

  test('parse errors come back as invalid arguments with the patch line', async () => {
    const error = await refusal('[a.txt#abcdef]\nreplace one\n|x');
    assert.equal(error.kind, 'invalidArgs');
    assert.match(error.message, /patch line 2: cannot read "replace one"/);
  });
});

describe('writeAllOrNone', () => {
  test('restores files already renamed when a later rename fails', async () => {
    writeFileSync(join(root, 'first.txt'), 'before');
    mkdirSync(join(root, 'folder'));
    await assert.rejects(
      writeAllOrNone([
        { absolute: join(root, 'first.txt'), display: 'first.txt', before: 'before', after: 'after' },
        { absolute: join(root, 'folder'), display: 'folder', before: '', after: 'x' },
      ]),
      (error: unknown) => error instanceof ToolError && /folder.*; no file was changed$/.test(error.message),
    );
    assert.equal(fileText('first.txt'), 'before');
    assert.deepEqual(readdirSync(root).sort(), ['first.txt', 'folder']);
  });

  test('writes nothing when a temp file cannot be created', async () => {
    writeFileSync(join(root, 'first.txt'), 'before');
    await assert.rejects(
      writeAllOrNone([
        { absolute: join(root, 'first.txt'), display: 'first.txt', before: 'before', after: 'after' },
        { absolute: join(root, 'missing', 'x.txt'), display: 'missing/x.txt', before: '', after: 'x' },
      ]),
      /missing\/x\.txt.*no file was changed/,
    );
    assert.equal(fileText('first.txt'), 'before');
    assert.deepEqual(readdirSync(root), ['first.txt']);
  });
});
