/**
 * Paths that complete an `@` mention as it is typed: files and folders of the session's
 * workspaces (what `.gitignore` ignores left out, like list_files), ranked the way people look
 * for a file: a path that starts with what was typed first, then a name that does, then a path
 * that merely contains it. Paths are relative to the first root, as the file tools take them.
 */
import { isInside } from '../tools/sandbox';
import { walk } from '../tools/walk';

/** Enough for a large repository's source tree; a completion must answer while the person types. */
const MAX_VISITED = 20_000;

export function completeMentions(roots: readonly string[], typed: string, limit = 30): string[] {
  const query = typed.replace(/^@/, '').replace(/^\.\//, '').toLowerCase();
  const scored: Array<{ path: string; score: number }> = [];
  let visited = 0;
  for (const [index, root] of roots.entries()) {
    for (const entry of walk(root)) {
      if (++visited > MAX_VISITED) break;
      if (entry.kind !== 'file' && entry.kind !== 'directory') continue;
      if (!isInside(entry.absolute, root)) continue;
      const shown = (index === 0 ? entry.relative : `${root}/${entry.relative}`) + (entry.kind === 'directory' ? '/' : '');
      const score = rank(shown.toLowerCase(), query);
      if (score > 0) scored.push({ path: shown, score });
    }
  }
  return scored
    .sort((a, b) => b.score - a.score || a.path.split('/').length - b.path.split('/').length || a.path.localeCompare(b.path))
    .slice(0, limit)
    .map((entry) => entry.path);
}

function rank(path: string, query: string): number {
  if (query === '') return path.replace(/\/$/, '').includes('/') ? 0 : 1;
  if (path.startsWith(query)) return 3;
  const name = path.replace(/\/$/, '').split('/').pop()!;
  if (name.startsWith(query)) return 2;
  return path.includes(query) ? 1 : 0;
}
