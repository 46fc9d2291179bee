/**
 * What both search engines produce: matches collected in any order, of which the first ones by
 * path and line are kept (a bounded top-k, so a pattern matching a million lines costs little
 * memory), and one text format for the model.
 */
import type { SecretRedactor } from '../agent/types';
import { formatCount } from './fs-utils';

export interface SearchMatch {
  /** Display path (workspace-relative under the first root). */
  path: string;
  line: number;
  text: string;
}

interface Keyed extends SearchMatch {
  /** The path with `/` as the lowest character, so plain string order is tree order. */
  key: string;
}

export const MAX_SHOWN_MATCHES = 200;
/** Counting stops here; the search is then cut short and the total reported as a floor. */
export const MAX_COUNTED_MATCHES = 100_000;
/** Matched lines longer than this are shown as a window around the match. */
export const MAX_MATCH_LINE_CHARS = 300;
const CONTEXT_BEFORE_MATCH = 80;

function compare(a: Keyed, b: Keyed): number {
  return a.key < b.key ? -1 : a.key > b.key ? 1 : a.line - b.line;
}

/** A long line cut to a window that starts a little before the match. */
export function trimLine(text: string, finder: RegExp): string {
  if (text.length <= MAX_MATCH_LINE_CHARS) return text;
  finder.lastIndex = 0;
  const at = finder.exec(text)?.index ?? 0;
  const start = Math.max(0, Math.min(at - CONTEXT_BEFORE_MATCH, text.length - MAX_MATCH_LINE_CHARS));
  const end = start + MAX_MATCH_LINE_CHARS;
  return `${start > 0 ? '…' : ''}${text.slice(start, end)}${end < text.length ? '…' : ''}`;
}

export class MatchCollector {
  total = 0;
  private readonly files = new Set<string>();
  private kept: Keyed[] = [];
  /** Once known, the last match worth keeping: anything after it is only counted. */
  private cutoff: Keyed | undefined;
  /** Matches arrive grouped by file, so the file's key is worked out once per file. */
  private lastPath = '';
  private lastKey = '';

  /**
   * `finder` locates the match within a long line (a non-global copy of the pattern). A kept
   * line is redacted whole before it is cut to its window, so no window starts inside a secret.
   */
  constructor(
    private readonly finder: RegExp,
    private readonly secrets?: SecretRedactor,
  ) {}

  /** False once enough matches have been counted and the search should stop. */
  add(path: string, line: number, text: string): boolean {
    this.total++;
    if (path !== this.lastPath) {
      this.files.add(path);
      this.lastPath = path;
      this.lastKey = path.replaceAll('/', '\0');
    }
    const cutoff = this.cutoff;
    const after = cutoff && (this.lastKey > cutoff.key || (this.lastKey === cutoff.key && line > cutoff.line));
    if (!after) {
      const shown = this.secrets ? this.secrets.redact(text).text : text;
      this.kept.push({ path, line, text: trimLine(shown, this.finder), key: this.lastKey });
      if (this.kept.length >= 4 * MAX_SHOWN_MATCHES) this.prune();
    }
    return this.total < MAX_COUNTED_MATCHES;
  }

  get fileCount(): number {
    return this.files.size;
  }

  get complete(): boolean {
    return this.total < MAX_COUNTED_MATCHES;
  }

  private prune(): void {
    this.kept.sort(compare);
    this.kept.length = Math.min(this.kept.length, MAX_SHOWN_MATCHES);
    this.cutoff = this.kept[this.kept.length - 1];
  }

  /** The first matches by path and line. */
  shown(): SearchMatch[] {
    this.prune();
    return this.kept.map(({ path, line, text }) => ({ path, line, text }));
  }
}

export interface SearchSummary {
  pattern: string;
  /** Display path of where it searched. */
  where: string;
  include?: string;
}

export function formatResults(collector: MatchCollector, summary: SearchSummary): string {
  const scope = `${summary.where}${summary.include ? ` (files matching ${summary.include})` : ''}`;
  if (collector.total === 0) return `No matches for ${summary.pattern} in ${scope}.`;
  const shown = collector.shown();
  const total = collector.complete ? formatCount(collector.total) : `at least ${formatCount(collector.total)}`;
  const lines = [`${total} match${collector.total === 1 ? '' : 'es'} in ${formatCount(collector.fileCount)} file${collector.fileCount === 1 ? '' : 's'}:`];
  for (const match of shown) lines.push(`${match.path}:${match.line}: ${match.text}`);
  const omitted = collector.total - shown.length;
  if (omitted > 0) {
    lines.push(
      `… ${collector.complete ? '' : 'at least '}${formatCount(omitted)} more matches not shown (the first ${shown.length} by path and line are listed); ` +
        'narrow the search with path, include or a more specific pattern',
    );
  }
  return lines.join('\n');
}
