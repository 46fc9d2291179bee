/**
 * Draws the tree of ./markdown-parser.ts as React elements. The only HTML inserted is the
 * syntax highlighter's escaped output in code blocks (../tools/CodeView.tsx), and the only links
 * are the https URLs the parser kept, opened outside the app.
 */
import { memo, useMemo, useRef, type ReactNode } from 'react';
import { CopyButton } from '../../ui/CopyButton';
import { CodeView } from '../tools/CodeView';
import { snippetSegments } from '../sessions/snippet';
import { parseInline, type Block } from './markdown-parser';
import { parseMarkdownFrom, type ParsedMarkdown } from './markdown-incremental';
import { MARK_CLOSE, MARK_OPEN, renderInlines } from './markdown-inlines';
import { MarkdownTable } from './MarkdownTable';

export const Markdown = memo(function Markdown({ text }: { text: string }) {
  // A streamed reply grows by a batch of deltas per frame: the blocks it had are kept
  // (./markdown-incremental.ts), and drawn again only when they changed.
  const parsed = useRef<ParsedMarkdown | undefined>(undefined);
  const blocks = useMemo(() => {
    parsed.current = parseMarkdownFrom(parsed.current, text);
    return parsed.current.blocks;
  }, [text]);
  return (
    <div className="markdown">
      {blocks.map((block, index) => (
        <MarkdownBlock key={index} block={block} />
      ))}
    </div>
  );
});

const MarkdownBlock = memo(function MarkdownBlock({ block }: { block: Block }) {
  return renderBlock(block, 0);
});

/**
 * Inline Markdown (code, emphasis, links) for text that is not a whole message: a permission
 * reason, a search snippet. With `marks`, the snippet's «matches» are highlighted.
 */
export const InlineMarkdown = memo(function InlineMarkdown({ text, marks = false }: { text: string; marks?: boolean }) {
  const nodes = useMemo(() => parseInline(marks ? withMarkBounds(text) : text), [text, marks]);
  return <span className="markdown-inline">{renderInlines(nodes, marks ? { open: false } : undefined)}</span>;
});

function withMarkBounds(snippet: string): string {
  return snippetSegments(snippet)
    .map((segment) => (segment.match ? `${MARK_OPEN}${segment.text}${MARK_CLOSE}` : segment.text))
    .join('');
}

function renderBlock(block: Block, key: number): ReactNode {
  switch (block.type) {
    case 'paragraph':
      return <p key={key}>{renderInlines(block.children)}</p>;
    case 'heading': {
      const Tag = `h${Math.min(6, block.level + 1)}` as 'h2';
      return <Tag key={key}>{renderInlines(block.children)}</Tag>;
    }
    case 'code':
      return <CodeBlock key={key} language={block.language} text={block.text} />;
    case 'list': {
      const items = block.items.map((item, index) => <li key={index}>{item.map(renderBlock)}</li>);
      return block.ordered ? (
        <ol key={key} start={block.start}>
          {items}
        </ol>
      ) : (
        <ul key={key}>{items}</ul>
      );
    }
    case 'quote':
      return <blockquote key={key}>{block.children.map(renderBlock)}</blockquote>;
    case 'rule':
      return <hr key={key} />;
    case 'table':
      return <MarkdownTable key={key} table={block} />;
  }
}

function CodeBlock({ language, text }: { language: string; text: string }) {
  return (
    <div className="code-block">
      <div className="code-header">
        <span className="code-language">{language || 'text'}</span>
        <CopyButton text={text} what={`${language || 'code'} block`} />
      </div>
      <CodeView text={text} language={language === '' ? undefined : language.toLowerCase()} />
    </div>
  );
}
