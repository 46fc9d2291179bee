/**
 * The folder walker behind list_files, the built-in search and the secret-file scan. It honours
 * `.gitignore` files the way ripgrep does, so that both search engines see the same files: the
 * ones in the walked folders (root and nested) plus those of its parent folders up to the
 * repository root (the nearest folder holding `.git`; the file-system root when there is none).
 * `.git` and `node_modules` are always skipped and symbolic links are listed but never followed,
 * so a walk cannot leave the workspace.
 */
import { existsSync, readFileSync, readdirSync, type Dirent } from 'node:fs';
import { dirname, join, relative, sep } from 'node:path';
import ignore, { type Ignore } from 'ignore';

/** Never listed, searched or descended into. */
export const ALWAYS_SKIPPED = new Set(['.git', 'node_modules']);

export type EntryKind = 'file' | 'directory' | 'symlink' | 'other';

export interface WalkEntry {
  absolute: string;
  /** From the walk's start folder, `/`-separated. */
  relative: string;
  /** 1 for the start folder's own entries. */
  depth: number;
  kind: EntryKind;
}

export interface WalkOptions {
  /** Deepest level listed (1 = the start folder's entries only). Default: no limit. */
  maxDepth?: number;
  /** Skip what `.gitignore` files ignore. Default true. */
  gitignore?: boolean;
  /**
   * Still list files that `.gitignore` ignores (the folders it ignores stay skipped): secret
   * files such as `.env` are ignored by design, yet are exactly what the secret scan looks for.
   */
  keepIgnoredFiles?: boolean;
}

/** One `.gitignore`, with the path from its folder to the folder being listed ("" or "a/b/"). */
interface IgnoreLevel {
  rules: Ignore;
  prefix: string;
}

function readRules(folder: string): Ignore | undefined {
  try {
    return ignore().add(readFileSync(join(folder, '.gitignore'), 'utf8'));
  } catch {
    return undefined;
  }
}

/** `.gitignore` levels above `start` that apply to it, outermost first. */
function parentIgnoreLevels(start: string): IgnoreLevel[] {
  const levels: IgnoreLevel[] = [];
  if (existsSync(join(start, '.git'))) return levels;
  for (let folder = dirname(start); ; folder = dirname(folder)) {
    const rules = readRules(folder);
    if (rules) levels.unshift({ rules, prefix: `${relative(folder, start).split(sep).join('/')}/` });
    if (existsSync(join(folder, '.git')) || dirname(folder) === folder) return levels;
  }
}

/** Whether the levels ignore the entry `name`; the deepest level with an opinion wins, as in git. */
function isIgnored(levels: readonly IgnoreLevel[], name: string, isDirectory: boolean): boolean {
  let ignored = false;
  for (const level of levels) {
    const verdict = level.rules.test(level.prefix + name + (isDirectory ? '/' : ''));
    if (verdict.ignored) ignored = true;
    else if (verdict.unignored) ignored = false;
  }
  return ignored;
}

function kindOf(entry: Dirent): EntryKind {
  if (entry.isDirectory()) return 'directory';
  if (entry.isFile()) return 'file';
  if (entry.isSymbolicLink()) return 'symlink';
  return 'other';
}

interface PendingFolder {
  absolute: string;
  relative: string;
  depth: number;
  levels: IgnoreLevel[];
}

/**
 * Breadth first, each folder's entries sorted by name, so the shallow structure comes before
 * deep detail when a caller stops early. Unreadable folders are skipped.
 */
export function* walk(start: string, options: WalkOptions = {}): Generator<WalkEntry> {
  const maxDepth = options.maxDepth ?? Infinity;
  const gitignore = options.gitignore ?? true;
  const queue: PendingFolder[] = [{ absolute: start, relative: '', depth: 0, levels: gitignore ? parentIgnoreLevels(start) : [] }];
  for (let next = 0; next < queue.length; next++) {
    const folder = queue[next]!;
    let entries: Dirent[];
    try {
      entries = readdirSync(folder.absolute, { withFileTypes: true });
    } catch {
      continue;
    }
    entries.sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
    let levels = folder.levels;
    if (gitignore && entries.some((entry) => entry.name === '.gitignore')) {
      const rules = readRules(folder.absolute);
      if (rules) levels = [...levels, { rules, prefix: '' }];
    }
    const depth = folder.depth + 1;
    const parent = folder.absolute.endsWith(sep) ? folder.absolute : folder.absolute + sep;
    for (const entry of entries) {
      if (ALWAYS_SKIPPED.has(entry.name)) continue;
      const kind = kindOf(entry);
      const checked = kind === 'directory' || !options.keepIgnoredFiles;
      if (checked && levels.length > 0 && isIgnored(levels, entry.name, kind === 'directory')) continue;
      const absolute = parent + entry.name;
      const relativePath = folder.relative === '' ? entry.name : `${folder.relative}/${entry.name}`;
      yield { absolute, relative: relativePath, depth, kind };
      if (kind === 'directory' && depth < maxDepth) {
        const below = levels.map((level) => ({ rules: level.rules, prefix: `${level.prefix}${entry.name}/` }));
        queue.push({ absolute, relative: relativePath, depth, levels: below });
      }
    }
  }
}

/**
 * Calls `visit` on each item of a synchronous walk, giving the event loop a turn every few
 * milliseconds so that a large tree does not freeze the app. Stops when `visit` returns false
 * or `signal` aborts. (A plain loop: an async generator would cost a promise per item.)
 */
export async function forEachSliced<T>(items: Iterable<T>, visit: (item: T) => boolean | void, signal?: AbortSignal, sliceMs = 8): Promise<void> {
  const iterator = items[Symbol.iterator]();
  for (;;) {
    if (signal?.aborted) return;
    const sliceEnd = performance.now() + sliceMs;
    do {
      const next = iterator.next();
      if (next.done || visit(next.value) === false) return;
    } while (performance.now() < sliceEnd);
    await new Promise<void>((resolve) => setImmediate(resolve));
  }
}
