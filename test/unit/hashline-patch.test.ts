import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { ToolError } from '../../electron/core/agent/types';
import { checkOperations, parsePatch } from '../../electron/core/tools/hashline-patch';
import { hashTag, normalizeContent, normalizedLines } from '../../electron/core/tools/hashline-tag';

function parseError(patch: string): string {
  try {
    parsePatch(patch);
  } catch (error) {
    assert.ok(error instanceof ToolError);
    assert.equal(error.kind, 'invalidArgs');
    return error.message;
  }
  assert.fail('expected the patch to be refused');
}

describe('hashTag', () => {
  test('is six base-36 characters', () => {
    assert.match(hashTag('const x = 1;\n'), /^[0-9a-z]{6}$/);
  });

  test('ignores line endings, trailing blanks and trailing newlines', () => {
    const tag = hashTag('a\nb\n');
    assert.equal(hashTag('a\r\nb\r\n'), tag);
    assert.equal(hashTag('a  \nb\t\n\n\n'), tag);
    assert.equal(hashTag('a\nb'), tag);
  });

  test('changes with content, indentation and inner blank lines', () => {
    const tag = hashTag('a\nb\n');
    assert.notEqual(hashTag('a\nc\n'), tag);
    assert.notEqual(hashTag(' a\nb\n'), tag);
    assert.notEqual(hashTag('a\n\nb\n'), tag);
  });

  test('normalized lines of an empty file are none', () => {
    assert.deepEqual(normalizedLines('\n\n'), []);
    assert.equal(normalizeContent('x \r\n\r\n'), 'x');
  });
});

describe('parsePatch', () => {
  test('reads sections, every operation and verbatim body lines', () => {
    const sections = parsePatch(
      [
        '[src/app.ts#k3f9a2]',
        'replace 12',
        '|    const x = 1;',
        'replace 20-24',
        '|a',
        '|',
        '|  b  ',
        'delete 30-31',
        'delete 33',
        '',
        'insert after 40',
        '|after',
        'insert before 1',
        '|before',
        'insert head',
        '|head',
        'insert tail',
        '|tail',
        '[docs/notes #1.md#000000]',
        'delete 2',
        '',
      ].join('\n'),
    );
    assert.equal(sections.length, 2);
    const [first, second] = sections;
    assert.equal(first!.path, 'src/app.ts');
    assert.equal(first!.tag, 'k3f9a2');
    assert.deepEqual(
      first!.operations.map((operation) =>
        operation.kind === 'insert' ? [operation.kind, operation.position, operation.line, operation.body] : [operation.kind, operation.first, operation.last, operation.body],
      ),
      [
        ['replace', 12, 12, ['    const x = 1;']],
        ['replace', 20, 24, ['a', '', '  b  ']],
        ['delete', 30, 31, []],
        ['delete', 33, 33, []],
        ['insert', 'after', 40, ['after']],
        ['insert', 'before', 1, ['before']],
        ['insert', 'head', 0, ['head']],
        ['insert', 'tail', 0, ['tail']],
      ],
    );
    assert.equal(second!.path, 'docs/notes #1.md');
    assert.equal(second!.tag, '000000');
    assert.equal(second!.operations[0]!.patchLine, 20);
  });

  test('accepts CRLF patches and indentation before the bar', () => {
    const [section] = parsePatch('[a.ts#abcdef]\r\nreplace 1\r\n  |x\r\n');
    assert.deepEqual(section!.operations[0]!.body, ['x']);
  });

  test('names the patch line of each problem', () => {
    const message = parseError(['[a.ts#abcdef]', 'replace 3', 'change 4', '|x', 'delete 5', '|y', 'replace 7-6', '|z', 'insert after 2'].join('\n'));
    assert.match(message, /patch line 2: "replace 3" has no new lines/);
    assert.match(message, /patch line 3: cannot read "change 4"/);
    assert.match(message, /patch line 4: body line outside an operation/);
    assert.match(message, /patch line 6: "delete 5" takes no body lines/);
    assert.match(message, /patch line 7: "replace 7-6": the range ends before it starts/);
    assert.match(message, /patch line 9: "insert after 2" has no new lines/);
  });

  test('refuses headers without a usable tag and operations before any header', () => {
    assert.match(parseError('replace 1\n|x'), /patch line 1: "replace 1" comes before any section header/);
    assert.match(parseError('[a.ts]\ndelete 1'), /patch line 1: header \[a.ts\] has no tag/);
    assert.match(parseError('[a.ts#XYZ]\ndelete 1'), /patch line 1: "XYZ" is not a file tag/);
    assert.match(parseError('[a.ts#abcdef]\n[b.ts#abcdef]\ndelete 1'), /patch line 1: section \[a.ts#abcdef\] has no operations/);
    assert.match(parseError('  \n'), /the patch is empty/);
    assert.match(parseError('[a.ts#abcdef]\ndelete 0'), /patch line 2: "delete 0": line numbers start at 1/);
  });

  test('a blank line inside a body is refused rather than guessed', () => {
    assert.match(parseError('[a.ts#abcdef]\nreplace 1\n|x\n\n|y'), /patch line 5: blank line inside the body of "replace 1"; write an empty line as a lone \|/);
  });
});

describe('checkOperations', () => {
  const operationsOf = (body: string) => parsePatch(`[a.ts#abcdef]\n${body}`)[0]!.operations;

  test('refuses overlapping ranges and names both', () => {
    const problems = checkOperations(operationsOf('replace 3-6\n|x\ndelete 5-8'), 10, 'a.ts');
    assert.deepEqual(problems, ['"replace 3-6" (patch line 2) and "delete 5-8" (patch line 4) both touch lines 5-6; merge them into one operation']);
  });

  test('refuses an insertion inside a replaced range and two insertions at one place', () => {
    assert.match(checkOperations(operationsOf('replace 3-6\n|x\ninsert after 4\n|y'), 10, 'a.ts')[0]!, /insertion falls inside lines 3-6/);
    assert.match(checkOperations(operationsOf('insert after 4\n|x\ninsert before 5\n|y'), 10, 'a.ts')[0]!, /insert at the same place/);
    assert.match(checkOperations(operationsOf('insert tail\n|x\ninsert after 10\n|y'), 10, 'a.ts')[0]!, /insert at the same place/);
  });

  test('allows insertions at the edges of a range', () => {
    assert.deepEqual(checkOperations(operationsOf('replace 3-6\n|x\ninsert before 3\n|y\ninsert after 6\n|z'), 10, 'a.ts'), []);
  });

  test('refuses lines past the end of the file as read', () => {
    assert.deepEqual(checkOperations(operationsOf('delete 9-11'), 10, 'a.ts'), ['"delete 9-11" (patch line 2): a.ts had 10 lines when you read it']);
  });
});
