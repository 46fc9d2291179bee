import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import * as React from 'react';
import { renderToStaticMarkup } from 'react-dom/server';
import { InlineMarkdown } from '../../renderer/features/transcript/Markdown';

// The bundle compiles JSX with the automatic runtime; tsx, under the root tsconfig (no "jsx"),
// with the classic one, which calls React.createElement on a global React.
Object.assign(globalThis, { React });

function html(text: string, marks = false): string {
  return renderToStaticMarkup(React.createElement(InlineMarkdown, { text, marks }));
}

describe('inline Markdown for permission reasons and search snippets', () => {
  test('backticks and asterisks become code and emphasis instead of showing raw', () => {
    const shown = html('runs `rm -rf build` and **deletes** files');
    assert.match(shown, /<code>rm -rf build<\/code>/);
    assert.match(shown, /<strong>deletes<\/strong>/);
    assert.doesNotMatch(shown, /[`*]/);
  });

  test('a snippet marks its matches, inside code and across a node boundary, and keeps links out of its button', () => {
    const shown = html('why does `npm «test»` **«fail»** see https://example.com/x «half `open» code`', true);
    assert.match(shown, /<code>npm <mark>test<\/mark><\/code>/);
    assert.match(shown, /<strong><span><mark>fail<\/mark><\/span><\/strong>/);
    assert.match(shown, /<mark>half <\/mark><\/span><code><mark>open<\/mark> code<\/code>/);
    assert.doesNotMatch(shown, /<a |[«»\uE000\uE001]/);
  });

  test('an unclosed mark stays as written; HTML in the text stays text', () => {
    assert.equal(html('no marks «unclosed', true), '<span class="markdown-inline">no marks «unclosed</span>');
    assert.match(html('<img src=x onerror=alert(1)>'), /&lt;img src=x onerror=alert\(1\)&gt;/);
  });
});
