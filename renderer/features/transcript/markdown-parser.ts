/**
 * A small Markdown parser for assistant text: the text becomes a tree of plain data that
 * ./Markdown.tsx turns into React elements, so nothing in it is ever parsed as HTML (`<script>`
 * stays text). Links are kept only for https URLs; any other target is shown as text. It is
 * fed text that is still streaming, so an unclosed fence or emphasis simply stays open or
 * stays literal.
 */

export type Inline =
  | { type: 'text'; text: string }
  | { type: 'code'; text: string }
  | { type: 'strong'; children: Inline[] }
  | { type: 'em'; children: Inline[] }
  | { type: 'del'; children: Inline[] }
  | { type: 'link'; href: string; children: Inline[] }
  | { type: 'break' };

export type Alignment = 'left' | 'center' | 'right' | null;

export type Block =
  | { type: 'paragraph'; children: Inline[] }
  | { type: 'heading'; level: number; children: Inline[] }
  | { type: 'code'; language: string; text: string }
  | { type: 'list'; ordered: boolean; start: number; items: Block[][] }
  | { type: 'quote'; children: Block[] }
  | { type: 'rule' }
  | TableBlock;

export interface TableBlock {
  type: 'table';
  align: Alignment[];
  header: Inline[][];
  rows: Inline[][][];
}

/**
 * A table parsed before whose first `rows` rows are on lines that did not change: the parse
 * takes them (the same objects) instead of reading them again, so a streamed table costs its
 * new rows, not all of them (./markdown-incremental.ts).
 */
export interface TableSeed {
  /** The line of the table's header. */
  line: number;
  table: TableBlock;
  rows: number;
}

/** The URL to link to, or null when it is not an https URL. */
export function safeHref(url: string): string | null {
  try {
    const parsed = new URL(url.trim());
    return parsed.protocol === 'https:' ? parsed.href : null;
  } catch {
    return null;
  }
}

const FENCE = /^ {0,3}(`{3,}|~{3,})\s*([^`\s]*)/;
const HEADING = /^ {0,3}(#{1,6})(?:\s+(.*?))?\s*#*\s*$/;
const RULE = /^ {0,3}([-*_])(?:\s*\1){2,}\s*$/;
const BULLET = /^( {0,3})([-*+])\s+(.*)$/;
const ORDERED = /^( {0,3})(\d{1,9})[.)]\s+(.*)$/;
const QUOTE = /^ {0,3}>\s?(.*)$/;
const TABLE_SEPARATOR = /^\s*\|?\s*:?-+:?\s*(\|\s*:?-+:?\s*)*\|?\s*$/;

export function parseMarkdown(source: string): Block[] {
  return parseBlocks(markdownLines(source));
}

export function markdownLines(source: string): string[] {
  return source.replace(/\r\n?/g, '\n').split('\n');
}

/**
 * The blocks of `lines` from line `from` on. With `resumes` (empty), the line where the parse
 * went on after each block is noted in it, one per block: a block reads no line past the one
 * after its resume line, which is what lets ./markdown-incremental.ts keep a block whose lines
 * did not change. With `seed`, the table whose header is on the seed's line starts with the
 * seed's rows.
 */
