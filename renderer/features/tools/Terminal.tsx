/**
 * Terminal output with its ANSI colors, drawn from the bounded buffer (./terminal-buffer.ts):
 * its first lines, a row saying how many were left out, and its last lines. The view is a
 * scroll box of at most VISIBLE_LINES lines that draws only the lines in view (lines do not
 * wrap, so every row is LINE_HEIGHT tall and nothing has to be measured), so 5,000 kept lines
 * cost what 30 do. It starts at the bottom (a finished command shows its tail) and follows new
 * output while it is there; scrolled up, it stays put.
 */
import { useVirtualizer } from '@tanstack/react-virtual';
import { memo, useLayoutEffect, useMemo, useRef } from 'react';
import type { CSSProperties } from 'react';
import { observeRectWithoutLayout } from '../../ui/virtual-layout';
import { afterScroll, type FollowState } from '../transcript/follow';
import type { AnsiSpan } from './ansi';
import { lineSpans, partialLine, type TerminalBuffer, type TerminalLine } from './terminal-buffer';

/** Matches `.terminal-line` in ../../app/styles/terminal.css. */
const LINE_HEIGHT = 18;
const VISIBLE_LINES = 24;
/** The vertical padding of `.terminal`, both sides together (its box is sized border-box). */
const PADDING = 16;

type Row = { kind: 'line'; line: TerminalLine; number: number } | { kind: 'gap'; count: number };

export const Terminal = memo(function Terminal({ buffer, label }: { buffer: TerminalBuffer; label: string }) {
  const scroller = useRef<HTMLPreElement>(null);
  const follow = useRef<FollowState>({ following: true, lastTop: 0 });
  const partial = useMemo(() => partialLine(buffer), [buffer.partial, buffer.partialStyle]);
  const headCount = buffer.head.length;
  const gapRows = buffer.droppedLines > 0 ? 1 : 0;
  const tailCount = buffer.end - buffer.start;
  const count = headCount + gapRows + tailCount + (buffer.partial === '' ? 0 : 1);

  const rowAt = (index: number): Row => {
    if (index < headCount) return { kind: 'line', line: buffer.head[index]!, number: index };
    if (gapRows === 1 && index === headCount) return { kind: 'gap', count: buffer.droppedLines };
    const tailIndex = index - headCount - gapRows;
    const number = headCount + buffer.droppedLines + tailIndex;
    return tailIndex < tailCount ? { kind: 'line', line: buffer.lines[buffer.start + tailIndex]!, number } : { kind: 'line', line: partial, number };
  };

  const virtualizer = useVirtualizer({
    count,
    getScrollElement: () => scroller.current,
    estimateSize: () => LINE_HEIGHT,
    overscan: 8,
    initialOffset: () => Math.max(0, count - VISIBLE_LINES) * LINE_HEIGHT,
    // Its height is known (below); its width does not matter to rows of one line each.
    initialRect: { width: 0, height: Math.min(count, VISIBLE_LINES) * LINE_HEIGHT + PADDING },
    observeElementRect: observeRectWithoutLayout,
    // A scroll re-renders with the next batch, not synchronously inside the scroll event.
    useFlushSync: false,
  });

  // Following sets the scroll position from the virtualizer's own size and never reads it
  // back: reading scrollHeight after each update forced a layout of the page per update. The
  // position is set at the start of the next frame, when the page is laid out already: set
  // right after the update, even the write made the browser lay the page out then and there.
  useLayoutEffect(() => {
    if (!follow.current.following) return;
    const frame = requestAnimationFrame(() => {
      if (follow.current.following && scroller.current) scroller.current.scrollTop = virtualizer.getTotalSize() + PADDING;
    });
    return () => cancelAnimationFrame(frame);
  }, [count, virtualizer]);

  // Only a scroll up leaves the bottom (the transcript's rule, ../transcript/follow.ts): a
  // scroll event arrives a frame after the position was set, and by then more output may have
  // made the rows taller, which left the bottom behind and stopped following by itself (the
  // e2e test caught a finished command showing a line 2,900 from its end).
  const onScroll = () => {
    const element = scroller.current;
    if (!element) return;
    const sample = { scrollTop: element.scrollTop, scrollHeight: virtualizer.getTotalSize() + PADDING, clientHeight: element.clientHeight, byPerson: true };
    follow.current = afterScroll(follow.current, sample);
  };

  const rows = virtualizer.getVirtualItems();
  const height = Math.min(count, VISIBLE_LINES) * LINE_HEIGHT + PADDING;
  return (
    <div className="terminal-frame">
      {buffer.droppedLines > 0 ? (
        <div className="output-note">
          {buffer.droppedLines.toLocaleString('en-US')} {buffer.droppedLines === 1 ? 'line' : 'lines'} left out: the first {headCount} and the last{' '}
          {(tailCount + (buffer.partial === '' ? 0 : 1)).toLocaleString('en-US')} are kept
        </div>
      ) : null}
      <pre ref={scroller} className="terminal" role="group" aria-label={label} tabIndex={0} style={{ height }} onScroll={onScroll}>
        <div className="terminal-rows" style={{ height: virtualizer.getTotalSize() }}>
          {rows.map((row) => {
            const content = rowAt(row.index);
            return content.kind === 'gap' ? (
              <div key="gap" className="terminal-line terminal-gap" style={{ transform: `translateY(${row.start}px)` }}>
                {`[… ${content.count.toLocaleString('en-US')} lines left out …]`}
              </div>
            ) : (
              <Line key={content.number} line={content.line} top={row.start} />
            );
          })}
        </div>
      </pre>
    </div>
  );
});

/** Memoized on its line and place: a line kept in view as output grows draws once, and is parsed only when drawn. */
const Line = memo(function Line({ line, top }: { line: TerminalLine; top: number }) {
  return (
    <div className="terminal-line" style={{ transform: `translateY(${top}px)` }}>
      {lineSpans(line).map((span, index) => {
        const spanStyle = styleOf(span);
        return spanStyle ? (
          <span key={index} style={spanStyle}>
            {span.text}
          </span>
        ) : (
          span.text
        );
      })}
      {'\n'}
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
