/**
 * A Markdown table. A short one is one <table>, its columns as wide as the browser makes them.
 * A long one (a reply listing a thousand files) is drawn as tables of CHUNK_ROWS rows under one
 * role="table", sharing column widths worked out from the cells' text: the browser lays out a
 * table as a whole, so with one <table> every row streamed in laid out all the rows before it
 * again (in a 1,000-row table, most of a 100 ms task per update). Chunks keep that to the
 * last chunk, and a finished chunk (the same row objects, ./markdown-incremental.ts) is not
 * drawn again either.
 */
import { memo, type CSSProperties } from 'react';
import type { Alignment, Inline, TableBlock } from './markdown-parser';
import { renderInlines } from './markdown-inlines';
import { inlineWidth } from './text-width';

/** Rows per chunk of a long table; a table of at most this many rows is drawn whole. */
export const CHUNK_ROWS = 50;
/** A column is at least this wide, and at most MAX_COLUMN_EM (longer cells wrap), in em. */
const MIN_COLUMN_EM = 1.5;
const MAX_COLUMN_EM = 28;
/** A cell's side padding and borders (transcript.css: `padding: 3px 8px` at 14 px, 1 px borders), in em. */
const CELL_EXTRA_EM = 1.25;
/** A row of one line: its line, padding and border (28 px at 14 px). */
const ROW_EM = 2;

export const MarkdownTable = memo(function MarkdownTable({ table }: { table: TableBlock }) {
  if (table.rows.length <= CHUNK_ROWS) {
    return (
      <div className="table-scroll">
        <table>
          <Header table={table} roles={false} />
          <Rows rows={table.rows} from={0} to={table.rows.length} align={table.align} roles={false} />
        </table>
      </div>
    );
  }
  const chunks: number[] = [];
  for (let from = 0; from < table.rows.length; from += CHUNK_ROWS) chunks.push(from);
  return (
    <div className="table-scroll" role="table" aria-rowcount={table.rows.length + 1} style={widthStyle(columnWidths(table))}>
      {chunks.map((from) => (
        <TableChunk key={from} table={from === 0 ? table : undefined} rows={table.rows} from={from} to={Math.min(from + CHUNK_ROWS, table.rows.length)} align={table.align} />
      ))}
    </div>
  );
});

/**
 * The widths as CSS variables on the table's wrapper, which the chunks' <col>s read: a wider
 * cell coming in restyles the columns without drawing the chunks again. The table is as wide
 * as the columns add up to, or the reply when narrower: then each column keeps its share.
 */
function widthStyle(widths: readonly number[]): CSSProperties {
  const columns = widths.map((width) => width + CELL_EXTRA_EM);
  const total = columns.reduce((sum, width) => sum + width, 0);
  const style: Record<string, string> = { '--table-width': `${total.toFixed(1)}em` };
  columns.forEach((width, column) => (style[`--column-${column}`] = `${((width / total) * 100).toFixed(3)}%`));
  return style as CSSProperties;
}

interface ChunkProps {
  /** The first chunk carries the header. */
  table: TableBlock | undefined;
  rows: readonly Inline[][][];
  from: number;
  to: number;
  align: readonly Alignment[];
}

/**
 * Drawn again only when one of its rows is a new object: the streaming row. Its wrapper is
 * skipped by layout while out of view (`content-visibility: auto`, transcript.css), so a
 * burst of rows, or a finished table opened later, lays out the chunks in view, not all of
 * them; until first drawn, a chunk takes the height of its rows at one line each.
 */
const TableChunk = memo(function TableChunk({ table, rows, from, to, align }: ChunkProps) {
  return (
    <div className="table-chunk" style={{ containIntrinsicSize: `auto ${(to - from + (table ? 1 : 0)) * ROW_EM}em` }}>
      <table role="presentation">
        <colgroup>
          {align.map((_, column) => (
            <col key={column} style={{ width: `var(--column-${column})` }} />
          ))}
        </colgroup>
        {table ? <Header table={table} roles /> : null}
        <Rows rows={rows} from={from} to={to} align={align} roles />
      </table>
    </div>
  );
}, sameChunk);

function sameChunk(before: ChunkProps, after: ChunkProps): boolean {
  if (before.table?.header !== after.table?.header || before.from !== after.from || before.to !== after.to || before.align !== after.align) return false;
  for (let index = after.from; index < after.to; index++) if (before.rows[index] !== after.rows[index]) return false;
  return true;
}

/** With `roles`, the chunk's <table> is presentational and its parts say what they are. */
function Header({ table, roles }: { table: TableBlock; roles: boolean }) {
  return (
    <thead role={roles ? 'rowgroup' : undefined}>
      <tr role={roles ? 'row' : undefined}>
        {table.header.map((cell, column) => (
          <th key={column} role={roles ? 'columnheader' : undefined} className={alignClass(table.align[column])}>
            {renderInlines(cell)}
          </th>
        ))}
      </tr>
    </thead>
  );
}

function Rows({ rows, from, to, align, roles }: { rows: readonly Inline[][][]; from: number; to: number; align: readonly Alignment[]; roles: boolean }) {
  const out = [];
  for (let index = from; index < to; index++) {
    out.push(
      <tr key={index} role={roles ? 'row' : undefined}>
        {rows[index]!.map((cell, column) => (
          <td key={column} role={roles ? 'cell' : undefined} className={alignClass(align[column])}>
            {renderInlines(cell)}
          </td>
        ))}
      </tr>,
    );
  }
  return <tbody role={roles ? 'rowgroup' : undefined}>{out}</tbody>;
}

/** A class, not an inline style: a burst of a thousand rows parsed five thousand style attributes. */
function alignClass(align: Alignment | undefined): string | undefined {
  return align ? `align-${align}` : undefined;
}

/**
 * Each column's width in em: the widest of its cells, header included, as estimated from their
 * letters (./text-width.ts), within MIN_COLUMN_EM and MAX_COLUMN_EM, rounded up to a whole em
 * so that a cell a letter wider does not restyle the table each time.
 */
export function columnWidths(table: TableBlock): number[] {
  // The header is bold.
  const widths = table.header.map((cell) => inlineWidth(cell) * 1.1);
  for (const row of table.rows) {
    const cells = rowWidths(row);
    for (let column = 0; column < widths.length; column++) widths[column] = Math.max(widths[column]!, cells[column] ?? 0);
  }
  return widths.map((width) => Math.min(MAX_COLUMN_EM, Math.max(MIN_COLUMN_EM, Math.ceil(width))));
}

/** Rows are kept as they were while a table streams (./markdown-incremental.ts): each is measured once. */
const measured = new WeakMap<Inline[][], number[]>();

function rowWidths(row: Inline[][]): number[] {
  let widths = measured.get(row);
  if (!widths) measured.set(row, (widths = row.map(inlineWidth)));
  return widths;
}
