/**
 * Folders a person names as workspaces: checked to be existing, readable directories (by real
 * path, so a symlinked folder is recorded where it really is), and completed as they type.
 */
import { constants, promises as fs } from 'node:fs';
import { homedir } from 'node:os';
import { basename, dirname, isAbsolute, join, resolve, sep } from 'node:path';
import { ApiError } from './dispatch';

function expandHome(path: string): string {
  if (path === '~') return homedir();
  if (path.startsWith('~/')) return join(homedir(), path.slice(2));
  return path;
}

export async function checkWorkspace(given: string): Promise<{ path: string; name: string }> {
  const trimmed = given.trim();
  const expanded = expandHome(trimmed);
  if (!isAbsolute(expanded)) throw ApiError.invalid(`${trimmed} is not an absolute path; give the full path of a folder`);
  let stats;
  try {
    stats = await fs.stat(expanded);
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    throw ApiError.invalid(code === 'EACCES' ? `${trimmed} cannot be read (permission denied)` : `${trimmed} does not exist`);
  }
  if (!stats.isDirectory()) throw ApiError.invalid(`${trimmed} is a file, not a folder; drop or type a folder`);
  try {
    await fs.access(expanded, constants.R_OK | constants.X_OK);
  } catch {
    throw ApiError.invalid(`${trimmed} cannot be read (permission denied)`);
  }
  const real = await fs.realpath(expanded);
  return { path: real, name: basename(real) || real };
}

/** Folders whose path starts with `prefix`; hidden ones only when the typed name starts with a dot. */
export async function completeFolders(prefix: string, limit = 50): Promise<string[]> {
  const expanded = expandHome(prefix.trim());
  if (!isAbsolute(expanded)) return [];
  const endsWithSeparator = expanded.endsWith(sep);
  const parent = endsWithSeparator ? expanded : dirname(expanded);
  const start = endsWithSeparator ? '' : basename(expanded);
  let entries;
  try {
    entries = await fs.readdir(parent, { withFileTypes: true });
  } catch {
    return [];
  }
  return entries
    .filter((entry) => entry.isDirectory() && entry.name.startsWith(start) && (start.startsWith('.') || !entry.name.startsWith('.')))
    .map((entry) => entry.name)
    .sort((a, b) => a.localeCompare(b))
    .slice(0, limit)
    .map((name) => `${resolve(parent, name)}${sep}`);
}
