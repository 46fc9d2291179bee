/**
 * Draws the tree of ./markdown-parser.ts as React elements. The only HTML inserted is the
 * syntax highlighter's escaped output in code blocks (../tools/CodeView.tsx), and the only links
 * are the https URLs the parser kept, opened outside the app.
 */
import { memo, useMemo, useRef, type ReactNode } from 'react';
import { CopyButton } from '../../ui/CopyButton';
import { CodeView } from '../tools/CodeView';
import { snippetSegments } from '../sessions/snippet';
import { parseInline, type Block, type Inline } from './markdown-parser';
import { parseMarkdownFrom, type ParsedMarkdown } from './markdown-incremental';

// A search match's bounds, as characters no text holds (Unicode private use), so they pass through
// the Markdown parser inside whichever text or code they fall in.
const MARK_OPEN = '\uE000';
const MARK_CLOSE = '\uE001';
const MARK_BOUND = /([\uE000\uE001])/;

/** Whether the text being drawn is inside a search match; a match may open in one node and close in another. */
interface Marking {
  open: boolean;
}

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

/** Text with the marked parts in <mark>; plain text when nothing is marked. */
function marked(text: string, marking: Marking | undefined): ReactNode {
  if (marking === undefined || (!marking.open && !MARK_BOUND.test(text))) return text;
  const out: ReactNode[] = [];
  for (const piece of text.split(MARK_BOUND)) {
    if (piece === MARK_OPEN) marking.open = true;
    else if (piece === MARK_CLOSE) marking.open = false;
    else if (piece !== '') out.push(marking.open ? <mark key={out.length}>{piece}</mark> : piece);
  }
  return out;
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
      return (
        <div key={key} className="table-scroll">
          <table>
            <thead>
              <tr>
                {block.header.map((cell, column) => (
                  <th key={column} style={{ textAlign: block.align[column] ?? undefined }}>
                    {renderInlines(cell)}
                  </th>
                ))}
              </tr>
            </thead>
            <tbody>
              {block.rows.map((row, index) => (
                <tr key={index}>
                  {row.map((cell, column) => (
                    <td key={column} style={{ textAlign: block.align[column] ?? undefined }}>
                      {renderInlines(cell)}
                    </td>
                  ))}
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      );
  }
}

function renderInlines(nodes: Inline[], marking?: Marking): ReactNode[] {
  return nodes.map((node, key) => {
    switch (node.type) {
      case 'text': {
        const text = marked(node.text, marking);
        return typeof text === 'string' ? text : <span key={key}>{text}</span>;
      }
      case 'code':
        return <code key={key}>{marked(node.text, marking)}</code>;
      case 'strong':
        return <strong key={key}>{renderInlines(node.children, marking)}</strong>;
      case 'em':
        return <em key={key}>{renderInlines(node.children, marking)}</em>;
      case 'del':
        return <del key={key}>{renderInlines(node.children, marking)}</del>;
      case 'break':
        return <br key={key} />;
      case 'link':
        // A snippet is drawn inside the button that opens its session, where a link cannot be.
        if (marking !== undefined) return <span key={key}>{renderInlines(node.children, marking)}</span>;
        return (
          <a key={key} href={node.href} target="_blank" rel="noreferrer noopener">
            {renderInlines(node.children, marking)}
          </a>
        );
    }
  });
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
