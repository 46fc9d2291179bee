/**
 * Turns terminal output into styled spans: SGR colors (16, 256 and truecolor, foreground and
 * background), bold, dim, italic, underline, inverse and resets are kept; every other escape
 * sequence (cursor moves, OSC titles, mode switches) is removed. Pure data out, drawn by
 * ./Terminal.tsx; the 16 basic colors are CSS variables so each theme picks readable shades.
 */

export interface AnsiStyle {
  /** A CSS color. */
  fg?: string;
  bg?: string;
  bold?: boolean;
  dim?: boolean;
  italic?: boolean;
  underline?: boolean;
  inverse?: boolean;
}

export interface AnsiSpan {
  text: string;
  style: AnsiStyle;
}

// CSI (with its parameters), OSC (ended by BEL or ST), and the two-byte escapes.
const ESCAPE = /\x1b\[([0-?]*)[ -/]*([@-~])|\x1b\][^\x07\x1b]*(?:\x07|\x1b\\)?|\x1b[P^_][^\x1b]*(?:\x1b\\)?|\x1b[@-Z\\-_]|\x1b[ -/]*[0-~]?/g;
// Control characters other than tab and newline draw nothing.
const CONTROL = /[\x00-\x08\x0b-\x1f\x7f]/g;
const CONTROL_TEST = /[\x00-\x08\x0b-\x1f\x7f]/;

export function paletteColor(index: number): string {
  if (index < 16) return `var(--ansi-${index})`;
  if (index < 232) {
    const cube = index - 16;
    const level = (value: number) => (value === 0 ? 0 : 55 + value * 40);
    return `rgb(${level(Math.floor(cube / 36))}, ${level(Math.floor(cube / 6) % 6)}, ${level(cube % 6)})`;
  }
  const gray = 8 + (index - 232) * 10;
  return `rgb(${gray}, ${gray}, ${gray})`;
}

const NO_STYLE: AnsiStyle = {};

export function parseAnsi(text: string): AnsiSpan[] {
  return parseAnsiFrom(text, NO_STYLE).spans;
}

/**
 * Spans of `text` drawn from `style` on, and the style after it: a terminal's colors carry over
 * line ends, so each line is parsed once, from where the one before it left off.
 */
export function parseAnsiFrom(text: string, from: AnsiStyle): { spans: AnsiSpan[]; style: AnsiStyle } {
  // Most lines of most output are plain: one span, no regular expression run over them.
  if (!text.includes('\x1b') && !CONTROL_TEST.test(text)) return { spans: text === '' ? [] : [{ text, style: from }], style: from };
  const spans: AnsiSpan[] = [];
  let style = from;
  let start = 0;
  const push = (chunk: string) => {
    const clean = chunk.replace(CONTROL, '');
    if (clean === '') return;
    const last = spans.at(-1);
    if (last && last.style === style) last.text += clean;
    else spans.push({ text: clean, style });
  };
  ESCAPE.lastIndex = 0;
  for (let match = ESCAPE.exec(text); match; match = ESCAPE.exec(text)) {
    push(text.slice(start, match.index));
    start = match.index + match[0].length;
    if (match[2] === 'm') style = applySgr(style, match[1] ?? '');
  }
  push(text.slice(start));
  return { spans, style };
}

/** The style after `text` drawn from `from`, without its spans: for output dropped unseen. */
export function styleAfter(text: string, from: AnsiStyle): AnsiStyle {
  if (!text.includes('\x1b')) return from;
  // Nothing before a full reset matters, and colored output usually ends each line with one.
  const reset = Math.max(text.lastIndexOf('\x1b[0m'), text.lastIndexOf('\x1b[m'));
  let style = reset >= 0 ? NO_STYLE : from;
  ESCAPE.lastIndex = reset >= 0 ? reset + 3 : 0;
  for (let match = ESCAPE.exec(text); match; match = ESCAPE.exec(text)) {
    if (match[2] === 'm') style = applySgr(style, match[1] ?? '');
  }
  return style;
}

/** The style after one SGR sequence; a new object whenever anything changes. */
export function applySgr(current: AnsiStyle, parameters: string): AnsiStyle {
  const codes = parameters === '' ? [0] : parameters.split(/[;:]/).map((code) => (code === '' ? 0 : Number(code)));
  let style: AnsiStyle = { ...current };
  for (let index = 0; index < codes.length; index++) {
    const code = codes[index]!;
    if (code === 0) style = {};
    else if (code === 1) style.bold = true;
    else if (code === 2) style.dim = true;
    else if (code === 3) style.italic = true;
    else if (code === 4) style.underline = true;
    else if (code === 7) style.inverse = true;
    else if (code === 22) {
      delete style.bold;
      delete style.dim;
    } else if (code === 23) delete style.italic;
    else if (code === 24) delete style.underline;
    else if (code === 27) delete style.inverse;
    else if (code >= 30 && code <= 37) style.fg = paletteColor(code - 30);
    else if (code >= 90 && code <= 97) style.fg = paletteColor(code - 90 + 8);
    else if (code === 39) delete style.fg;
    else if (code >= 40 && code <= 47) style.bg = paletteColor(code - 40);
    else if (code >= 100 && code <= 107) style.bg = paletteColor(code - 100 + 8);
    else if (code === 49) delete style.bg;
    else if (code === 38 || code === 48) {
      const extended = readExtended(codes, index);
      index = extended.next;
      if (extended.color) style[code === 38 ? 'fg' : 'bg'] = extended.color;
    }
  }
  return style;
}

function readExtended(codes: number[], index: number): { color: string | null; next: number } {
  const mode = codes[index + 1];
  if (mode === 5) {
    const value = codes[index + 2];
    const valid = value !== undefined && Number.isInteger(value) && value >= 0 && value <= 255;
    return { color: valid ? paletteColor(value) : null, next: index + 2 };
  }
  if (mode === 2) {
    const channels = codes.slice(index + 2, index + 5);
    const valid = channels.length === 3 && channels.every((value) => Number.isInteger(value) && value >= 0 && value <= 255);
    return { color: valid ? `rgb(${channels.join(', ')})` : null, next: index + 4 };
  }
  return { color: null, next: index + 1 };
}