export function parseBlocks(lines: string[], from = 0, resumes?: number[], seed?: TableSeed): Block[] {
  const blocks: Block[] = [];
  let index = from;
  // Each turn of the loop adds at most one block.
  const note = () => {
    if (resumes && resumes.length < blocks.length) resumes.push(index);
  };
  while (index < lines.length) {
    note();
    const line = lines[index]!;
    if (line.trim() === '') {
      index++;
      continue;
    }
    const fence = FENCE.exec(line);
    if (fence) {
      const marker = fence[1]!;
      const body: string[] = [];
      index++;
      while (index < lines.length && !lines[index]!.trimStart().startsWith(marker)) body.push(lines[index++]!);
      index++;
      blocks.push({ type: 'code', language: fence[2] ?? '', text: body.join('\n') });
      continue;
    }
    const heading = HEADING.exec(line);
    if (heading) {
      blocks.push({ type: 'heading', level: heading[1]!.length, children: parseInline(heading[2] ?? '') });
      index++;
      continue;
    }
    if (RULE.test(line)) {
      blocks.push({ type: 'rule' });
      index++;
      continue;
    }
    if (QUOTE.test(line)) {
      const body: string[] = [];
      while (index < lines.length && QUOTE.test(lines[index]!)) body.push(QUOTE.exec(lines[index++]!)![1]!);
      blocks.push({ type: 'quote', children: parseBlocks(body) });
      continue;
    }
    if (BULLET.test(line) || ORDERED.test(line)) {
      index = parseList(lines, index, blocks);
      continue;
    }
    if (line.includes('|') && index + 1 < lines.length && TABLE_SEPARATOR.test(lines[index + 1]!) && lines[index + 1]!.includes('-')) {
      index = parseTable(lines, index, blocks, seed?.line === index ? seed : undefined);
      continue;
    }
    const body: string[] = [];
    while (index < lines.length && lines[index]!.trim() !== '' && !startsBlock(lines[index]!)) body.push(lines[index++]!.trim());
    blocks.push({ type: 'paragraph', children: parseInline(body.join('\n')) });
  }
  note();
  return blocks;
}

function startsBlock(line: string): boolean {
  return FENCE.test(line) || HEADING.test(line) || RULE.test(line) || QUOTE.test(line) || BULLET.test(line) || ORDERED.test(line);
}

function parseList(lines: string[], from: number, blocks: Block[]): number {
  const first = BULLET.exec(lines[from]!) ?? ORDERED.exec(lines[from]!)!;
  const ordered = !BULLET.test(lines[from]!);
  const items: Block[][] = [];
  let index = from;
  while (index < lines.length) {
    const marker = ordered ? ORDERED.exec(lines[index]!) : BULLET.exec(lines[index]!);
    if (!marker || marker[1]!.length > first[1]!.length + 1) break;
    const body = [marker[3]!];
    const indent = marker[0].length - marker[3]!.length;
    index++;
    // The item goes on while lines are indented under it, or are blank between indented lines.
    while (index < lines.length) {
      const next = lines[index]!;
      if (next.trim() === '') {
        const after = lines[index + 1];
        if (after === undefined || !/^\s{2,}\S/.test(after)) break;
        body.push('');
      } else if (/^\s{2,}\S/.test(next)) {
        body.push(next.slice(Math.min(indent, next.length - next.trimStart().length)));
      } else if (!startsBlock(next) && body.at(-1) !== '') {
        body.push(next.trim());
      } else break;
      index++;
    }
    items.push(parseBlocks(body));
    while (index < lines.length && lines[index]!.trim() === '' && index + 1 < lines.length && (ordered ? ORDERED : BULLET).test(lines[index + 1]!)) index++;
  }
  blocks.push({ type: 'list', ordered, start: ordered ? Number(first[2]) : 1, items });
  return index;
}

function splitRow(line: string): string[] {
  let row = line.trim();
  if (row.startsWith('|')) row = row.slice(1);
  if (row.endsWith('|') && !row.endsWith('\\|')) row = row.slice(0, -1);
  return row.split(/(?<!\\)\|/).map((cell) => cell.trim().replace(/\\\|/g, '|'));
}

function parseTable(lines: string[], from: number, blocks: Block[], seed: TableSeed | undefined): number {
  const header = splitRow(lines[from]!);
  const rows: Inline[][][] = seed ? seed.table.rows.slice(0, seed.rows) : [];
  let index = from + 2 + rows.length;
  while (index < lines.length && lines[index]!.includes('|') && lines[index]!.trim() !== '') {
    const cells = splitRow(lines[index++]!);
    rows.push(header.map((_, column) => parseInline(cells[column] ?? '')));
  }
  if (seed) {
    // The header and separator lines are unchanged too: the same header, aligned the same.
    blocks.push({ ...seed.table, rows });
    return index;
  }
  const align: Alignment[] = splitRow(lines[from + 1]!).map((cell) =>
    cell.startsWith(':') && cell.endsWith(':') ? 'center' : cell.endsWith(':') ? 'right' : cell.startsWith(':') ? 'left' : null,
  );
  blocks.push({ type: 'table', align: header.map((_, column) => align[column] ?? null), header: header.map((cell) => parseInline(cell)), rows });
  return index;
}

