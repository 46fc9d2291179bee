/**
 * Protected files that do not exist yet must not be creatable inside the sandbox. A bind mount
 * needs something to mount on, so for each missing one an empty placeholder (a file, or a folder
 * for `.cove`, `.claude`, `.git/hooks`, or the first missing folder on the way) is created on
 * the host, bound read-only onto itself for the command, and removed afterwards if it is still
 * empty. Placeholders are counted, so parallel commands share one and the last one removes it:
 * removing a mount point from outside would detach the mount inside a running sandbox.
 * When the nearest existing part of the path is a file (a worktree's `.git` file), that file is
 * held instead, so it cannot be swapped for a folder holding a new config. The folders between a
 * writable folder and a held path (`.git` for `.git/config`) are bound onto themselves too: a
 * mount point cannot be renamed or removed, so `mv .git x && mkdir .git` cannot dodge the hold.
 */
import { lstatSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, realpathSync, rmdirSync, rmSync, statSync, unlinkSync, writeFileSync } from 'node:fs';
import { createHash } from 'node:crypto';
import { tmpdir } from 'node:os';
import { basename, dirname, join, relative, sep } from 'node:path';
import { linkedGitFolder, type ProtectedPath, type SandboxPolicy } from './policy';

export class SandboxSetupError extends Error {}

interface Placeholder {
  users: number;
  folder: boolean;
}

const made = new Map<string, Placeholder>();

export interface Holds {
  /** Folders to bind (writable) onto themselves so they cannot be renamed away. */
  anchors: string[];
  /** Paths to bind read-only onto themselves, in order. */
  paths: string[];
  /** Files shown in place of others, read-only: a repository's exclude list naming the placeholders. */
  covers: Array<{ source: string; target: string }>;
  release(): void;
}

function kind(path: string): 'missing' | 'folder' | 'file' | 'link' {
  try {
    const stats = lstatSync(path);
    if (stats.isSymbolicLink()) return 'link';
    return stats.isDirectory() ? 'folder' : 'file';
  } catch {
    return 'missing';
  }
}

/** The path to hold for one protected path, creating a placeholder when needed; undefined when none is needed. */
function holdFor(entry: ProtectedPath, writable: readonly string[], created: string[], placeholders: boolean): string | undefined {
  // Another command's placeholder on the way: share it, so its release cannot pull it from under us.
  const shared = [...made.keys()].find((path) => entry.path === path || entry.path.startsWith(path + sep));
  if (shared !== undefined && placeholders && share(shared, created)) return shared;
  const state = kind(entry.path);
  if (state === 'file' || state === 'folder') return entry.path;
  if (state === 'link') {
    try {
      return realpathSync.native(entry.path);
    } catch {
      throw new SandboxSetupError(`the protected path ${entry.path} is a symbolic link to something missing, so it cannot be held read-only; remove the link`);
    }
  }
  const base = writable.find((folder) => entry.path.startsWith(folder + sep)) ?? dirname(entry.path);
  const parts = relative(base, entry.path).split(sep);
  let current = base;
  for (const [index, part] of parts.entries()) {
    const next = join(current, part);
    const nextKind = kind(next);
    if (nextKind === 'missing') {
      const folder = index < parts.length - 1 || entry.folder;
      if (!placeholders) return undefined;
      return createPlaceholder(next, folder, created) ? next : undefined;
    }
    if (nextKind === 'file') return next;
    current = nextKind === 'link' ? realpathSync.native(next) : next;
  }
  return entry.path;
}

function share(path: string, created: string[]): boolean {
  const known = made.get(path);
  if (!known) return false;
  known.users++;
  created.push(path);
  return true;
}

function createPlaceholder(path: string, folder: boolean, created: string[]): boolean {
  if (share(path, created)) return true;
  try {
    if (folder) mkdirSync(path);
    else writeFileSync(path, '', { flag: 'wx' });
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    // Someone else made it meanwhile: hold what is there now.
    if (code === 'EEXIST') return true;
    // We cannot create it, and the sandboxed command runs as us: it cannot either.
    if (code === 'EACCES' || code === 'EPERM' || code === 'EROFS') return false;
    throw new SandboxSetupError(`could not prepare the protected path ${path} (${(error as Error).message})`);
  }
  made.set(path, { users: 1, folder });
  created.push(path);
  return true;
}

