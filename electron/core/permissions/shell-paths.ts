/**
 * The escape tier (SPEC §6): a bash command whose path-like words lead outside the workspace
 * roots is asked about even when a rule allows it. Words are resolved like the file tools'
 * sandbox resolves paths (symlinks followed, a missing tail through its nearest existing
 * parent), relative to the first root where bash runs, `~` and `$HOME` to the home folder.
 *
 * Decisions: `/dev/null`, `/dev/std{in,out,err}`, `/dev/tty`, `/dev/zero`, `/dev/{u,}random` and
 * `/dev/fd/N` are fine; `/tmp` is outside like any other folder. A variable other than `$HOME`
 * and `$PWD` at the start of a word, or after a `/`, is something we cannot tell, so it asks.
 */
import { normalize } from 'node:path';
import { isInside, realRoots, resolveInWorkspace } from '../tools/sandbox';
import type { PathCandidate } from './shell-analysis';

const DEVICES = /^\/dev\/(null|zero|random|urandom|tty|stdin|stdout|stderr|fd\/\d+)$/;
const VARIABLE = String.raw`\$\{?([A-Za-z_][A-Za-z0-9_]*|[0-9?$!#@*-])\}?`;
const LEADING_VARIABLE = new RegExp(`^${VARIABLE}`);
const VARIABLE_AFTER_SLASH = new RegExp(`/${VARIABLE}`);
const PARENT_SEGMENT = /(^|\/)\.\.(\/|$)/;

/** Where an absolute path really leads, or null when it cannot be resolved (a link loop). */
export function realPath(absolute: string): string | null {
  try {
    return resolveInWorkspace(absolute, ['/']).absolute;
  } catch {
    return null;
  }
}

export function escapeReasons(candidates: readonly PathCandidate[], roots: readonly string[], home: string): string[] {
  if (roots.length === 0) return candidates.length > 0 ? ['the session has no workspace folder, so every path is outside it'] : [];
  const real = realRoots(roots);
  const reasons = new Set<string>();
  for (const candidate of candidates) {
    const reason = judge(candidate, real, home);
    if (reason) reasons.add(reason);
  }
  return [...reasons];
}

function judge(candidate: PathCandidate, roots: readonly string[], home: string): string | null {
  const { text, shown } = candidate;
  if (DEVICES.test(text)) return null;
  const expanded = (name: string) => candidate.variables.includes(name);

  let absolute: string;
  const leading = LEADING_VARIABLE.exec(text);
  const afterSlash = VARIABLE_AFTER_SLASH.exec(text);
  if (leading && expanded(leading[1]!)) {
    const name = leading[1]!;
    const rest = text.slice(leading[0].length);
    if (name === 'HOME') absolute = home + rest;
    else if (name === 'PWD') absolute = roots[0]! + rest;
    else return `cannot tell where $${name} points (in ${shown})`;
  } else if (text === '~' || text.startsWith('~/')) {
    absolute = home + text.slice(1);
  } else if (/^~[^/]/.test(text)) {
    return `cannot tell where ${text.split('/')[0]} points (in ${shown})`;
  } else if (text.startsWith('/')) {
    absolute = text;
  } else {
    absolute = `${roots[0]}/${text}`;
  }
  if (afterSlash && expanded(afterSlash[1]!) && afterSlash[1] !== 'HOME' && afterSlash[1] !== 'PWD') {
    return `cannot tell where $${afterSlash[1]} points (in ${shown})`;
  }

  const resolved = realPath(absolute) ?? normalize(absolute);
  if (roots.some((root) => isInside(resolved, root))) return null;
  const relativeAndPlain = !text.startsWith('/') && !text.startsWith('~') && !text.startsWith('$') && !PARENT_SEGMENT.test(text);
  if (relativeAndPlain) return `${shown} leads outside the workspace through a symbolic link`;
  if (candidate.redirect) return `${shown} (redirected with ${candidate.redirect}) is outside the workspace`;
  return `${shown} is outside the workspace`;
}
