/**
 * Turning terminal output into plain text for the model: escape sequences removed, CRLF made LF,
 * and carriage-return redraws (progress bars, spinners) collapsed to what the line finally
 * showed. The UI gets the raw stream and renders the escapes itself.
 */

/**
 * The longest string sequence (OSC, DCS, SOS, PM, APC payload) removed as one: a title, a
 * hyperlink or a clipboard copy fits; past it, or at the end of its line, a string that was never
 * terminated stops, so the lines after it are shown (a terminal would swallow them).
 */
export const MAX_STRING_SEQUENCE = 65_536;
/** CSI parameters and intermediates past this are not a sequence still being written. */
const MAX_CSI = 256;

/** CSI's parameters and intermediates, complete (with the final byte) or still open. */
const CSI = String.raw`[0-?]{0,${MAX_CSI}}[ -/]{0,${MAX_CSI}}`;
/** A string's payload: up to BEL or ST (7- or 8-bit); CAN, SUB, ESC and a line break end it too. */
const STRING = String.raw`[^\x07\x1b\x18\x1a\x9c\r\n]{0,${MAX_STRING_SEQUENCE}}`;

/**
 * CSI (colors, cursor moves, erase), OSC (titles, hyperlinks; ended by BEL or ST), DCS/SOS/PM/APC
 * strings (ended by ST), charset selection and other escape-plus-one sequences, and their 8-bit
 * forms. Each is also matched cut short (no final byte, no terminator, a lone ESC), bounded and
 * never past a line break: what follows an escape that was never closed is text.
 */
const ESCAPE_SEQUENCE = new RegExp(
  String.raw`\x1b(?:\[${CSI}[@-~]?|[\]PX^_]${STRING}(?:\x07|\x1b\\|\x9c)?|[ -/]+[0-~]?|[0-OQ-WYZ\\\x60-~])?|\x9b${CSI}[@-~]?|[\x90\x98\x9d-\x9f]${STRING}(?:\x07|\x1b\\|\x9c)?`,
  'g',
);
/**
 * The start of a sequence that the next chunk may still complete: it reaches the end of the text
 * without a line break, within the bounds above. Anything else after an ESC is already final.
 */
const OPEN_SEQUENCE_AT = new RegExp(String.raw`(?:\x1b(?:\[${CSI}|[\]PX^_]${STRING}|[ -/]*)|\x9b${CSI}|[\x90\x98\x9d-\x9f]${STRING})$`, 'y');
/** What ends a string's payload (see STRING). */
const STRING_END = /[\x07\x1b\x18\x1a\x9c\r\n]/g;
/** After ESC, the characters that open a string sequence. */
const STRING_INTRODUCERS = ']PX^_';
/** Where a sequence may begin: ESC, or a C1 introducer. */
const INTRODUCERS = ['\x1b', '\x9b', '\x90', '\x98', '\x9d', '\x9e', '\x9f'];
/** What is left after escapes: control characters other than tab, newline and carriage return. */
const CONTROL = /[\x00-\x08\x0b\x0c\x0e-\x1f\x7f]/g;

/** Removes escape sequences and stray control characters from a complete string. */
export function stripAnsi(text: string): string {
  let out = text;
  if (INTRODUCERS.some((introducer) => out.includes(introducer))) out = out.replace(ESCAPE_SEQUENCE, '');
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
  /**
   * Payload characters of a string sequence (OSC, DCS…) still open at the last chunk's end, or -1.
   * Its payload is dropped as it arrives rather than carried, so a long one costs no copies.
   */
  private openString = -1;

  constructor(private readonly maxPendingLine = 65_536) {}

  push(chunk: string): string {
    let text = this.carry + chunk;
    this.carry = '';
    if (this.openString >= 0) {
      text = this.skipStringPayload(text);
      if (text === '') return '';
    }
    const lastEscape = Math.max(...INTRODUCERS.map((introducer) => text.lastIndexOf(introducer)));
    if (lastEscape >= 0) {
      OPEN_SEQUENCE_AT.lastIndex = lastEscape;
      if (OPEN_SEQUENCE_AT.test(text)) {
        const tail = text.slice(lastEscape);
        const payloadStart = tail[0] !== '\x1b' ? 1 : tail.length > 1 && STRING_INTRODUCERS.includes(tail[1]!) ? 2 : 0;
        if (payloadStart > 0 && tail[0] !== '\x9b') this.openString = tail.length - payloadStart;
        else this.carry = tail;
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
    this.openString = -1;
    return this.takePending();
  }

  /**
   * Hands back, uncleaned, what is held for the next push (the open line and a cut-off escape)
   * and forgets it: a fresh cleaner fed this first continues where this one stopped.
   */
  drain(): string {
    // An open string's payload was dropped; its introducer tells the next cleaner to go on dropping.
    const held = this.pendingLine + this.carry + (this.openString >= 0 ? '\x1b]' : '');
    this.pendingLine = '';
    this.carry = '';
    this.openString = -1;
    return held;
  }

  /** Drops the rest of an open string's payload from the start of `text`, up to its end or bound. */
  private skipStringPayload(text: string): string {
    const room = MAX_STRING_SEQUENCE - this.openString;
    STRING_END.lastIndex = 0;
    const end = STRING_END.exec(text.length > room ? text.slice(0, room + 1) : text)?.index;
    if (end === undefined) {
      if (text.length < room) {
        this.openString += text.length;
        return '';
      }
      this.openString = -1;
      return text.slice(room);
    }
    this.openString = -1;
    // BEL and the 8-bit ST end it; ESC (an ST, or another sequence), CAN, SUB and line breaks are read as usual.
    return text.slice(text[end] === '\x07' || text[end] === '\x9c' ? end + 1 : end);
  }

  private takePending(): string {
    const line = this.pendingLine.includes('\r') ? collapseRedraws(this.pendingLine) : this.pendingLine;
    this.pendingLine = '';
    return line;
  }
}
