/**
 * The review pane's reading of a diff (renderer/features/checkpoints/review-diff.ts): hunks with
 * their indexes, the side-by-side pairing of removed and added runs, the marks' segments, and the
 * prompt line comments go back as.
 */
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import type { CommandMark } from '../../shared/events';
import { commentsPrompt, lineContent, reviewHunks, splitRows } from '../../renderer/features/checkpoints/review-diff';
import { segmentMarks } from '../../renderer/features/permissions/command-segments';

const DIFF = [
  'diff --git a/app.ts b/app.ts',
  '--- a/app.ts',
  '+++ b/app.ts',
  '@@ -1,5 +1,6 @@',
  ' one',
  '-two',
  '-three',
  '+2',
  ' four',
  '+4.5',
  ' five',
  '@@ -20,3 +21,3 @@',
  ' twenty',
  '-a',
  '+b',
  '-c',
  ' end',
  '\\ No newline at end of file',
  '',
].join('\n');

describe('review diff', () => {
  test('cuts a file diff into hunks numbered in order, headers left out', () => {
    const hunks = reviewHunks(DIFF);
    assert.deepEqual(
      hunks.map((hunk) => [hunk.index, hunk.header, hunk.lines.length]),
      [
        [0, '@@ -1,5 +1,6 @@', 7],
        [1, '@@ -20,3 +21,3 @@', 6],
      ],
    );
    assert.equal(reviewHunks('').length, 0);
  });

  test('pairs each run of removed lines with the added run after it, context on both sides', () => {
    const [first, second] = reviewHunks(DIFF);
    const show = (rows: ReturnType<typeof splitRows>) =>
      rows.map((row) => `${row.left ? `${row.left.oldLine ?? ''}${lineContent(row.left)}` : '∅'} | ${row.right ? `${row.right.newLine ?? ''}${lineContent(row.right)}` : '∅'}`);
    assert.deepEqual(show(splitRows(first!.lines)), ['1one | 1one', '2two | 22', '3three | ∅', '4four | 3four', '∅ | 44.5', '5five | 5five']);
    // `-a +b -c`: a is replaced by b; c, removed after an added line, stands alone.
    assert.deepEqual(show(splitRows(second!.lines)), ['20twenty | 21twenty', '21a | 22b', '22c | ∅', '23end | 23end', '\\ No newline at end of file | \\ No newline at end of file']);
  });

  test('comments become one prompt: path and line, the text, the line quoted', () => {
    const prompt = commentsPrompt([
      { root: '/w', path: 'src/app.ts', line: 3, removed: false, quote: 'const a = 1;', text: 'Name this better' },
      { root: '/w', path: 'src/app.ts', line: 9, removed: true, quote: 'check();', text: 'Why remove this?\nIt guards the input.' },
    ]);
    assert.equal(
      prompt,
      'Review comments:\n- src/app.ts:3: Name this better\n  > const a = 1;\n- src/app.ts:9 (a line the change removed): Why remove this?\n  It guards the input.\n  > check();',
    );
  });

  test('marks cut a command into runs, the narrowest mark first, with the marks ending at each run', () => {
    const command = 'ls $(rm victim.txt) > out';
    const mark = (start: number, end: number, kind: CommandMark['kind']): CommandMark => ({ start, end, kind, note: kind, text: command.slice(start, end) });
    const outer = mark(3, 19, 'runs-code');
    const inner = mark(8, 18, 'deletes');
    const out = mark(22, 25, 'writes');
    const segments = segmentMarks(command, [outer, inner, out]);
    assert.deepEqual(
      segments.map((segment) => [segment.text, segment.marks.map((entry) => entry.kind), segment.ending.map((entry) => entry.kind)]),
      [
        ['ls ', [], []],
        ['$(rm ', ['runs-code'], []],
        ['victim.txt', ['deletes', 'runs-code'], ['deletes']],
        [')', ['runs-code'], ['runs-code']],
        [' > ', [], []],
        ['out', ['writes'], ['writes']],
      ],
    );
    assert.equal(segments.map((segment) => segment.text).join(''), command);
  });
});
