/**
 * The scrollback of a streamed terminal, as parsed lines: carriage returns applied (a progress
 * bar redrawn with `\r` keeps only its last state), colors carried from line to line, bounded
 * to the first HEAD_LINES and the last MAX_TERMINAL_LINES lines, with the count of those left
 * out between, so a command that prints forever cannot exhaust the renderer and its first
 * lines (the command's own start, often where an error is) stay readable.
 *
 * A bash call can send megabytes a second, so an update costs what it keeps, not what it
 * carries or what came before: a line is kept raw with the style it starts in (found by reading
 * only the escape sequences of the lines before it), and its colors are parsed when it is drawn
 * (lineSpans), so of 5,000 kept lines only the few in view are ever parsed; of a chunk longer
 * than the bound only the lines that stay are split; and finished lines live in an array
 * that versions of the buffer share and only ever append to (each version sees its own range
 * of it), so a new version copies nothing. Versions stay immutable to their readers: appending
 * to one that is not the newest copies its range first.
 */
import { parseAnsiFrom, styleAfter, type AnsiSpan, type AnsiStyle } from './ansi';

export const MAX_TERMINAL_LINES = 5000;
/** The first lines, kept whatever follows. */
export const HEAD_LINES = 100;
/** A line is broken here, so one endless line (output without line breaks) stays drawable. */
export const MAX_LINE_CHARS = 8192;

/** A finished line as printed (escape sequences kept) and the style it starts in. */
export interface TerminalLine {
  readonly text: string;
  readonly style: AnsiStyle;
}

const parsed = new WeakMap<TerminalLine, readonly AnsiSpan[]>();

/** A line's colored spans, parsed on first use and kept while the line is. */
export function lineSpans(line: TerminalLine): readonly AnsiSpan[] {
  let spans = parsed.get(line);
  if (!spans) {
    spans = parseAnsiFrom(line.text, line.style).spans;
    parsed.set(line, spans);
  }
  return spans;
}

export interface TerminalBuffer {
  /** The first finished lines, at most HEAD_LINES; the tail below starts once it is full. */
  readonly head: readonly TerminalLine[];
  /** The newest finished lines, shared with other versions: this version's are `lines[start, end)`. */
  readonly lines: readonly TerminalLine[];
  readonly start: number;
  readonly end: number;
  /** Lines left out between the head and the tail to keep the bound. */
  readonly droppedLines: number;
  /** The unfinished last line, raw (ANSI sequences kept), and the style it starts in. */
  readonly partial: string;
  readonly partialStyle: AnsiStyle;
  /** The previous chunk ended in `\r`: a `\n` next is a CRLF, anything else a line rewrite. */
  readonly pendingReturn: boolean;
}

export const EMPTY_TERMINAL: TerminalBuffer = { head: [], lines: [], start: 0, end: 0, droppedLines: 0, partial: '', partialStyle: {}, pendingReturn: false };

