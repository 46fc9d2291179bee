/**
 * Finding `old_text` for edit_file, and explaining a miss well enough that the next attempt
 * succeeds: where the text is when only whitespace differs, otherwise the most similar lines.
 */
import { formatCount } from './fs-utils';
import { LINE_NUMBER_SEPARATOR } from './read-file';

/** Start offsets of every occurrence of `needle`, overlapping ones included. */
export function occurrences(text: string, needle: string): number[] {
  const found: number[] = [];
  for (let index = text.indexOf(needle); index !== -1; index = text.indexOf(needle, index + 1)) found.push(index);
  return found;
}

/** 1-based line number of a character offset. */
export function lineAt(text: string, offset: number): number {
  let line = 1;
  for (let index = text.indexOf('\n'); index !== -1 && index < offset; index = text.indexOf('\n', index + 1)) line++;
  return line;
}

const MAX_CANDIDATES = 3;
const MIN_SIMILARITY = 0.5;
/** Lines compared for similarity are cut to this length: enough to tell, bounded in cost. */
const COMPARED_CHARS = 300;
const SHOWN_CONTEXT_LINES = 6;

function bigrams(text: string): Map<string, number> {
  const counts = new Map<string, number>();
  for (let i = 0; i < text.length - 1; i++) {
    const pair = text.slice(i, i + 2);
    counts.set(pair, (counts.get(pair) ?? 0) + 1);
  }
  return counts;
}

/** Sørensen–Dice similarity of two strings' character pairs, from 0 to 1. */
function similarity(a: string, b: string, aPairs: Map<string, number>): number {
  if (a === b) return 1;
  if (a.length < 2 || b.length < 2) return 0;
  let shared = 0;
  const remaining = new Map(aPairs);
  for (let i = 0; i < b.length - 1; i++) {
    const pair = b.slice(i, i + 2);
    const count = remaining.get(pair);
    if (count) {
      shared++;
      remaining.set(pair, count - 1);
    }
  }
  return (2 * shared) / (a.length - 1 + (b.length - 1));
}

function meaningfulLines(text: string): string[] {
  const lines = text.split('\n').map((line) => line.trim());
  while (lines.length > 0 && lines[0] === '') lines.shift();
  while (lines.length > 0 && lines[lines.length - 1] === '') lines.pop();
  return lines;
}

/** 1-based lines where `needle` matches if leading and trailing whitespace of each line is ignored. */
function whitespaceMatches(fileLines: string[], needle: string): number[] {
  const wanted = meaningfulLines(needle);
  if (wanted.length === 0) return [];
  const trimmed = fileLines.map((line) => line.trim());
  const found: number[] = [];
  for (let start = 0; start + wanted.length <= trimmed.length; start++) {
    if (wanted.every((line, offset) => trimmed[start + offset] === line)) found.push(start + 1);
  }
  return found;
}

function numbered(fileLines: string[], first: number, last: number): string {
  const width = String(last).length;
  const out: string[] = [];
  for (let number = first; number <= last; number++) {
    out.push(`${String(number).padStart(width)}${LINE_NUMBER_SEPARATOR}${fileLines[number - 1]!.slice(0, COMPARED_CHARS)}`);
  }
  return out.join('\n');
}

/** The explanation edit_file gives when `needle` is not in the (LF) text of `display`. */
export function missExplanation(display: string, text: string, needle: string): string {
  const fileLines = text.split('\n');
  const head = `old_text was not found in ${display}.`;
  if (new RegExp(`^\\s*\\d+${LINE_NUMBER_SEPARATOR}`, 'm').test(needle)) {
    return `${head} It contains line numbers from read_file ("12${LINE_NUMBER_SEPARATOR}"); leave them out and copy only the text after "${LINE_NUMBER_SEPARATOR}".`;
  }
  const spaced = whitespaceMatches(fileLines, needle);
  const span = meaningfulLines(needle).length;
  if (spaced.length > 0) {
    const first = spaced[0]!;
    return (
      `${head} Text that differs only in indentation or spacing is at line${spaced.length > 1 ? 's' : ''} ` +
      `${spaced.map(formatCount).join(', ')}; copy it exactly, whitespace included:\n` +
      numbered(fileLines, first, Math.min(fileLines.length, first + Math.min(span, SHOWN_CONTEXT_LINES) - 1))
    );
  }
  const firstLine = meaningfulLines(needle)[0] ?? '';
  const probe = firstLine.slice(0, COMPARED_CHARS);
  const pairs = bigrams(probe);
  const scored: Array<{ line: number; score: number }> = [];
  fileLines.forEach((line, index) => {
    const score = similarity(probe, line.trim().slice(0, COMPARED_CHARS), pairs);
    if (score >= MIN_SIMILARITY) scored.push({ line: index + 1, score });
  });
  scored.sort((a, b) => b.score - a.score || a.line - b.line);
  const best = scored.slice(0, MAX_CANDIDATES).sort((a, b) => a.line - b.line);
  if (best.length === 0) {
    return `${head} No line resembles its first line (${JSON.stringify(probe.slice(0, 80))}); read the file again to see its current content.`;
  }
  const shown = best.map(({ line }) => numbered(fileLines, line, Math.min(fileLines.length, line + Math.min(span, SHOWN_CONTEXT_LINES) - 1)));
  return `${head} The most similar lines are:\n${shown.join('\n…\n')}\nCopy old_text exactly from the file (read it again if it may have changed).`;
}
