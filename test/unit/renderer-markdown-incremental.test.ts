import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { parseMarkdown } from '../../renderer/features/transcript/markdown-parser';
import { parseMarkdownFrom, type ParsedMarkdown } from '../../renderer/features/transcript/markdown-incremental';

/** A small seeded generator, so a failure names a split that can be run again. */
function random(seed: number): () => number {
  let state = seed >>> 0 || 1;
  return () => {
    state ^= state << 13;
    state ^= state >>> 17;
    state ^= state << 5;
    return (state >>> 0) / 2 ** 32;
  };
}

/** Real documents: this repository's README, cut at its sections (fences, tables, lists, quotes among them). */
function readmeSections(): string[] {
  const readme = readFileSync(join(import.meta.dirname, '../../README.md'), 'utf8');
  return readme.split(/\n(?=## )/).filter((section) => section.length > 200);
}

/** What streaming meets that a finished document rarely shows: blocks cut where their kind is not known yet. */
const EDGES = [
  'para\n#',
  'para\n# heading\nafter',
  'a | b\n--\n| 1 | 2 |\n\ntext',
  '- one\n\n  still one\n- two\n\n3. three\n   cont\n4) four\n\nafter',
  '> quote\n> more\n\n```ts\nconst a = 1;\n```\n~~~\nopen tilde\n',
  'text\r\nwith CRLF\r\n\r\n- item\r\n',
  '***\n___\n- - -\ntext *em* **strong** `code` ~~del~~ [link](https://example.com) https://example.com/x.',
  '```\nunclosed fence\n\n# not a heading\n',
  'Line one  \nline two\\\nline three\n\n    indented\n\n| x |\n|:-:|\n| y |',
];

/** Feeds `document` in random pieces; each prefix's incremental parse must equal its full parse. */
function streamAndCompare(document: string, seed: number, maxPiece: number): void {
  const next = random(seed);
  let parsed: ParsedMarkdown | undefined;
  let at = 0;
  while (at < document.length) {
    at = Math.min(document.length, at + 1 + Math.floor(next() * maxPiece));
    const prefix = document.slice(0, at);
    parsed = parseMarkdownFrom(parsed, prefix);
    assert.deepEqual(parsed.blocks, parseMarkdown(prefix), `seed ${seed}: the parse of the first ${at} characters differs from a full parse`);
  }
}

describe('incremental markdown: the same blocks as a full parse', () => {
  test('the README streamed in random pieces, section by section', () => {
    const sections = readmeSections();
    assert.ok(sections.length > 5, 'the README has sections');
    const all = sections.join('\n');
    assert.ok(all.includes('```') && /\n\|.*\|\n/.test(all) && /\n- /.test(all), 'the sections hold fences, tables and lists');
    sections.forEach((section, index) => streamAndCompare(section, index + 1, 120));
  });

  test('edge cases streamed a character or a few at a time, with many seeds', () => {
    for (const [index, document] of EDGES.entries()) {
      for (let seed = 1; seed <= 12; seed++) streamAndCompare(document, seed * 100 + index, 4);
    }
  });

  test('text that is edited, not only appended to (a rewind, a replaced message), parses as a full parse does', () => {
    const next = random(7);
    let parsed: ParsedMarkdown | undefined;
    const documents = [...EDGES, ...readmeSections().slice(0, 4)];
    for (let step = 0; step < 300; step++) {
      const document = documents[Math.floor(next() * documents.length)]!;
      const cut = Math.floor(next() * document.length);
      const text = next() < 0.5 ? document.slice(0, cut) : document.slice(0, cut) + 'X\n' + document.slice(cut + 3);
      parsed = parseMarkdownFrom(parsed, text);
      assert.deepEqual(parsed.blocks, parseMarkdown(text), `step ${step}`);
    }
  });

  test('a long table streamed in random pieces parses as a full parse does, and keeps its finished rows (the same objects)', () => {
    const rows = Array.from({ length: 120 }, (_, row) => `| ${row} | \`file-${row}.ts\` | ${row % 7 === 0 ? '**failed**' : 'ok'} |`);
    const document = ['Before the table.', '', '| # | file | status |', '|---:|---|:---:|', ...rows, '', 'After it.'].join('\n');
    for (let seed = 1; seed <= 4; seed++) streamAndCompare(document, seed, 40);
    const cut = document.indexOf('| 60 |');
    const first = parseMarkdownFrom(undefined, document.slice(0, cut + 4));
    const second = parseMarkdownFrom(first, document.slice(0, cut + 30));
    const [before, after] = [first.blocks[1], second.blocks[1]];
    assert.ok(before?.type === 'table' && after?.type === 'table');
    assert.equal(before.rows.length, 61, 'row 60 has begun');
    for (let row = 0; row < 60; row++) assert.equal(after.rows[row], before.rows[row], `row ${row} was parsed again`);
    assert.notEqual(after.rows[60], before.rows[60], 'the growing row is parsed again');
    assert.equal(after.header, before.header);
    // An edit inside the table parses the rows from the edit on again.
    const edited = parseMarkdownFrom(second, document.slice(0, cut + 30).replace('| 30 | `file-30.ts`', '| 30 | `other.ts`'));
    assert.deepEqual(edited.blocks, parseMarkdown(document.slice(0, cut + 30).replace('| 30 | `file-30.ts`', '| 30 | `other.ts`')));
    const table = edited.blocks[1]!;
    assert.ok(table.type === 'table');
    assert.equal(table.rows[29], after.rows[29]);
    assert.notEqual(table.rows[30], after.rows[30]);
  });

  test('finished blocks are kept as they were (the same objects): appending costs the last block', () => {
    const first = parseMarkdownFrom(undefined, '# Title\n\nA paragraph.\n\n```ts\nconst a = 1;\n```\n\n- a list');
    const second = parseMarkdownFrom(first, '# Title\n\nA paragraph.\n\n```ts\nconst a = 1;\n```\n\n- a list\n- that grows');
    assert.equal(second.blocks.length, 4);
    for (let index = 0; index < 3; index++) assert.equal(second.blocks[index], first.blocks[index], `block ${index} was parsed again`);
    assert.notEqual(second.blocks[3], first.blocks[3], 'the open list is parsed again');
    const changedStart = parseMarkdownFrom(second, '# Other\n\nA paragraph.');
    assert.notEqual(changedStart.blocks[0], first.blocks[0], 'a changed first line is parsed again');
    assert.deepEqual(changedStart.blocks, parseMarkdown('# Other\n\nA paragraph.'));
  });
});
