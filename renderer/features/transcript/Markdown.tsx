/**
 * Draws the tree of ./markdown-parser.ts as React elements. The only HTML inserted is the
 * syntax highlighter's escaped output in code blocks (../tools/CodeView.tsx), and the only links
 * are the https URLs the parser kept, opened outside the app.
 */
import { memo, useMemo, type ReactNode } from 'react';
import { CopyButton } from '../../ui/CopyButton';
import { CodeView } from '../tools/CodeView';
import { parseInline, parseMarkdown, type Block, type Inline } from './markdown-parser';

export const Markdown = memo(function Markdown({ text }: { text: string }) {
  const blocks = useMemo(() => parseMarkdown(text), [text]);
  return <div className="markdown">{blocks.map(renderBlock)}</div>;
});

/** One line of inline Markdown (code, emphasis, links) for text that is not a whole message: a permission reason, a search snippet. */
export const InlineMarkdown = memo(function InlineMarkdown({ text }: { text: string }) {
  const nodes = useMemo(() => parseInline(text), [text]);
  return <span className="markdown-inline">{renderInlines(nodes)}</span>;
});

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

function renderInlines(nodes: Inline[]): ReactNode[] {
  return nodes.map((node, key) => {
    switch (node.type) {
      case 'text':
        return node.text;
      case 'code':
        return <code key={key}>{node.text}</code>;
      case 'strong':
        return <strong key={key}>{renderInlines(node.children)}</strong>;
      case 'em':
        return <em key={key}>{renderInlines(node.children)}</em>;
      case 'del':
        return <del key={key}>{renderInlines(node.children)}</del>;
      case 'break':
        return <br key={key} />;
      case 'link':
        return (
          <a key={key} href={node.href} target="_blank" rel="noreferrer noopener">
            {renderInlines(node.children)}
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
