/**
 * A path word the way bash would expand it, before the escape tier judges it: variables Cove
 * knows (HOME, PWD), `~`, braces, then globs against the real file system. Quoted text stays
 * literal. What cannot be expanded for certain (another variable, `${X:-…}`, `$(…)`, `~user`)
 * gives a reason instead, and the caller asks.
 */
import { readdirSync } from 'node:fs';
import { isAbsolute, join } from 'node:path';
import picomatch from 'picomatch';
import type { Word } from './shell-words';

export interface ExpandContext {
  home: string;
  /** Where the command runs. */
  cwd: string;
  /** `for f in a b`: the words a loop variable takes, each expanded in turn. */
  loops?: ReadonlyMap<string, readonly Word[]>;
}

export type Expansion = { values: string[] } | { unknown: string };

const MAX_RESULTS = 512;
const SPECIAL = /[\\*?[\]{},~]/g;

export function expandWord(word: Word, context: ExpandContext): Expansion {
  let patterns = [''];
  const append = (texts: readonly string[]) => {
    patterns = patterns.flatMap((pattern) => texts.map((text) => pattern + text));
  };
  for (const piece of word.pieces) {
    if (piece.kind === 'dynamic') return { unknown: `cannot tell what ${piece.text} expands to (in ${word.raw})` };
    if (piece.kind === 'variable') {
      const value = piece.name === 'HOME' ? context.home : piece.name === 'PWD' ? context.cwd : null;
      const bound = context.loops?.get(piece.name);
      if (value !== null) append([value.replace(SPECIAL, '\\$&')]);
      else if (bound) {
        const inner = new Map(context.loops);
        inner.delete(piece.name);
        const values: string[] = [];
        for (const item of bound) {
          const expanded = expandWord(item, { ...context, loops: inner });
          if ('unknown' in expanded) return expanded;
          values.push(...expanded.values.map((text) => text.replace(SPECIAL, '\\$&')));
        }
        append(values);
      } else return { unknown: `cannot tell where $${piece.name} points (in ${word.raw})` };
    } else append([piece.quoted ? piece.text.replace(SPECIAL, '\\$&') : piece.text]);
    if (patterns.length > MAX_RESULTS) return { unknown: `${word.raw} expands to too many words to check` };
  }
  const braced: string[] = [];
  for (const pattern of patterns) {
    const expanded = expandBraces(pattern);
    if (expanded === null) return { unknown: `${word.raw} expands to too many words to check` };
    braced.push(...expanded);
  }
  const values: string[] = [];
  for (const item of braced) {
    const tilde = expandTilde(item, context);
    if (tilde === null) return { unknown: `cannot tell where ${item.split('/')[0]} points (in ${word.raw})` };
    values.push(...glob(tilde, context.cwd));
    if (values.length > MAX_RESULTS) return { unknown: `${word.raw} matches too many files to check` };
  }
  return { values };
}

/** Removes the backslashes that mark quoted characters. */
export function unescape(pattern: string): string {
  return pattern.replace(/\\(.)/gs, '$1');
}

function expandTilde(pattern: string, context: ExpandContext): string | null {
  if (!pattern.startsWith('~')) return pattern;
  const end = pattern.indexOf('/') < 0 ? pattern.length : pattern.indexOf('/');
  const user = pattern.slice(1, end);
  const rest = pattern.slice(end);
  if (user === '') return context.home.replace(SPECIAL, '\\$&') + rest;
  if (user === '+') return context.cwd.replace(SPECIAL, '\\$&') + rest;
  return null;
}

/** Top-level `{a,b}` and `{1..3}`; null past MAX_RESULTS words. */
export function expandBraces(pattern: string): string[] | null {
  const found = findBrace(pattern);
  if (!found) return [pattern];
  const { open, close, items } = found;
  const results: string[] = [];
  for (const item of items) {
    const expanded = expandBraces(pattern.slice(0, open) + item + pattern.slice(close + 1));
    if (expanded === null) return null;
    results.push(...expanded);
    if (results.length > MAX_RESULTS) return null;
  }
  return results;
}

function findBrace(pattern: string): { open: number; close: number; items: string[] } | null {
  for (let open = 0; open < pattern.length; open++) {
    if (pattern[open] === '\\') {
      open++;
      continue;
    }
    if (pattern[open] !== '{') continue;
    let depth = 0;
    const commas: number[] = [];
    for (let index = open + 1; index < pattern.length; index++) {
      const char = pattern[index];
      if (char === '\\') index++;
      else if (char === '{') depth++;
      else if (char === '}' && depth > 0) depth--;
      else if (char === ',' && depth === 0) commas.push(index);
      else if (char === '}') {
        const body = pattern.slice(open + 1, index);
        if (commas.length > 0) {
          const bounds = [open, ...commas, index];
          return { open, close: index, items: bounds.slice(0, -1).map((start, at) => pattern.slice(start + 1, bounds[at + 1])) };
        }
        const sequence = sequenceItems(body);
        if (sequence) return { open, close: index, items: sequence };
        break;
      }
    }
  }
  return null;
}

function sequenceItems(body: string): string[] | null {
  const numbers = /^(-?\d+)\.\.(-?\d+)(?:\.\.(-?\d+))?$/.exec(body);
  const letters = /^([A-Za-z])\.\.([A-Za-z])$/.exec(body);
  if (!numbers && !letters) return null;
  const from = numbers ? Number(numbers[1]) : letters![1]!.charCodeAt(0);
  const to = numbers ? Number(numbers[2]) : letters![2]!.charCodeAt(0);
  const step = Math.abs(Number(numbers?.[3] ?? 1)) || 1;
  if (Math.abs(to - from) / step > MAX_RESULTS) return Array.from({ length: MAX_RESULTS + 1 }, () => '');
  const items: string[] = [];
  for (let value = from; from <= to ? value <= to : value >= to; value += from <= to ? step : -step) {
    items.push(numbers ? String(value) : String.fromCharCode(value));
  }
  return items;
}

const GLOB = /(^|[^\\])(\\\\)*[*?[]/;

/** Matches a pattern against the file system; no match leaves the word as written, as bash does. */
function glob(pattern: string, cwd: string): string[] {
  if (!GLOB.test(pattern)) return [unescape(pattern)];
  const absolute = pattern.startsWith('/');
  const segments = pattern.split('/').filter((segment, index) => segment !== '' || index === 0);
  let bases = [absolute ? '/' : ''];
  for (const segment of absolute ? segments.slice(1) : segments) {
    const next: string[] = [];
    for (const base of bases) {
      if (!GLOB.test(segment)) {
        next.push(base === '' ? unescape(segment) : join(base, unescape(segment)));
        continue;
      }
      const folder = base === '' ? cwd : isAbsolute(base) ? base : join(cwd, base);
      let names: string[];
      try {
        names = readdirSync(folder);
      } catch {
        continue;
      }
      const matches = picomatch(segment, { dot: segment.startsWith('.') });
      for (const name of names) if (matches(name)) next.push(base === '' ? name : join(base, name));
      if (next.length > MAX_RESULTS) return next;
    }
    bases = next;
  }
  return bases.length > 0 ? bases : [unescape(pattern)];
}