function removePlaceholder(path: string): void {
  const known = made.get(path);
  if (!known) return;
  known.users--;
  if (known.users > 0) return;
  made.delete(path);
  try {
    if (known.folder) {
      if (readdirSync(path).length === 0) rmdirSync(path);
    } else if (statSync(path).size === 0) {
      unlinkSync(path);
    }
  } catch {
    // Gone already, or changed by someone outside the sandbox: theirs now, left as it is.
  }
}

/**
 * `placeholders: false` holds only what exists, for a caller that cannot say when its command
 * ends (and so could never remove them): a missing protected file stays creatable there.
 */
export function acquireHolds(policy: SandboxPolicy, options: { placeholders?: boolean } = {}): Holds {
  const created: string[] = [];
  const paths: string[] = [];
  try {
    for (const entry of policy.protectedPaths) {
      const path = holdFor(entry, policy.writable, created, options.placeholders ?? true);
      if (path !== undefined && !paths.includes(path)) paths.push(path);
    }
  } catch (error) {
    [...created].reverse().forEach(removePlaceholder);
    throw error;
  }
  const anchors: string[] = [];
  for (const path of paths) {
    const base = policy.writable.find((folder) => path.startsWith(folder + sep));
    if (!base) continue;
    for (let folder = dirname(path); folder.startsWith(base + sep); folder = dirname(folder)) {
      if (!anchors.includes(folder) && !paths.includes(folder)) anchors.unshift(folder);
    }
  }
  let covers: Array<{ source: string; target: string }>;
  try {
    covers = options.placeholders === false ? [] : excludeCovers(paths, created);
  } catch (error) {
    [...created].reverse().forEach(removePlaceholder);
    throw error;
  }
  let released = false;
  return {
    anchors,
    paths,
    covers,
    release: () => {
      if (released) return;
      released = true;
      [...created].reverse().forEach(removePlaceholder);
    },
  };
}

/** The exclude lists written so far, by content: one file each for the process's lifetime. */
const excludeFiles = new Map<string, string>();
let excludeFolder: string | undefined;

function excludeFile(text: string): string {
  const known = excludeFiles.get(text);
  if (known && kind(known) === 'file') return known;
  if (!excludeFolder || kind(excludeFolder) !== 'folder') {
    const folder = mkdtempSync(join(tmpdir(), 'cove-exclude-'));
    excludeFolder = folder;
    process.once('exit', () => rmSync(folder, { recursive: true, force: true }));
  }
  const path = join(excludeFolder, `exclude-${createHash('sha256').update(text).digest('hex').slice(0, 16)}`);
  writeFileSync(path, text);
  excludeFiles.set(text, path);
  return path;
}

/**
 * Empty placeholder files would show up in `git status`, and `git add -A` would commit them.
 * Inside the sandbox, each repository's `.git/info/exclude` is replaced by a copy that also lists
 * them, so git ignores them while the command runs; the real file is never changed.
 */
function excludeCovers(paths: readonly string[], created: string[]): Array<{ source: string; target: string }> {
  const byRepository = new Map<string, string[]>();
  for (const path of paths) {
    if (made.get(path)?.folder !== false) continue;
    const folder = dirname(path);
    const dotGit = join(folder, '.git');
    // Our own empty placeholder is no repository: no git reads its exclude list, so there is
    // nothing to hide from, and no `.git/info` placeholder, exclude file or bind is made for it.
    if (made.has(dotGit)) continue;
    // A worktree's git reads the exclude list of the common git folder.
    const gitFolder = kind(dotGit) === 'folder' ? dotGit : linkedGitFolder(folder)?.common;
    if (!gitFolder) continue;
    byRepository.set(gitFolder, [...(byRepository.get(gitFolder) ?? []), basename(path)]);
  }
  const covers: Array<{ source: string; target: string }> = [];
  for (const [gitFolder, names] of byRepository) {
    const info = join(gitFolder, 'info');
    if (!share(info, created) && kind(info) === 'missing' && !createPlaceholder(info, true, created)) continue;
    const target = join(info, 'exclude');
    let original = '';
    if (!share(target, created)) {
      try {
        original = readFileSync(target, 'utf8');
      } catch {
        if (!createPlaceholder(target, false, created)) continue;
      }
    }
    const lines = names.map((name) => `/${name.replace(/([*?[\\!#])/g, '\\$1')}`);
    const text = `${original.replace(/\n?$/, '\n')}# Cove's sandbox: empty placeholders of protected files, only while a command runs\n${lines.join('\n')}\n`;
    covers.push({ source: excludeFile(text), target });
  }
  return covers;
}
