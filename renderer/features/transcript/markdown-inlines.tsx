/** Inline Markdown nodes as React elements, for ./Markdown.tsx and ./MarkdownTable.tsx. */
import type { ReactNode } from 'react';
import type { Inline } from './markdown-parser';

// A search match's bounds, as characters no text holds (Unicode private use), so they pass through
// the Markdown parser inside whichever text or code they fall in.
export const MARK_OPEN = '\uE000';
export const MARK_CLOSE = '\uE001';
const MARK_BOUND = /([\uE000\uE001])/;

/** Whether the text being drawn is inside a search match; a match may open in one node and close in another. */
export interface Marking {
  open: boolean;
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

export function renderInlines(nodes: Inline[], marking?: Marking): ReactNode[] {
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