const LINK = /^\[((?:[^[\]\\]|\\.)*)\]\(\s*<?([^\s)>]*)>?(?:\s+"[^"]*")?\s*\)/;
const AUTOLINK = /^https:\/\/[^\s<>"'`]*[^\s<>"'`.,;:!?)\]]/;
/** Where the branches of parseInline below may act: the characters they test for. */
const PLAIN_RUN_END = /[\\\n`[*_~]|https:\/\//g;

export function parseInline(text: string): Inline[] {
  const out: Inline[] = [];
  let plain = '';
  const flush = () => {
    if (plain !== '') out.push({ type: 'text', text: plain });
    plain = '';
  };
  let index = 0;
  while (index < text.length) {
    const char = text[index]!;
    if (char === '\\' && index + 1 < text.length && /[!-/:-@[-`{-~]/.test(text[index + 1]!)) {
      plain += text[index + 1];
      index += 2;
      continue;
    }
    if (char === '\n') {
      flush();
      out.push({ type: 'break' });
      index++;
      continue;
    }
    if (char === '`') {
      let length = 1;
      while (text[index + length] === '`') length++;
      const run = '`'.repeat(length);
      const close = text.indexOf(run, index + run.length);
      if (close > 0) {
        flush();
        out.push({ type: 'code', text: text.slice(index + run.length, close).replace(/^ (.+) $/, '$1') });
        index = close + run.length;
        continue;
      }
      plain += run;
      index += run.length;
      continue;
    }
    if (char === '[') {
      const link = LINK.exec(text.slice(index));
      if (link) {
        flush();
        const children = parseInline(link[1]!);
        const href = safeHref(link[2]!);
        if (href) out.push({ type: 'link', href, children });
        else out.push(...children, { type: 'text', text: link[2] ? ` (${link[2]})` : '' });
        index += link[0].length;
        continue;
      }
    }
    if (char === 'h' && text.startsWith('https://', index) && !/[\w/]/.test(text[index - 1] ?? '')) {
      const url = AUTOLINK.exec(text.slice(index));
      const href = url ? safeHref(url[0]) : null;
      if (url && href) {
        flush();
        out.push({ type: 'link', href, children: [{ type: 'text', text: url[0] }] });
        index += url[0].length;
        continue;
      }
    }
    const emphasis = matchEmphasis(text, index);
    if (emphasis) {
      flush();
      out.push(emphasis.node);
      index = emphasis.end;
      continue;
    }
    // Up to the next character that could start something, all is plain: taken in one slice,
    // since a streamed reply's paragraph is parsed again on every batch.
    PLAIN_RUN_END.lastIndex = index + 1;
    const end = PLAIN_RUN_END.exec(text)?.index ?? text.length;
    plain += text.slice(index, end);
    index = end;
  }
  flush();
  return out;
}

function matchEmphasis(text: string, index: number): { node: Inline; end: number } | null {
  const char = text[index]!;
  if (char !== '*' && char !== '_' && char !== '~') return null;
  const double = text[index + 1] === char;
  if (char === '~' && !double) return null;
  const marker = double ? char + char : char;
  const open = index + marker.length;
  if (open >= text.length || /\s/.test(text[open]!)) return null;
  // Underscores inside words (snake_case) are not emphasis.
  if (char === '_' && /[\p{L}\p{N}]/u.test(text[index - 1] ?? '')) return null;
  let close = text.indexOf(marker, open + 1);
  while (close > 0) {
    const before = text[close - 1]!;
    const after = text[close + marker.length] ?? '';
    const ok = !/\s/.test(before) && !(char === '_' && /[\p{L}\p{N}]/u.test(after)) && !(!double && after === char);
    if (ok) break;
    close = text.indexOf(marker, close + 1);
  }
  if (close < 0) return null;
  const children = parseInline(text.slice(open, close));
  const node: Inline = char === '~' ? { type: 'del', children } : double ? { type: 'strong', children } : { type: 'em', children };
  return { node, end: close + marker.length };
}
