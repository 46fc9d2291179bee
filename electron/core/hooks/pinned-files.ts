/**
 * The files of a project a command line points at (`./scripts/guard.sh`,
 * `"$CLAUDE_PROJECT_DIR"/.claude/hooks/check.py`, `node server.js`). An approval pins their
 * content too: otherwise a repository could keep a hook's command the same and change the
 * script it runs after the person approved it. Files outside the project (the interpreter,
 * system tools) are not the project's to change, so they are left out.
 */
import { createHash } from 'node:crypto';
import { openSync, readSync, closeSync, statSync } from 'node:fs';
import { isAbsolute, relative, resolve } from 'node:path';

const MAX_FILES = 32;
/** Enough to tell any script apart; a larger file is pinned by this much of it and its size. */
const MAX_BYTES = 1024 * 1024;

function words(command: string, root: string): string[] {
  const expanded = command.replace(/\$\{?(?:CLAUDE_PROJECT_DIR|COVE_PROJECT_DIR)\}?/g, root);
  const found: string[] = [];
  for (const match of expanded.matchAll(/"([^"]*)"|'([^']*)'|([^\s;&|<>()]+)/g)) {
    const word = (match[1] ?? match[2] ?? match[3] ?? '').replace(/^["']|["']$/g, '');
    if (!word) continue;
    found.push(word);
    const value = word.indexOf('=');
    if (value > 0) found.push(word.slice(value + 1));
  }
  return found;
}

function inside(root: string, path: string): boolean {
  const rel = relative(root, path);
  return rel !== '' && !rel.startsWith('..') && !isAbsolute(rel);
}

function digestOf(path: string, size: number): string {
  const hash = createHash('sha256').update(`${size}:`);
  const descriptor = openSync(path, 'r');
  try {
    const buffer = Buffer.alloc(Math.min(size, MAX_BYTES));
    const read = readSync(descriptor, buffer, 0, buffer.length, 0);
    hash.update(buffer.subarray(0, read));
  } finally {
    closeSync(descriptor);
  }
  return hash.digest('hex');
}

/** `path → digest` of every project file the command lines name, in a stable order. */
export function pinnedFiles(commands: readonly string[], root: string, base = root): Array<[string, string]> {
  const paths = new Set<string>();
  for (const command of commands) {
    for (const word of words(command, root)) {
      if (paths.size >= MAX_FILES) break;
      const path = resolve(base, word);
      if (!inside(root, path)) continue;
      paths.add(path);
    }
  }
  const pinned: Array<[string, string]> = [];
  for (const path of [...paths].sort()) {
    const stats = statSync(path, { throwIfNoEntry: false });
    if (!stats?.isFile()) continue;
    try {
      pinned.push([path, digestOf(path, stats.size)]);
    } catch (error) {
      pinned.push([path, `unreadable: ${(error as NodeJS.ErrnoException).code ?? 'error'}`]);
    }
  }
  return pinned;
}
