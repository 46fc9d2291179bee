// A long Markdown table's chunks and column widths (renderer/features/transcript/MarkdownTable.tsx),
// and how often a reply that ends in one is redrawn while it streams (MessageView.tsx).
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { parseMarkdown, type TableBlock } from '../../renderer/features/transcript/markdown-parser';
import { CHUNK_ROWS, columnWidths } from '../../renderer/features/transcript/MarkdownTable';
import { growingLength } from '../../renderer/features/transcript/MessageView';

function table(rows: string[]): TableBlock {
  const block = parseMarkdown(['| # | file | note |', '|---:|---|---|', ...rows].join('\n'))[0];
  assert.equal(block?.type, 'table');
  return block as TableBlock;
}

const row = (n: number, note = `row ${n}`) => `| ${n} | src/file-${n}.ts | ${note} |`;

describe('long Markdown tables', () => {
  test('column widths follow the widest cell, header included, and stay put for a cell no wider', () => {
    const rows = Array.from({ length: 120 }, (_, n) => row(n + 1));
    const widths = columnWidths(table(rows));
    assert.equal(widths.length, 3);
    assert.ok(widths[1]! > widths[0]!, `the file column is wider than the number column (${widths})`);
    assert.deepEqual(columnWidths(table([...rows, row(121)])), widths, 'one more row of the same size changes nothing');
    const wider = columnWidths(table([...rows, row(122, 'a note much longer than any before it, on and on')]));
    assert.ok(wider[2]! > widths[2]!, 'a wider cell widens its column');
    assert.equal(wider[0], widths[0]);
    const capped = columnWidths(table([row(1, 'x'.repeat(2_000))]));
    assert.ok(capped[2]! <= 28, `a very long cell wraps within a capped column (${capped[2]} em)`);
    // Bold headers and inline code count for more than their letters.
    const [code] = columnWidths(table(['| `abcdefghij` | b | c |']));
    const [plain] = columnWidths(table(['| abcdefghij | b | c |']));
    assert.ok(code! >= plain!);
  });

  test('a reply ending in a long table is redrawn by the size of its last chunk of rows, a paragraph by its whole length', () => {
    const rows = Array.from({ length: 1_000 }, (_, n) => row(n + 1));
    const reply = ['# Report', '', 'Some prose.', '', '| # | file | note |', '|---:|---|---|', ...rows].join('\n');
    const lastChunk = rows.slice(-CHUNK_ROWS).join('\n').length;
    assert.ok(growingLength(reply) <= lastChunk + 1, `counted ${growingLength(reply)} characters, the last chunk has ${lastChunk}`);
    const paragraph = 'word '.repeat(5_000);
    assert.equal(growingLength(`# Title\n\n${paragraph}`), paragraph.length + 1);
    assert.equal(growingLength(`# Title\n\n| a | b |\n|---|---|\n| 1 | 2 |`), '\n| a | b |\n|---|---|\n| 1 | 2 |'.length);
  });
});
