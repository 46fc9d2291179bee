/**
 * The escape tier and the writes of a bash command (SPEC §6). Path words are expanded first
 * (`shell-expand.ts`), then resolved like the file tools' sandbox resolves paths (symlinks
 * followed, a missing tail through its nearest existing parent), relative to the first root where
 * bash runs. A path word leading outside the roots is asked about even when a rule allows the
 * command; a word that cannot be expanded for certain is asked about too.
 *
 * Decisions: `/dev/null`, `/dev/std{in,out,err}`, `/dev/tty`, `/dev/zero`, `/dev/{u,}random` and
 * `/dev/fd/N` are neither outside nor writes; `/tmp` is outside like any other folder. An
 * argument that is not known to be a path and whose first folder does not exist (`'/needle/p'`)
 * is not called outside the workspace: it names nothing there.
 */
import { existsSync } from 'node:fs';
import { normalize, resolve, sep } from 'node:path';
import { isInside, realRoots, resolveInWorkspace } from '../tools/sandbox';
import { protectedLocation } from './protected-files';
import type { PathCandidate, WriteCandidate } from './shell-analysis';
import { expandWord } from './shell-expand';
import type { Word } from './shell-words';

const DEVICES = /^\/dev\/(null|zero|random|urandom|tty|stdin|stdout|stderr|fd\/\d+)$/;

/** Where an absolute path really leads, or null when it cannot be resolved (a link loop). */
export function realPath(absolute: string): string | null {
  try {
    return resolveInWorkspace(absolute, ['/']).absolute;
  } catch {
    return null;
  }
}

interface Expanded {
  /** Absolute, lexically normalized. */
  lexical: string;
  /** Symlinks followed. */
  real: string;
  text: string;
}

type Loops = ReadonlyMap<string, readonly Word[]>;

function expandPaths(word: Word, skip: number, cwd: string, home: string, loops?: Loops): Expanded[] | string {
  const expansion = expandWord(word, { home, cwd, loops });
  if ('unknown' in expansion) return expansion.unknown;
  return expansion.values.map((value) => {
    const text = value.slice(skip);
    const lexical = normalize(resolve(cwd, text === '' ? '.' : text));
    return { text, lexical, real: realPath(lexical) ?? lexical };
  });
}

const shownOf = (word: Word, text: string) => (word.raw === text ? `\`${word.raw}\`` : `\`${word.raw}\` (${text})`);

export function escapeReasons(candidates: readonly PathCandidate[], roots: readonly string[], home: string, loops?: Loops): string[] {
  if (roots.length === 0) return candidates.length > 0 ? ['the session has no workspace folder, so every path is outside it'] : [];
  const real = realRoots(roots);
  const reasons = new Set<string>();
  for (const candidate of candidates) {
    const paths = expandPaths(candidate.word, candidate.skip, real[0]!, home, loops);
    if (typeof paths === 'string') {
      reasons.add(paths);
      continue;
    }
    for (const path of paths) {
      const reason = judge(candidate, path, real);
      if (reason) reasons.add(reason);
    }
  }
  return [...reasons];
}

function judge(candidate: PathCandidate, path: Expanded, roots: readonly string[]): string | null {
  if (DEVICES.test(path.lexical)) return null;
  if (roots.some((root) => isInside(path.real, root))) return null;
  if (!candidate.known) {
    const first = path.lexical.split(sep).filter(Boolean)[0];
    if (first !== undefined && !existsSync(`${sep}${first}`)) return null;
  }
  const shown = shownOf(candidate.word, path.text);
  const plain = !/^[/~$]/.test(candidate.word.value.slice(candidate.skip)) && !/(^|\/)\.\.(\/|$)/.test(path.text);
  if (plain && roots.some((root) => isInside(path.lexical, root))) return `${shown} leads outside the workspace through a symbolic link`;
  if (candidate.redirect) return `${shown} (redirected with ${candidate.redirect}) is outside the workspace`;
  return `${shown} is outside the workspace`;
}

export interface JudgedWrite {
  by: string;
  shown: string;
  /** Absolute real paths; empty when `unknown`. */
  paths: Array<{ lexical: string; real: string }>;
  unknown: string | null;
  /** The protected location it changes, if any. */
  protects: string | null;
  inside: boolean;
}

export function judgeWrites(writes: readonly WriteCandidate[], roots: readonly string[], home: string, directories: readonly Word[] = [], loops?: Loops): JudgedWrite[] {
  const real = realRoots(roots);
  const cwd = real[0] ?? '/';
  // After `cd x`, a relative write lands under x: judge it from every folder the command may be in.
  const bases = [cwd];
  for (const directory of directories) {
    const found = expandPaths(directory, 0, cwd, home, loops);
    if (typeof found !== 'string') bases.push(...found.map((path) => path.real));
  }
  const judged: JudgedWrite[] = [];
  for (const write of writes) {
    const fromEvery = (expand: (base: string) => Expanded[] | string) => {
      const all: Expanded[] = [];
      for (const base of bases) {
        const found = expand(base);
        if (typeof found === 'string') return found;
        all.push(...found);
      }
      return all;
    };
    const expanded = write.word ? fromEvery((base) => expandPaths(write.word!, write.skip, base, home, loops)) : fromEvery((base) => [{ text: '.', lexical: base, real: base }]);
    const shown = write.word ? `\`${write.word.raw}\`` : 'the folder it runs in';
    if (typeof expanded === 'string') {
      judged.push({ by: write.by, shown, paths: [], unknown: expanded, protects: null, inside: false });
      continue;
    }
    const paths = expanded.filter((path) => !DEVICES.test(path.lexical));
    if (paths.length === 0) continue;
    const protects = paths.map((path) => protectedLocation(path.real, real, home) ?? protectedLocation(path.lexical, roots, home)).find((found) => found !== null) ?? null;
    const inside = paths.every((path) => real.some((root) => isInside(path.real, root)));
    judged.push({ by: write.by, shown, paths: paths.map(({ lexical, real: resolved }) => ({ lexical, real: resolved })), unknown: null, protects, inside });
  }
  return judged;
}
