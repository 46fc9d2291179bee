/** Classifies the lines of a unified diff for coloring. */

export type DiffLineKind = 'added' | 'removed' | 'hunk' | 'header' | 'context';

export interface DiffLine {
  kind: DiffLineKind;
  text: string;
  /** The line's number in the old file (removed and context lines), from its hunk header. */
  oldLine?: number;
  /** The line's number in the new file (added and context lines). */
  newLine?: number;
}

const HUNK = /^@@ -(\d+)(?:,\d+)? \+(\d+)(?:,\d+)? @@/;

export function diffLines(diff: string): DiffLine[] {
  const lines = diff.replace(/\r\n/g, '\n').replace(/\n$/, '').split('\n');
  let oldLine = 0;
  let newLine = 0;
  let inHunk = false;
  return lines.map((text) => {
    const hunk = HUNK.exec(text);
    if (hunk) {
      oldLine = Number(hunk[1]);
      newLine = Number(hunk[2]);
      inHunk = true;
      return { kind: 'hunk', text };
    }
    // Inside a hunk, "---" and "+++" are a removed or added line, not a file header.
    const kind = inHunk && /^[-+ ]/.test(text) ? (text[0] === '+' ? 'added' : text[0] === '-' ? 'removed' : 'context') : kindOf(text);
    if (kind === 'header') inHunk = false;
    if (!inHunk) return { kind, text };
    if (kind === 'added') return { kind, text, newLine: newLine++ };
    if (kind === 'removed') return { kind, text, oldLine: oldLine++ };
    if (kind === 'context' && text.startsWith(' ')) return { kind, text, oldLine: oldLine++, newLine: newLine++ };
    return { kind, text };
  });
}

function kindOf(line: string): DiffLineKind {
  if (line.startsWith('@@')) return 'hunk';
  if (line.startsWith('+++') || line.startsWith('---') || line.startsWith('diff ') || line.startsWith('index ') || line.startsWith('===')) return 'header';
  if (line.startsWith('+')) return 'added';
  if (line.startsWith('-')) return 'removed';
  return 'context';
}

/** Lines added and removed, for the card's summary. */
export function diffStats(lines: readonly DiffLine[]): { added: number; removed: number } {
  let added = 0;
  let removed = 0;
  for (const line of lines) {
    if (line.kind === 'added') added++;
    else if (line.kind === 'removed') removed++;
  }
  return { added, removed };
}
