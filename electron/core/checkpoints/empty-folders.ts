/**
 * Empty folders in a checkpoint. Git records files, not folders, so a folder with nothing in it
 * would be lost by a rewind (a deleted empty folder not put back, a new one left behind). Git
 * still finds them for us: `ls-files --others --directory` names every folder with no tracked
 * file in it, cheaply through the untracked cache, and only those are looked into here. The list
 * goes in the checkpoint's commit message beside the files over the size cap.
 */
import { lstatSync, readdirSync } from 'node:fs';
import { join } from 'node:path';

/** How many folder entries one checkpoint reads looking for empty folders: a big new tree is not walked whole. */
export const EMPTY_FOLDER_SCAN_LIMIT = 20_000;

/** The folders of shadow-repo's COVE_EXCLUDES, and nested repositories' own git folders. */
const NEVER_ENTERED = new Set(['.git', 'node_modules', '.venv', '__pycache__']);

/**
 * The empty folders under the folders git named (each ending in `/`, relative to the root), as
 * paths ending in `/`. A nested repository is never entered; a folder holding only ignored files
 * is not empty.
 */
export function findEmptyFolders(root: string, candidates: readonly string[], nestedRepositories: ReadonlySet<string>): string[] {
  const found: string[] = [];
  let budget = EMPTY_FOLDER_SCAN_LIMIT;
  const visit = (folder: string) => {
    if (budget <= 0 || nestedRepositories.has(folder)) return;
    let entries;
    try {
      entries = readdirSync(join(root, folder), { withFileTypes: true });
    } catch {
      return;
    }
    budget -= entries.length + 1;
    if (entries.length === 0) {
      found.push(folder);
      return;
    }
    for (const entry of entries) if (entry.isDirectory() && !NEVER_ENTERED.has(entry.name)) visit(`${folder}${entry.name}/`);
  };
  for (const candidate of candidates) if (candidate.endsWith('/')) visit(candidate);
  return found.sort();
}

/** True when `path` (relative, ending in `/`) is a folder on disk now. */
export function isFolder(root: string, path: string): boolean {
  try {
    return lstatSync(join(root, path)).isDirectory();
  } catch {
    return false;
  }
}
