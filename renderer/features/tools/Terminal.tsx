/** Terminal output with its ANSI colors; the last lines only, unless "Show all". */
import { memo, useMemo, useState } from 'react';
import type { CSSProperties } from 'react';
import { countLines, parseAnsi, tailSpans, type AnsiSpan } from './ansi';

const TAIL_LINES = 30;

export const Terminal = memo(function Terminal({ text, droppedLines, label }: { text: string; droppedLines: number; label: string }) {
  const [showAll, setShowAll] = useState(false);
  const spans = useMemo(() => parseAnsi(text), [text]);
  const lines = useMemo(() => countLines(text), [text]);
  const shown = showAll || lines <= TAIL_LINES ? spans : tailSpans(spans, TAIL_LINES);
  const hidden = (showAll ? 0 : Math.max(0, lines - TAIL_LINES)) + droppedLines;
  return (
    <div className="terminal-frame">
      {hidden > 0 ? (
        <div className="output-note">
          {hidden} earlier {hidden === 1 ? 'line' : 'lines'} {showAll ? 'no longer kept' : 'hidden'}
          {!showAll && lines > TAIL_LINES ? (
            <button type="button" className="link-button" onClick={() => setShowAll(true)}>
              Show all
            </button>
          ) : null}
        </div>
      ) : null}
      <pre className="terminal" role="group" aria-label={label} tabIndex={0}>
        {shown.map((span, index) => (
          <span key={index} style={styleOf(span)}>
            {span.text}
          </span>
        ))}
      </pre>
      {showAll && lines > TAIL_LINES ? (
        <button type="button" className="link-button" onClick={() => setShowAll(false)}>
          Show less
        </button>
      ) : null}
    </div>
  );
});

function styleOf({ style }: AnsiSpan): CSSProperties | undefined {
  if (Object.keys(style).length === 0) return undefined;
  const fg = style.inverse ? (style.bg ?? 'var(--terminal-bg)') : style.fg;
  const bg = style.inverse ? (style.fg ?? 'var(--terminal-fg)') : style.bg;
  return {
    color: fg,
    backgroundColor: bg,
    fontWeight: style.bold ? 'bold' : undefined,
    opacity: style.dim ? 0.7 : undefined,
    fontStyle: style.italic ? 'italic' : undefined,
    textDecoration: style.underline ? 'underline' : undefined,
  };
}