export function appendTerminal(buffer: TerminalBuffer, chunk: string, maxLines = MAX_TERMINAL_LINES, headLines = HEAD_LINES): TerminalBuffer {
  // While the head has room, the lines that fill it go in first, so the cut below never drops them.
  const room = buffer.end === buffer.start && buffer.droppedLines === 0 ? headLines - buffer.head.length : 0;
  if (room > 0) {
    const split = afterBreaks(chunk, room);
    if (split > 0 && split < chunk.length) return appendTerminal(appendTerminal(buffer, chunk.slice(0, split), maxLines, headLines), chunk.slice(split), maxLines, headLines);
  }
  let head = buffer.head;
  let input = buffer.pendingReturn ? '\r' + chunk : chunk;
  const pendingReturn = input.endsWith('\r');
  if (pendingReturn) input = input.slice(0, -1);

  // Append in place only to the newest version; the empty buffer's array is everyone's.
  const owned = buffer.end > 0 && buffer.lines.length === buffer.end;
  let lines = owned ? (buffer.lines as TerminalLine[]) : buffer.lines.slice(buffer.start, buffer.end);
  let start = owned ? buffer.start : 0;
  let droppedLines = buffer.droppedLines;
  let partial = buffer.partial;
  let style = buffer.partialStyle;

  // Lines the bound would drop at once are counted, and their colors followed, but never split.
  const cut = cutBeforeLastBreaks(input, maxLines);
  if (cut > 0) {
    const skipped = input.slice(0, cut);
    style = styleAfter(skipped, styleAfter(partial, style));
    droppedLines += lines.length - start + countBreaks(skipped);
    start = lines.length;
    partial = '';
    input = input.slice(cut);
  }

  const finish = (text: string) => {
    for (let from = 0; from === 0 || from < text.length; from += MAX_LINE_CHARS) {
      const line: TerminalLine = { text: text.slice(from, from + MAX_LINE_CHARS), style };
      if (head.length < headLines && lines.length === start && droppedLines === 0) head = [...head, line];
      else lines.push(line);
      style = styleAfter(line.text, style);
    }
  };
  let at = 0;
  for (let newline = input.indexOf('\n'); newline >= 0; newline = input.indexOf('\n', at)) {
    const end = newline > at && input.charCodeAt(newline - 1) === 13 ? newline - 1 : newline;
    const line = rewrite(partial + input.slice(at, end), style);
    style = line.style;
    finish(line.text);
    partial = '';
    at = newline + 1;
  }
  const rest = rewrite(partial + input.slice(at), style);
  style = rest.style;
  partial = rest.text;
  if (partial.length > MAX_LINE_CHARS) {
    finish(partial.slice(0, partial.length - (partial.length % MAX_LINE_CHARS)));
    partial = partial.slice(partial.length - (partial.length % MAX_LINE_CHARS));
  }

  if (lines.length - start > maxLines) {
    const drop = lines.length - start - maxLines;
    start += drop;
    droppedLines += drop;
  }
  // The array's dead start is let go once it outgrows what is kept: amortized, a copy per maxLines lines.
  if (start > maxLines) {
    lines = lines.slice(start);
    start = 0;
  }
  return { head, lines, start, end: lines.length, droppedLines, partial, partialStyle: style, pendingReturn };
}

/** A bare `\r` starts the line over: what was drawn before it is gone, its colors are not. */
function rewrite(text: string, style: AnsiStyle): { text: string; style: AnsiStyle } {
  const last = text.lastIndexOf('\r');
  if (last < 0) return { text, style };
  return { text: text.slice(last + 1), style: styleAfter(text.slice(0, last), style) };
}

/** Lines in the buffer: the finished ones and a started last one. */
export function terminalLineCount(buffer: TerminalBuffer): number {
  return buffer.head.length + buffer.end - buffer.start + (buffer.partial === '' ? 0 : 1);
}

export function isEmptyTerminal(buffer: TerminalBuffer): boolean {
  return buffer.head.length === 0 && buffer.end === buffer.start && buffer.partial === '' && buffer.droppedLines === 0;
}

/** The unfinished last line (empty text when there is none). */
export function partialLine(buffer: TerminalBuffer): TerminalLine {
  return { text: buffer.partial, style: buffer.partialStyle };
}

/** The text shown, without colors: finished lines end in `\n`. */
export function terminalText(buffer: TerminalBuffer): string {
  const plain = (line: TerminalLine) =>
    lineSpans(line)
      .map((span) => span.text)
      .join('');
  return [...buffer.head, ...buffer.lines.slice(buffer.start, buffer.end)].map((line) => plain(line) + '\n').join('') + plain(partialLine(buffer));
}

/** Where the last `count` line breaks of `text` start being kept: just after the one before them, or 0. */
function cutBeforeLastBreaks(text: string, count: number): number {
  let at = text.length;
  for (let found = 0; found <= count; found++) {
    if (at === 0) return 0;
    at = text.lastIndexOf('\n', at - 1);
    if (at < 0) return 0;
  }
  return at + 1;
}

/** Just after the `count`-th line break of `text`, or 0 when it has fewer. */
function afterBreaks(text: string, count: number): number {
  let at = -1;
  for (let found = 0; found < count; found++) {
    at = text.indexOf('\n', at + 1);
    if (at < 0) return 0;
  }
  return at + 1;
}

function countBreaks(text: string): number {
  let count = 0;
  for (let at = text.indexOf('\n'); at >= 0; at = text.indexOf('\n', at + 1)) count++;
  return count;
}
