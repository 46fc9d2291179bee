import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { parseInline, parseMarkdown, safeHref, type Block, type Inline } from '../../renderer/features/transcript/markdown-parser';

/** Every link target anywhere in the tree. */
function links(nodes: (Block | Inline)[]): string[] {
  const found: string[] = [];
  const visit = (node: Block | Inline) => {
    if (node.type === 'link') found.push(node.href);
    if ('children' in node) (node.children as (Block | Inline)[]).forEach(visit);
    if (node.type === 'list') node.items.flat().forEach(visit);
    if (node.type === 'table') [...node.header.flat(), ...node.rows.flat(2)].forEach(visit);
  };
  nodes.forEach(visit);
  return found;
}

function plain(nodes: Inline[]): string {
  return nodes.map((node) => (node.type === 'text' || node.type === 'code' ? node.text : node.type === 'break' ? '\n' : 'children' in node ? plain(node.children) : '')).join('');
}

describe('markdown parser', () => {
  test('headings, paragraphs, emphasis and inline code', () => {
    const blocks = parseMarkdown('# Title\n\nSome **bold**, *italic* and `code`.');
    assert.deepEqual(blocks[0], { type: 'heading', level: 1, children: [{ type: 'text', text: 'Title' }] });
    assert.deepEqual(blocks[1], {
      type: 'paragraph',
      children: [
        { type: 'text', text: 'Some ' },
        { type: 'strong', children: [{ type: 'text', text: 'bold' }] },
        { type: 'text', text: ', ' },
        { type: 'em', children: [{ type: 'text', text: 'italic' }] },
        { type: 'text', text: ' and ' },
        { type: 'code', text: 'code' },
        { type: 'text', text: '.' },
      ],
    });
  });

  test('fenced code keeps its text verbatim, and an unclosed fence (still streaming) runs to the end', () => {
    const [closed, after] = parseMarkdown('```ts\nconst a = "**not bold**";\n```\nafter');
    assert.deepEqual(closed, { type: 'code', language: 'ts', text: 'const a = "**not bold**";' });
    assert.equal(after?.type, 'paragraph');
    const [open] = parseMarkdown('```\nline 1\nline 2');
    assert.deepEqual(open, { type: 'code', language: '', text: 'line 1\nline 2' });
  });

  test('lists, ordered lists with a start, and nesting', () => {
    const [bullets, numbers] = parseMarkdown('- one\n- two\n  - nested\n\n3. three\n4. four');
    assert.equal(bullets?.type, 'list');
    if (bullets?.type !== 'list') return;
    assert.equal(bullets.items.length, 2);
    assert.equal(bullets.items[1]?.[1]?.type, 'list', 'the indented item is a nested list');
    assert.deepEqual(numbers && numbers.type === 'list' ? [numbers.ordered, numbers.start, numbers.items.length] : null, [true, 3, 2]);
  });

  test('tables with alignment', () => {
    const [table] = parseMarkdown('| a | b |\n|:--|--:|\n| 1 | 2 |');
    assert.equal(table?.type, 'table');
    if (table?.type !== 'table') return;
    assert.deepEqual(table.align, ['left', 'right']);
    assert.equal(plain(table.rows[0]![1]!), '2');
  });

  test('https links become links; javascript:, data: and http: links stay text', () => {
    const blocks = parseMarkdown('[ok](https://example.com/a) [bad](javascript:alert(1)) [data](data:text/html,<b>x</b>) [plain](http://example.com) see https://example.org/x.');
    assert.deepEqual(links(blocks), ['https://example.com/a', 'https://example.org/x']);
    const text = plain((blocks[0] as { children: Inline[] }).children);
    assert.match(text, /bad \(javascript:alert\(1\)\)/, 'the unsafe target is shown as text');
  });

  test('HTML is never markup: <script> stays text', () => {
    const [paragraph] = parseMarkdown('<script>alert(1)</script> and <img src=x onerror=alert(1)>');
    assert.equal(paragraph?.type, 'paragraph');
    if (paragraph?.type !== 'paragraph') return;
    assert.equal(plain(paragraph.children), '<script>alert(1)</script> and <img src=x onerror=alert(1)>');
    assert.ok(paragraph.children.every((node) => node.type === 'text'));
  });

  test('safeHref accepts only https', () => {
    assert.equal(safeHref('https://a.example/'), 'https://a.example/');
    assert.equal(safeHref(' JavaScript:alert(1)'), null);
    assert.equal(safeHref('vbscript:x'), null);
    assert.equal(safeHref('/relative'), null);
  });

  test('snake_case words are not italic, and escapes are literal', () => {
    assert.equal(plain(parseInline('use snake_case_names here')), 'use snake_case_names here');
    assert.deepEqual(
      parseInline('use snake_case_names here').map((node) => node.type),
      ['text'],
    );
    assert.deepEqual(parseInline('\\*not em\\*'), [{ type: 'text', text: '*not em*' }]);
  });

  test('an unclosed emphasis while streaming stays literal', () => {
    assert.deepEqual(parseInline('so **bol'), [{ type: 'text', text: 'so **bol' }]);
  });
});
