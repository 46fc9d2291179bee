/**
 * The workspace sandbox for file tools. A path is judged by where it really leads, resolved the
 * way the operating system would: `..` after a symlink climbs from the link's target, links are
 * followed even when their target does not exist (a dangling link can still be written through),
 * and the part of a path that does not exist yet is resolved through its nearest existing parent.
 * Refusals name the path as the model gave it and never the roots, since they reach the transcript.
 */
import { lstatSync, readlinkSync, realpathSync } from 'node:fs';
import { dirname, isAbsolute, join, parse, relative, resolve, sep } from 'node:path';
import { ToolError } from '../agent/types';
import { isInsideWindows, windowsPathProblem } from './windows-paths';

export interface WorkspacePath {
  /** The real absolute path (symlinks resolved as far as the path exists). */
  absolute: string;
  /** From the matching root, `/`-separated; `.` for the root itself. */
  relative: string;
  /** The real root that contains it. */
  root: string;
  /**
   * How to show the path to the model so that giving it back leads to the same file: relative
   * when it is under the first root (paths are relative to it), absolute otherwise.
   */
  display: string;
  exists: boolean;
}

export interface ResolveOptions {
  /** Throw `notFound` when nothing exists at the path. */
  mustExist?: boolean;
}

/** Linux gives up after 40 links (ELOOP); so do we, which also ends link cycles. */
const MAX_LINKS = 40;

const SEPARATORS = process.platform === 'win32' ? /[\\/]+/ : /\/+/;

/** The roots as real paths; a root that does not exist (yet) is taken as written. */
export function realRoots(roots: readonly string[]): string[] {
  return roots.map((root) => {
    try {
      return realpathSync.native(root);
    } catch {
      return resolve(root);
    }
  });
}

interface RootIdentity {
  real: string;
  /** Undefined when the root did not exist when it was first seen. */
  id?: { dev: number; ino: number };
}

/**
 * The identity (real path, device and inode) of each root as first seen for this list of roots
 * (a session keeps one list for its life). A root replaced later, by a link to elsewhere or by
 * another folder, is refused rather than followed.
 */
const pinned = new WeakMap<readonly string[], RootIdentity[]>();

function identityOf(root: string): RootIdentity {
  try {
    const real = realpathSync.native(root);
    const stats = lstatSync(real);
    return { real, id: { dev: stats.dev, ino: stats.ino } };
  } catch {
    return { real: resolve(root) };
  }
}

/** Pins the roots' identity now (at session start); later checks compare against it. */
export function pinRoots(roots: readonly string[]): void {
  if (!pinned.has(roots)) pinned.set(roots, roots.map(identityOf));
}

/** The pinned real roots, after checking that none was replaced since it was pinned. */
export function pinnedRoots(roots: readonly string[]): string[] {
  const first = pinned.get(roots);
  const now = roots.map(identityOf);
  if (!first) {
    pinned.set(roots, now);
    return now.map((root) => root.real);
  }
  for (let index = 0; index < first.length; index++) {
    const was = first[index]!;
    const is = now[index]!;
    if (was.id && (is.real !== was.real || !is.id || is.id.dev !== was.id.dev || is.id.ino !== was.id.ino)) {
      throw ToolError.failed(
        'the workspace folder was replaced after the session started (it is now another folder or a link); file tools refuse to follow it: start a new session to work there',
      );
    }
  }
  return first.map((root, index) => (root.id ? root.real : now[index]!.real));
}

export function isInside(path: string, root: string): boolean {
  if (process.platform === 'win32') return isInsideWindows(path, root);
  if (path === root) return true;
  return path.startsWith(root.endsWith(sep) ? root : root + sep);
}

function errorCode(error: unknown): string | undefined {
  return (error as NodeJS.ErrnoException | undefined)?.code;
}

/**
 * Follows `components` from the real directory `start` like path lookup does, returning the real
 * path and whether it exists. Below a missing component names are joined lexically (nothing
 * there can be a symlink) until `..` climbs back above it, where lookup resumes: otherwise
 * `missing/../link-to-outside` would slip through unresolved.
 */
