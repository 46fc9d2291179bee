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

interface IgnoreLevel {
  base: string;
  rules: Ignore;
}

function readRules(folder: string): Ignore | undefined {
  try {
    return ignore().add(readFileSync(join(folder, '.gitignore'), 'utf8'));
  } catch {
    return undefined;
  }
}

/** `.gitignore` levels above `start` that apply to it, outermost first. */
export function parentIgnoreLevels(start: string): IgnoreLevel[] {
  const levels: IgnoreLevel[] = [];
  if (existsSync(join(start, '.git'))) return levels;
  for (let folder = dirname(start); ; folder = dirname(folder)) {
    const rules = readRules(folder);
    if (rules) levels.unshift({ base: folder, rules });
    if (existsSync(join(folder, '.git')) || dirname(folder) === folder) return levels;
  }
}

/** Whether the levels ignore `absolute`; the deepest level with an opinion wins, as in git. */
function isIgnored(levels: readonly IgnoreLevel[], absolute: string, isDirectory: boolean): boolean {
  let ignored = false;
  for (const level of levels) {
    const path = relative(level.base, absolute).split(sep).join('/') + (isDirectory ? '/' : '');
    const verdict = level.rules.test(path);
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
      if (rules) levels = [...levels, { base: folder.absolute, rules }];
    }
    const depth = folder.depth + 1;
    for (const entry of entries) {
      if (ALWAYS_SKIPPED.has(entry.name)) continue;
      const kind = kindOf(entry);
      const absolute = join(folder.absolute, entry.name);
      const checked = kind === 'directory' || !options.keepIgnoredFiles;
      if (checked && levels.length > 0 && isIgnored(levels, absolute, kind === 'directory')) continue;
      const relativePath = folder.relative === '' ? entry.name : `${folder.relative}/${entry.name}`;
      yield { absolute, relative: relativePath, depth, kind };
      if (kind === 'directory' && depth < maxDepth) queue.push({ absolute, relative: relativePath, depth, levels });
    }
  }
}

/**
 * Runs a synchronous walk in slices, giving the event loop a turn every few milliseconds so that
 * a large tree does not freeze the app, and stopping when `signal` aborts.
 */
export async function* sliced<T>(items: Iterable<T>, signal?: AbortSignal, sliceMs = 8): AsyncGenerator<T> {
  let sliceStart = performance.now();
  for (const item of items) {
    if (performance.now() - sliceStart > sliceMs) {
      await new Promise<void>((resolve) => setImmediate(resolve));
      sliceStart = performance.now();
    }
    if (signal?.aborted) return;
    yield item;
  }
}
