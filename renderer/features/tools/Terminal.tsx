/**
 * Terminal output with its ANSI colors; the last lines only, unless "Show all". Lines are
 * drawn from the parsed buffer (./terminal-buffer.ts) and keyed by their line number, so an
 * update draws its new lines and nothing else. "Show all" draws the kept lines in pages that
 * stay as they are once full, and the browser skips laying out the pages scrolled out of view.
 */
import { memo, useMemo, useState } from 'react';
import type { CSSProperties } from 'react';
import type { AnsiSpan } from './ansi';
import { partialLine, terminalLineCount, type TerminalBuffer, type TerminalLine } from './terminal-buffer';

const TAIL_LINES = 30;
const PAGE_LINES = 200;

export const Terminal = memo(function Terminal({ buffer, label }: { buffer: TerminalBuffer; label: string }) {
  const [showAll, setShowAll] = useState(false);
  const partial = useMemo(() => partialLine(buffer), [buffer.partial, buffer.partialStyle]);
  const lines = terminalLineCount(buffer);
  const long = lines > TAIL_LINES;
  const hidden = (showAll ? 0 : Math.max(0, lines - TAIL_LINES)) + buffer.droppedLines;
  return (
    <div className="terminal-frame">
      {hidden > 0 ? (
        <div className="output-note">
          {hidden} earlier {hidden === 1 ? 'line' : 'lines'} {showAll ? 'no longer kept' : 'hidden'}
          {!showAll && long ? (
            <button type="button" className="link-button" onClick={() => setShowAll(true)}>
              Show all
            </button>
          ) : null}
        </div>
      ) : null}
      <pre className="terminal" role="group" aria-label={label} tabIndex={0}>
        {showAll ? <AllLines buffer={buffer} /> : <TailLines buffer={buffer} count={TAIL_LINES - (buffer.partial === '' ? 0 : 1)} />}
        {buffer.partial === '' ? null : <Line spans={partial} end="" />}
      </pre>
      {showAll && long ? (
        <button type="button" className="link-button" onClick={() => setShowAll(false)}>
          Show less
        </button>
      ) : null}
    </div>
  );
});

/** The last `count` finished lines. */
function TailLines({ buffer, count }: { buffer: TerminalBuffer; count: number }) {
  const from = Math.max(buffer.start, buffer.end - count);
  const firstNumber = buffer.droppedLines + (from - buffer.start);
  return buffer.lines.slice(from, buffer.end).map((spans, index) => <Line key={firstNumber + index} spans={spans} end={'\n'} />);
}

/** Every finished line, in pages keyed by their place in the whole output. */
function AllLines({ buffer }: { buffer: TerminalBuffer }) {
  const pages = [];
  const firstNumber = buffer.droppedLines;
  for (let page = Math.floor(firstNumber / PAGE_LINES); page * PAGE_LINES < firstNumber + buffer.end - buffer.start; page++) {
    const from = buffer.start + Math.max(0, page * PAGE_LINES - firstNumber);
    const to = buffer.start + Math.min(buffer.end - buffer.start, (page + 1) * PAGE_LINES - firstNumber);
    pages.push(<Page key={page} lines={buffer.lines} from={from} to={to} firstNumber={firstNumber + from - buffer.start} />);
  }
  return pages;
}

/** Memoized on the shared line array and a range of it: a full page never draws again. */
const Page = memo(function Page({ lines, from, to, firstNumber }: { lines: readonly TerminalLine[]; from: number; to: number; firstNumber: number }) {
  return (
    <span className="terminal-page">
      {lines.slice(from, to).map((spans, index) => (
        <Line key={firstNumber + index} spans={spans} end={'\n'} />
      ))}
    </span>
  );
});

const Line = memo(function Line({ spans, end }: { spans: TerminalLine; end: string }) {
  return (
    <span>
      {spans.map((span, index) => {
        const style = styleOf(span);
        return style ? (
          <span key={index} style={style}>
            {span.text}
          </span>
        ) : (
          span.text
        );
      })}
      {end}
    </span>
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
