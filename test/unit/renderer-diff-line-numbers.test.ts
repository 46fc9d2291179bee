/** The line numbers a permission preview shows beside its diff come from the hunk headers. */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { diffLines } from '../../renderer/features/tools/diff-lines';

test('old and new line numbers follow each hunk; a removed "--" line inside a hunk is not a header', () => {
  const diff = ['--- a/f.txt', '+++ b/f.txt', '@@ -10,3 +10,3 @@', ' keep', '-old', '--- was a rule', '+new', '+++ is a rule', ' tail', '@@ -40 +40,2 @@', ' x', '+y'].join('\n');
  const lines = diffLines(diff).map((line) => `${line.kind}:${line.oldLine ?? ''}:${line.newLine ?? ''}`);
  assert.deepEqual(lines, [
    'header::',
    'header::',
    'hunk::',
    'context:10:10',
    'removed:11:',
    'removed:12:',
    'added::11',
    'added::12',
    'context:13:13',
    'hunk::',
    'context:40:40',
    'added::41',
  ]);
});
