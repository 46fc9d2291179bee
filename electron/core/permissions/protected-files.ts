/**
 * Protected files (SPEC §6): the files that decide what runs next, so a write to them is a
 * write to the next command. A write there by any tool asks in every mode unless an allow rule
 * names the path, and is denied in bypass. A write to a folder holding one (`rm -rf .git`,
 * `tar -x` into the workspace root) counts as a write to it.
 */
import { basename, relative, sep } from 'node:path';

/** Relative to each workspace root. The bash sandbox holds the same list read-only (bash-sandbox/policy.ts). */
export const PROTECTED_IN_ROOT: readonly string[] = ['.git/config', '.git/hooks', '.cove', '.claude', '.mcp.json', '.gitmodules', '.npmrc', '.envrc'];
/** Anywhere in the workspace: nested packages and repositories read their own. */
const BY_NAME = new Set(['.npmrc', '.envrc', '.gitmodules', '.mcp.json']);
/**
 * Relative to the home folder: what a shell runs at start. The bash sandbox holds each of them
 * read-only (bash-sandbox/policy.ts), and fish's whole folder (SHELL_STARTUP_FOLDERS).
 */
export const SHELL_STARTUP_FILES = [
  '.bashrc',
  '.bash_profile',
  '.bash_login',
  '.bash_logout',
  '.profile',
  '.zshrc',
  '.zshenv',
  '.zprofile',
  '.zlogin',
  '.zlogout',
  '.config/fish/config.fish',
] as const;
/** Relative to the home folder: folders a shell reads whole at start (fish's conf.d and functions). */
export const SHELL_STARTUP_FOLDERS = ['.config/fish'] as const;
/** Relative to the home folder: Cove's and Claude Code's settings, and what a shell runs at start. */
const IN_HOME = ['.cove', '.claude', '.claude.json', '.npmrc', '.gitconfig', '.config/git', ...SHELL_STARTUP_FOLDERS, ...SHELL_STARTUP_FILES, '.inputrc', '.envrc'];

function within(path: string, folder: string): string | null {
  const from = relative(folder, path);
  if (from === '' || (!from.startsWith('..') && !from.startsWith(sep) && from !== '..')) return from === '' ? '.' : from.split(sep).join('/');
  return null;
}

/** The protected location a write to `path` (absolute) changes, for messages; null when none. */
export function protectedLocation(path: string, roots: readonly string[], home: string): string | null {
  const check = (base: string, names: readonly string[], shown: (name: string) => string) => {
    const inside = within(path, base);
    if (inside === null) return null;
    for (const name of names) {
      if (inside === name || inside.startsWith(`${name}/`)) return shown(name);
      // A folder that holds the protected file: deleting or moving it changes the file too.
      if (inside === '.' || name.startsWith(`${inside}/`)) return shown(name);
    }
    return null;
  };
  for (const root of roots) {
    const found = check(root, PROTECTED_IN_ROOT, (name) => name);
    if (found) return found;
    const inside = within(path, root);
    if (inside !== null) {
      const segments = inside.split('/');
      if (BY_NAME.has(basename(path))) return inside;
      const git = segments.indexOf('.git');
      if (git >= 0 && (segments[git + 1] === 'config' || segments[git + 1] === 'hooks' || segments.length === git + 1)) return inside;
    }
  }
  return check(home, IN_HOME, (name) => `~/${name}`);
}