function lookup(start: string, components: string[], given: string): { path: string; exists: boolean } {
  const pending = components.slice().reverse();
  let current = start;
  /** How many trailing components of `current` do not exist. */
  let missing = 0;
  let links = 0;
  while (pending.length > 0) {
    const component = pending.pop()!;
    if (component === '' || component === '.') continue;
    if (component === '..') {
      current = dirname(current);
      if (missing > 0) missing--;
      continue;
    }
    const candidate = join(current, component);
    if (missing > 0) {
      missing++;
      current = candidate;
      continue;
    }
    let isLink: boolean;
    try {
      isLink = lstatSync(candidate).isSymbolicLink();
    } catch (error) {
      // ENOENT, ENOTDIR, EACCES: the OS cannot go further either, so nothing beyond can redirect.
      if (errorCode(error) !== 'ENOENT' && errorCode(error) !== 'ENOTDIR' && errorCode(error) !== 'EACCES') throw error;
      missing = 1;
      current = candidate;
      continue;
    }
    if (!isLink) {
      current = candidate;
      continue;
    }
    if (++links > MAX_LINKS) throw ToolError.failed(`${given} has too many levels of symbolic links`);
    const target = readlinkSync(candidate);
    if (isAbsolute(target)) current = parse(target).root;
    pending.push(...target.split(SEPARATORS).reverse());
  }
  return { path: current, exists: missing === 0 };
}

function realLocation(given: string, firstRoot: string): { path: string; exists: boolean } {
  const start = isAbsolute(given) ? parse(given).root : firstRoot;
  // Fast path: an existing path resolved by the OS itself. The string is joined, not normalized,
  // so `link/..` keeps its meaning (the parent of the link's target).
  const raw = isAbsolute(given) ? given : firstRoot + sep + given;
  try {
    return { path: realpathSync.native(raw), exists: true };
  } catch (error) {
    const code = errorCode(error);
    if (code !== 'ENOENT' && code !== 'ENOTDIR' && code !== 'EACCES') {
      if (code === 'ELOOP') throw ToolError.failed(`${given} has too many levels of symbolic links`);
      throw error;
    }
  }
  const rest = isAbsolute(given) ? given.slice(start.length) : given;
  return lookup(start, rest.split(SEPARATORS), given);
}

function toDisplay(absolute: string, roots: readonly string[]): { root: string; relative: string; display: string } | undefined {
  for (let i = 0; i < roots.length; i++) {
    const root = roots[i]!;
    if (!isInside(absolute, root)) continue;
    const fromRoot = relative(root, absolute).split(sep).join('/') || '.';
    return { root, relative: fromRoot, display: i === 0 ? fromRoot : absolute };
  }
  return undefined;
}

/**
 * Resolves a path a tool was given (relative to the first root unless absolute) and checks that
 * it really lies inside one of the workspace roots.
 */
export function resolveInWorkspace(path: string, roots: readonly string[], options: ResolveOptions = {}): WorkspacePath {
  if (path.trim() === '') throw ToolError.invalidArgs('path is empty; give a path relative to the workspace root');
  if (path.includes('\0')) throw ToolError.invalidArgs(`path ${JSON.stringify(path)} contains a NUL character`);
  const windowsProblem = process.platform === 'win32' ? windowsPathProblem(path) : null;
  if (windowsProblem) throw ToolError.invalidArgs(windowsProblem);
  if (roots.length === 0) throw ToolError.failed(`${path} is outside the workspace (the session has no workspace folder)`);
  const real = pinnedRoots(roots);
  let location: { path: string; exists: boolean };
  try {
    location = realLocation(path, real[0]!);
  } catch (error) {
    // The system's message holds the full path, root included; only its code is kept.
    if (error instanceof ToolError) throw error;
    const code = errorCode(error);
    const shown = path.length > 200 ? `${path.slice(0, 200)}…` : path;
    if (code === 'ENAMETOOLONG') throw ToolError.invalidArgs(`${shown} is too long a path (ENAMETOOLONG)`);
    throw ToolError.failed(`${shown} cannot be resolved${code ? ` (${code})` : ''}`);
  }
  const place = toDisplay(location.path, real);
  if (!place) throw ToolError.failed(`${path} is outside the workspace`);
  if (options.mustExist && !location.exists) throw ToolError.notFound(`${path} does not exist`);
  return { absolute: location.path, exists: location.exists, ...place };
}

/** The display form (see `WorkspacePath.display`) of a real path found by walking a root. */
export function displayPath(absolute: string, roots: readonly string[]): string {
  return toDisplay(absolute, roots)?.display ?? absolute;
}
