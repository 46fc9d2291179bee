/**
 * The paths a file tool's call touches, located the way the sandbox will resolve them: the
 * `path` argument (list_files and search default to the root), or every `[path#TAG]` section
 * header of a hashline patch. A symlink inside the workspace that points out is outside.
 */
import { isAbsolute, normalize, relative, sep } from 'node:path';
import { isInside, realRoots } from '../tools/sandbox';
import { PATH_TOOLS } from './rule-syntax';
import { realPath } from './shell-paths';

export interface CallPath {
  /** As the model gave it. */
  given: string;
  /** Where it really leads (symlinks followed). */
  real: string;
  /** Resolved without following symlinks. */
  lexical: string;
  /** The real root holding it, or null when it is outside every root. */
  root: string | null;
  /** From that root, `/`-separated; `.` for the root itself. */
  relative: string | null;
}

/** The section headers of a hashline patch: lines `[path#TAG]` that are not body lines. */
export function hashlinePaths(patch: string): string[] {
  const paths: string[] = [];
  for (const line of patch.split('\n')) {
    const trimmed = line.trim();
    if (trimmed.startsWith('|')) continue;
    const header = /^\[(.*)\]$/.exec(trimmed);
    if (!header) continue;
    const hash = header[1]!.lastIndexOf('#');
    const path = (hash < 0 ? header[1]! : header[1]!.slice(0, hash)).trim();
    if (path !== '' && !paths.includes(path)) paths.push(path);
  }
  return paths;
}

/** The paths the call names, or null for a tool that takes none. */
export function givenPaths(toolName: string, args: unknown): string[] | null {
  if (!PATH_TOOLS.has(toolName)) return null;
  const record = (args ?? {}) as Record<string, unknown>;
  if (toolName === 'hashline_edit') return typeof record.patch === 'string' ? hashlinePaths(record.patch) : [];
  if (typeof record.path === 'string' && record.path !== '') return [record.path];
  return toolName === 'list_files' || toolName === 'search' ? ['.'] : [];
}

export function locate(given: string, roots: readonly string[]): CallPath {
  const real = realRoots(roots);
  const absolute = isAbsolute(given) ? given : `${real[0] ?? '/'}/${given}`;
  const resolved = realPath(absolute) ?? normalize(absolute);
  const root = real.find((candidate) => isInside(resolved, candidate)) ?? null;
  return {
    given,
    real: resolved,
    lexical: normalize(absolute),
    root,
    relative: root === null ? null : relative(root, resolved).split(sep).join('/') || '.',
  };
}

export function callPaths(toolName: string, args: unknown, roots: readonly string[]): CallPath[] | null {
  return givenPaths(toolName, args)?.map((given) => locate(given, roots)) ?? null;
}
