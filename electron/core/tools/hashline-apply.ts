/**
 * Applying a section's operations to a file's text. Lines keep their own line endings; new lines
 * take the file's dominant one, so CRLF files stay CRLF and untouched lines stay byte-identical.
 */
import type { Operation } from './hashline-patch';
import type { LineLocator } from './hashline-remap';

export interface FileLines {
  texts: string[];
  /** The terminator after each line ('' only possibly for the last). */
  endings: string[];
  /** What new lines end with. */
  newline: '\n' | '\r\n';
  /** Whether the last line ends with a newline. */
  finalNewline: boolean;
}

export function splitFile(raw: string): FileLines {
  const texts: string[] = [];
  const endings: string[] = [];
  let crlf = 0;
  let lf = 0;
  let start = 0;
  while (start < raw.length) {
    const newline = raw.indexOf('\n', start);
    if (newline < 0) {
      texts.push(raw.slice(start));
      endings.push('');
      break;
    }
    const isCrlf = newline > start && raw.charCodeAt(newline - 1) === 13;
    if (isCrlf) crlf++;
    else lf++;
    texts.push(raw.slice(start, isCrlf ? newline - 1 : newline));
    endings.push(isCrlf ? '\r\n' : '\n');
    start = newline + 1;
  }
  // An empty file gets a final newline once something is written into it.
  const finalNewline = raw === '' || raw.endsWith('\n');
  return { texts, endings, newline: crlf > lf ? '\r\n' : '\n', finalNewline };
}

export function joinFile(file: FileLines): string {
  const last = file.texts.length - 1;
  let out = '';
  for (let i = 0; i <= last; i++) {
    const ending = file.endings[i] || file.newline;
    out += file.texts[i] + (i < last || file.finalNewline ? ending : '');
  }
  return out;
}

/** One change in live coordinates: remove `deleteCount` lines at 0-based `start`, insert `lines`. */
export interface Splice {
  start: number;
  deleteCount: number;
  lines: string[];
  operation: Operation;
}

export interface Placement {
  splices: Splice[];
  /** Operations whose lines moved, for the summary ("line 12 → 15"). */
  moved: string[];
  problems: string[];
}

/**
 * Places each operation on the live file through `locator`. `snapshotLines` is what the model
 * saw (for quoting a changed line back to it); `liveLineCount` counts the live file's lines.
 */
export function placeOperations(operations: readonly Operation[], locator: LineLocator, snapshotLines: readonly string[], liveLineCount: number): Placement {
  const splices: Splice[] = [];
  const moved: string[] = [];
  const problems: string[] = [];
  const quote = (line: number) => {
    const text = (snapshotLines[line - 1] ?? '').trim();
    return text === '' ? '(blank)' : `"${text.length > 50 ? `${text.slice(0, 50)}…` : text}"`;
  };
  const describe = (line: number, problem: 'changed' | 'ambiguous') =>
    problem === 'changed'
      ? `line ${line} ${quote(line)} was changed or deleted since you read the file`
      : `line ${line} ${quote(line)} moved and identical lines nearby make its new place ambiguous`;

  for (const operation of operations) {
    const where = `"${operation.label}" (patch line ${operation.patchLine})`;
    if (operation.kind === 'insert' && (operation.position === 'head' || operation.position === 'tail')) {
      const start = operation.position === 'head' ? 0 : liveLineCount;
      splices.push({ start, deleteCount: 0, lines: operation.body, operation });
      continue;
    }
    const first = operation.kind === 'insert' ? operation.line : operation.first;
    const last = operation.kind === 'insert' ? operation.line : operation.last;
    let liveFirst = -1;
    let failed = false;
    for (let line = first; line <= last && !failed; line++) {
      const located = locator.locate(line);
      if ('problem' in located) {
        problems.push(`${where}: ${describe(line, located.problem)}`);
        failed = true;
      } else if (line === first) {
        liveFirst = located.line;
      } else if (located.line !== liveFirst + (line - first)) {
        problems.push(`${where}: lines were inserted or removed between line ${first} and line ${line} since you read the file`);
        failed = true;
      }
    }
    if (failed) continue;
    if (liveFirst !== first) moved.push(`${operation.label} → line ${liveFirst}${last > first ? `-${liveFirst + last - first}` : ''}`);
    if (operation.kind === 'insert') {
      const start = operation.position === 'before' ? liveFirst - 1 : liveFirst;
      splices.push({ start, deleteCount: 0, lines: operation.body, operation });
    } else {
      const lines = operation.kind === 'replace' ? operation.body : [];
      splices.push({ start: liveFirst - 1, deleteCount: last - first + 1, lines, operation });
    }
  }
  return { splices, moved, problems };
}

/**
 * Applies non-overlapping splices. Working from the end keeps earlier positions valid. At one
 * position the replacement goes in first so an "insert before" lands above it, and insertions
 * go in last-written first so they end up in the order the patch lists them.
 */
export function applySplices(file: FileLines, splices: readonly Splice[]): FileLines {
  const texts = [...file.texts];
  const endings = [...file.endings];
  const ordered = [...splices].sort((a, b) => b.start - a.start || b.deleteCount - a.deleteCount || b.operation.patchLine - a.operation.patchLine);
  for (const splice of ordered) {
    texts.splice(splice.start, splice.deleteCount, ...splice.lines);
    // New lines have no ending of their own: joinFile gives them the file's newline.
    endings.splice(splice.start, splice.deleteCount, ...splice.lines.map(() => ''));
  }
  return { ...file, texts, endings };
}
