/**
 * Turning terminal output into plain text for the model: escape sequences removed, CRLF made LF,
 * and carriage-return redraws (progress bars, spinners) collapsed to what the line finally
 * showed. The UI gets the raw stream and renders the escapes itself.
 */

/**
 * CSI (colors, cursor moves, erase), OSC (titles, hyperlinks; ended by BEL or ST), DCS/SOS/PM/APC
 * strings (ended by ST), charset selection and other escape-plus-one sequences, and the 8-bit CSI.
 */
const ESCAPE_SEQUENCE = /\x1b(?:\[[0-?]*[ -/]*[@-~]|\][^\x07\x1b]*(?:\x07|\x1b\\)|[PX^_][^\x1b]*\x1b\\|[ -/]+[0-~]|[0-OQ-WYZ\\`-~])|\x9b[0-?]*[ -/]*[@-~]/g;
/** What is left after escapes: control characters other than tab, newline and carriage return. */
const CONTROL = /[\x00-\x08\x0b\x0c\x0e-\x1f\x7f]/g;
const COMPLETE_SEQUENCE_AT = new RegExp(ESCAPE_SEQUENCE.source, 'y');
/** An unterminated sequence longer than this is junk, not something still arriving. */
const MAX_CARRIED_SEQUENCE = 4096;

/** Removes escape sequences and stray control characters from a complete string. */
export function stripAnsi(text: string): string {
  let out = text;
  if (out.includes('\x1b') || out.includes('\x9b')) out = out.replace(ESCAPE_SEQUENCE, '');
  return out.replace(CONTROL, '');
}

/** What a line shows after carriage-return redraws: its last non-empty redraw. */
function collapseRedraws(line: string): string {
  const parts = line.split('\r');
  for (let i = parts.length - 1; i >= 0; i--) if (parts[i] !== '') return parts[i]!;
  return '';
}

/** A shorter line that collapses the same way whatever is appended to it. */
function compactRedraws(line: string): string {
  const collapsed = collapseRedraws(line);
  return line.endsWith('\r') ? `${collapsed}\r` : collapsed;
}

/**
 * A streaming cleaner: `push` raw chunks as they arrive, get back text that is final. It holds
 * back an escape sequence cut in half by a chunk boundary, and the current unfinished line
 * (a later `\r` may still redraw it) up to `maxPendingLine` characters.
 */
export class TerminalTextCleaner {
  private carry = '';
  private pendingLine = '';

  constructor(private readonly maxPendingLine = 65_536) {}

  push(chunk: string): string {
    let text = this.carry + chunk;
    this.carry = '';
    const lastEscape = text.lastIndexOf('\x1b');
    if (lastEscape >= 0 && text.length - lastEscape < MAX_CARRIED_SEQUENCE) {
      COMPLETE_SEQUENCE_AT.lastIndex = lastEscape;
      if (!COMPLETE_SEQUENCE_AT.test(text)) {
        this.carry = text.slice(lastEscape);
        text = text.slice(0, lastEscape);
      }
    }
    // A trailing CR may be the first half of a CRLF.
    if (text.endsWith('\r')) {
      this.carry = '\r' + this.carry;
      text = text.slice(0, -1);
    }
    text = stripAnsi(text);
    if (text.includes('\r')) text = text.replace(/\r\n/g, '\n');

    const lastNewline = text.lastIndexOf('\n');
    if (lastNewline < 0) {
      this.pendingLine += text;
      if (this.pendingLine.length <= this.maxPendingLine) return '';
      // A progress bar redrawing one line for minutes must not grow memory.
      if (this.pendingLine.includes('\r')) this.pendingLine = compactRedraws(this.pendingLine);
      return this.pendingLine.length > this.maxPendingLine ? this.takePending() : '';
    }
    let complete = this.pendingLine + text.slice(0, lastNewline + 1);
    this.pendingLine = text.slice(lastNewline + 1);
    if (complete.includes('\r')) complete = complete.split('\n').map(collapseRedraws).join('\n');
    return complete;
  }

  /** Everything still held back, cleaned. Call once at the end of the stream. */
  flush(): string {
    this.pendingLine += stripAnsi(this.carry.replace(/\r$/, ''));
    this.carry = '';
    return this.takePending();
  }

  /**
   * Hands back, uncleaned, what is held for the next push (the open line and a cut-off escape)
   * and forgets it: a fresh cleaner fed this first continues where this one stopped.
   */
  drain(): string {
    const held = this.pendingLine + this.carry;
    this.pendingLine = '';
    this.carry = '';
    return held;
  }

  private takePending(): string {
    const line = this.pendingLine.includes('\r') ? collapseRedraws(this.pendingLine) : this.pendingLine;
    this.pendingLine = '';
    return line;
  }
}
