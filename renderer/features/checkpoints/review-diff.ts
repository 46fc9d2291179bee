/**
 * A file's unified diff cut into hunks for the review pane, and each hunk's rows side by side:
 * context on both sides, a run of removed lines beside the run of added lines that follows it
 * (the first removed with the first added, and so on), the longer run's rest against nothing.
 */
import { diffLines, type DiffLine } from '../tools/diff-lines';

export interface ReviewHunk {
  /** The hunk's `@@ … @@` line. */
  header: string;
  /** Its place among the file's hunks, from 0: what `session:revertHunk` names. */
  index: number;
  lines: DiffLine[];
}

export interface SplitRow {
  left: DiffLine | null;
  right: DiffLine | null;
}

export function reviewHunks(diff: string): ReviewHunk[] {
  const hunks: ReviewHunk[] = [];
  for (const line of diffLines(diff)) {
    if (line.kind === 'hunk') hunks.push({ header: line.text, index: hunks.length, lines: [] });
    else if (line.kind !== 'header' && hunks.length > 0) hunks.at(-1)!.lines.push(line);
  }
  return hunks;
}

export function splitRows(lines: readonly DiffLine[]): SplitRow[] {
  const rows: SplitRow[] = [];
  let removed: DiffLine[] = [];
  let added: DiffLine[] = [];
  const flush = () => {
    for (let index = 0; index < Math.max(removed.length, added.length); index++) rows.push({ left: removed[index] ?? null, right: added[index] ?? null });
    removed = [];
    added = [];
  };
  for (const line of lines) {
    if (line.kind === 'removed') {
      // A removed line after added ones starts a new change: `-a +b -c` pairs a with b, c alone.
      if (added.length > 0) flush();
      removed.push(line);
    } else if (line.kind === 'added') added.push(line);
    else {
      flush();
      rows.push({ left: line, right: line });
    }
  }
  flush();
  return rows;
}

/** A line's text without its diff sign. */
export function lineContent(line: DiffLine): string {
  return line.kind === 'added' || line.kind === 'removed' || (line.kind === 'context' && line.text.startsWith(' ')) ? line.text.slice(1) : line.text;
}

export interface LineComment {
  root: string;
  path: string;
  /** The line's number on the side it was made: the new file's, or the old one's for a removed line. */
  line: number;
  removed: boolean;
  /** The line as the diff showed it, quoted under the comment. */
  quote: string;
  text: string;
}

/** The prompt the comments go back to the agent as, one entry per comment in the order they were made. */
export function commentsPrompt(comments: readonly LineComment[]): string {
  const entries = comments.map((comment) => {
    const where = `${comment.path}:${comment.line}${comment.removed ? ' (a line the change removed)' : ''}`;
    const text = comment.text.trim().split('\n').join('\n  ');
    return `- ${where}: ${text}\n  > ${comment.quote}`;
  });
  return `Review comments:\n${entries.join('\n')}`;
}
