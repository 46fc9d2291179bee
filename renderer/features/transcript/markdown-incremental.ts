/**
 * Markdown parsed again as a reply streams, at the cost of its last block, not of the whole
 * text: the blocks whose lines did not change are kept (the same objects, so their drawing is
 * skipped too), and the parse goes on from the first line after them.
 *
 * Which blocks are kept follows from how ./markdown-parser.ts reads: the parse is a scan whose
 * only state is the line it is at, and a block reads no further than a line or so around the
 * one the scan goes on from (its resume line; linesReadPast below). So a block stays what it
 * was when every line it read is unchanged and finished (ends in a line break: the last line of
 * a streamed text can still grow). That is checked on the text itself, so the result is the full
 * parse's whatever the new text is: appended to, edited or replaced.
 */
import { markdownLines, parseBlocks, type Block, type TableSeed } from './markdown-parser';

export interface ParsedMarkdown {
  /** The text, line breaks normalized. */
  readonly text: string;
  readonly blocks: readonly Block[];
  /** Per block: the line the parse went on from after it. */
  readonly resumes: readonly number[];
  /** Per block: the length of text its parse read (through the line break of the last line it looked at); 0 when that line is not finished. */
  readonly readUpTo: readonly number[];
}

export function parseMarkdownFrom(previous: ParsedMarkdown | undefined, source: string): ParsedMarkdown {
  const lines = markdownLines(source);
  const text = lines.join('\n');
  const same = previous ? commonPrefixLength(previous.text, text) : 0;
  const kept = previous ? keptBlocks(previous, same) : 0;
  const from = kept === 0 ? 0 : previous!.resumes[kept - 1]!;
  const offsets = lineOffsets(lines);
  const resumes: number[] = [];
  const fresh = parseBlocks(lines, from, resumes, previous ? tableSeed(previous, kept, from, lines, offsets, same) : undefined);
  const readUpTo = resumes.map((resume, index) => {
    const last = resume + linesReadPast(fresh[index]!);
    // That last line is finished when another line follows it.
    return last + 1 < lines.length ? offsets[last + 1]! : 0;
  });
  if (kept === 0) return { text, blocks: fresh, resumes, readUpTo };
  return {
    text,
    blocks: [...previous!.blocks.slice(0, kept), ...fresh],
    resumes: [...previous!.resumes.slice(0, kept), ...resumes],
    readUpTo: [...previous!.readUpTo.slice(0, kept), ...readUpTo],
  };
}

/** How many of the previous blocks read only text that is still there, unchanged. */
function keptBlocks(previous: ParsedMarkdown, same: number): number {
  // Read lengths grow from block to block; an unfinished one (0) is only ever among the last.
  let kept = 0;
  while (kept < previous.blocks.length) {
    const upTo = previous.readUpTo[kept]!;
    if (upTo === 0 || upTo > same) break;
    kept++;
  }
  return kept;
}

/**
 * The first block parsed again is a table still streaming (its last row can grow, or a row can
 * follow it): its rows whose lines, line breaks included, are still there unchanged are taken
 * as they were. A row reads only its own line and the header's column count.
 */
function tableSeed(previous: ParsedMarkdown, kept: number, from: number, lines: readonly string[], offsets: readonly number[], same: number): TableSeed | undefined {
  const table = previous.blocks[kept];
  if (table?.type !== 'table') return undefined;
  // The parse went on from `from` after the block before, past blank lines to the table's header.
  let line = from;
  while (line < lines.length && lines[line]!.trim() === '') line++;
  let rows = 0;
  const finished = (at: number) => at < lines.length && offsets[at]! <= same;
  // The header and separator lines first, then each row: the line after it starts inside what is unchanged.
  if (!finished(line + 2)) return undefined;
  while (rows < table.rows.length && finished(line + 3 + rows)) rows++;
  return { line, table, rows };
}

function commonPrefixLength(a: string, b: string): number {
  // A streamed reply only grows: one comparison.
  if (b.startsWith(a)) return a.length;
  const length = Math.min(a.length, b.length);
  let at = 0;
  while (at < length && a.charCodeAt(at) === b.charCodeAt(at)) at++;
  return at;
}

/**
 * How far past its resume line a block's parse looked: a fence, heading or rule ends on the line
 * before it; a paragraph, quote or table stops at the line that does not continue it; a list
 * also looks at the line after a blank one, for an indented continuation or a next item.
 */
function linesReadPast(block: Block): number {
  switch (block.type) {
    case 'code':
    case 'heading':
    case 'rule':
      return -1;
    case 'list':
      return 1;
    default:
      return 0;
  }
}

function lineOffsets(lines: readonly string[]): number[] {
  const offsets = new Array<number>(lines.length);
  let offset = 0;
  for (let index = 0; index < lines.length; index++) {
    offsets[index] = offset;
    offset += lines[index]!.length + 1;
  }
  return offsets;
}
