/**
 * Turns the paths a workspace watcher named into what a checkpoint stages, without asking git
 * to walk the tree: files and symlinks present now (a new folder's files included), paths gone,
 * and the folders whose emptiness may have changed. Whatever a watched list cannot settle the
 * way git status would (a `.gitignore` edited, a repository made inside the root) returns
 * undefined, and the checkpoint walks the tree with git status instead.
 */
import { lstatSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { MAX_CHANGES } from './workspace-watcher';

/** The folders of shadow-repo's COVE_EXCLUDES and git's own folders: never recorded. */
const NEVER_RECORDED = new Set(['.git', 'node_modules', '.venv', '__pycache__']);

export interface ChangedPaths {
  /** Files and symlinks there now. */
  present: string[];
  /** Paths gone: a file, or a folder whose recorded files are all gone. */
  gone: string[];
  /** Folders (ending in `/`) that are empty now or may have stopped being empty. */
  folders: string[];
}

function parentOf(path: string): string | undefined {
  const slash = path.lastIndexOf('/');
  return slash > 0 ? path.slice(0, slash + 1) : undefined;
}

/**
 * `paths` are relative to `root`; `ownFolder` (COVE_HOME inside the root) is never recorded.
 * Undefined when only a walk of the whole tree can answer.
 */
export function changedPaths(root: string, paths: readonly string[], ownFolder: string | undefined): ChangedPaths | undefined {
  const present = new Set<string>();
  const gone = new Set<string>();
  const folders = new Set<string>();
  let budget = MAX_CHANGES;
  // A folder made since the last checkpoint: its files, and the empty folders in it.
  const walk = (folder: string): boolean => {
    let entries;
    try {
      entries = readdirSync(join(root, folder), { withFileTypes: true });
    } catch {
      return true;
    }
    budget -= entries.length + 1;
    if (budget < 0) return false;
    if (entries.length === 0) folders.add(folder);
    for (const entry of entries) {
      const path = `${folder}${entry.name}`;
      if (entry.name === '.git' || entry.name === '.gitignore') return false;
      if (entry.isDirectory()) {
        if (!NEVER_RECORDED.has(entry.name) && !walk(`${path}/`)) return false;
      } else if (entry.isFile() || entry.isSymbolicLink()) present.add(path);
    }
    return true;
  };
  for (const path of paths) {
    const parts = path.split('/');
    // A new `.git` makes a nested repository (git status names it, not its files); an edited
    // `.gitignore` changes which files count.
    // A leading `:` would read as pathspec magic to check-ignore, which cannot take literal ones.
    if (parts.includes('.git') || parts[parts.length - 1] === '.gitignore' || path.startsWith(':')) return undefined;
    if (parts.slice(0, -1).some((part) => NEVER_RECORDED.has(part)) || NEVER_RECORDED.has(parts[parts.length - 1]!)) continue;
    if (ownFolder && (path === ownFolder || path.startsWith(`${ownFolder}/`))) continue;
    const parent = parentOf(path);
    if (parent) folders.add(parent);
    let stats;
    try {
      stats = lstatSync(join(root, path));
    } catch {
      gone.add(path);
      continue;
    }
    if (stats.isDirectory()) {
      if (!walk(`${path}/`)) return undefined;
    } else if (stats.isFile() || stats.isSymbolicLink()) present.add(path);
    else gone.add(path);
  }
  return { present: [...present], gone: [...gone], folders: [...folders] };
}

/** Whether `folder` (relative, ending in `/`) is a folder with nothing in it now. */
export function isEmptyFolder(root: string, folder: string): boolean {
  try {
    return readdirSync(join(root, folder)).length === 0;
  } catch {
    return false;
  }
}
