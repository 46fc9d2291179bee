/**
 * The scrollback of a streamed terminal: raw output with its ANSI sequences, carriage returns
 * applied (a progress bar redrawn with `\r` keeps only its last state), bounded to the last
 * MAX_TERMINAL_LINES lines so a command that prints forever cannot exhaust the renderer.
 */

export const MAX_TERMINAL_LINES = 5000;

export interface TerminalBuffer {
  text: string;
  /** Line breaks in `text`. */
  breaks: number;
  /** Lines dropped from the top to keep the bound. */
  droppedLines: number;
  /** The previous chunk ended in `\r`: a `\n` next is a CRLF, anything else a line rewrite. */
  pendingReturn: boolean;
}

export const EMPTY_TERMINAL: TerminalBuffer = { text: '', breaks: 0, droppedLines: 0, pendingReturn: false };

export function appendTerminal(buffer: TerminalBuffer, chunk: string, maxLines = MAX_TERMINAL_LINES): TerminalBuffer {
  let input = buffer.pendingReturn ? '\r' + chunk : chunk;
  const pendingReturn = input.endsWith('\r');
  if (pendingReturn) input = input.slice(0, -1);

  let text = buffer.text;
  let breaks = buffer.breaks;
  const separators = /\r\n|\n|\r/g;
  let start = 0;
  for (let match = separators.exec(input); match; match = separators.exec(input)) {
    text += input.slice(start, match.index);
    if (match[0] === '\r') {
      // A bare carriage return: the rest of the line is drawn over what is on it.
      text = text.slice(0, text.lastIndexOf('\n') + 1);
    } else {
      text += '\n';
      breaks += 1;
    }
    start = match.index + match[0].length;
  }
  text += input.slice(start);

  let droppedLines = buffer.droppedLines;
  // Trimming in steps of a fifth keeps the cost per chunk constant on average.
  if (breaks > maxLines + Math.floor(maxLines / 5)) {
    const drop = breaks - maxLines;
    let cut = -1;
    for (let index = 0; index < drop; index++) cut = text.indexOf('\n', cut + 1);
    text = text.slice(cut + 1);
    breaks -= drop;
    droppedLines += drop;
  }
  return { text, breaks, droppedLines, pendingReturn };
}
