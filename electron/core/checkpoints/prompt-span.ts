/**
 * Prompt N's change as the review pane's "By prompt" view, its "Revert hunk" and `cove sessions
 * --changes` see it: from the prompt's first checkpoint to the one its run left, with every
 * revert recorded after that run and not undone since applied to both ends, file by file, with
 * git's three-way merge. So a hunk reverted from either view is gone from the prompt's change
 * as it is from the whole session's, and an undone revert is back. Applied to both ends,
 * a revert of another prompt's hunk in the same file cancels out rather than being shown as
 * this prompt's.
 */
import { relative, sep } from 'node:path';
import type { RevertEvent } from '../../../shared/events';
import { GitError } from './git-runner';
import type { ShadowHistory, TreeEntry } from './shadow-history';
import type { Timeline } from './timeline';

type Files = Map<string, TreeEntry | undefined>;

function same(a: TreeEntry | undefined, b: TreeEntry | undefined): boolean {
  return a === undefined || b === undefined ? a === b : a.sha === b.sha && a.mode === b.mode;
}

const REGULAR = new Set(['100644', '100755']);

/**
 * `current` with the change from `base` to `other` made to it, where that needs no merge: the
 * entry it becomes, or null when git must merge the two texts. Where the change cannot apply
 * (a file missing on one side, a symlink), `current` stays as it is.
 */
function withoutMerge(current: TreeEntry | undefined, base: TreeEntry | undefined, other: TreeEntry | undefined): { entry: TreeEntry | undefined } | null {
  if (same(current, base)) return { entry: other };
  if (same(current, other) || !current || !base || !other) return { entry: current };
  if (![current, base, other].every((entry) => REGULAR.has(entry.mode))) return { entry: current };
  return null;
}

function filesOf(entries: ReadonlyMap<string, TreeEntry>, paths: readonly string[]): Files {
  return new Map(paths.map((path) => [path, entries.get(path)]));
}

/** The revert's paths inside `root`, as the shadow repository names them. */
function pathsIn(root: string, paths: readonly string[]): Set<string> {
  const prefix = root.endsWith(sep) ? root : root + sep;
  return new Set(paths.filter((path) => path.startsWith(prefix)).map((path) => relative(root, path).split(sep).join('/')));
}

/**
 * The seqs of the reverts whose effect stands: a revert and the undo of it cancel out (the undo
 * put the files back as they were before it), unless that undo was itself undone. Replaying the
 * undo instead would add the hunk to the prompt's start as well as its end.
 */
function standingReverts(timeline: Timeline): Set<number> {
  const standing = new Set(timeline.reverts.map((revert) => revert.seq));
  for (const revert of [...timeline.reverts].reverse()) {
    if (!standing.has(revert.seq) || revert.undoes === undefined) continue;
    standing.delete(revert.seq);
    standing.delete(revert.undoes);
  }
  return standing;
}

/**
 * Whether a revert can have taken back part of prompt N's change. A hunk of prompt P's change
 * is put back only where the lines still stand as P left them, so it touches P's change alone;
 * a hunk of the whole session's may hold any prompt's lines; a file put back to before prompt P
 * undoes every prompt from P on.
 */
function reaches(revert: RevertEvent, prompt: number): boolean {
  if (revert.prompt === undefined) return true;
  return revert.scope === 'hunk' ? revert.prompt === prompt : prompt >= revert.prompt;
}

/**
 * The two trees (or commits, where no revert touched that end) a prompt's change runs between
 * in `repo`'s root: `from` and `to` as its checkpoints recorded them, with the reverts recorded
 * after `end.seq` (the seq of the checkpoint `to` came from) that reach prompt `end.prompt` applied.
 */
export async function withReverts(repo: ShadowHistory, timeline: Timeline, span: { from: string; to: string }, end: { prompt: number; seq: number }): Promise<{ from: string; to: string }> {
  const standing = standingReverts(timeline);
  const reverts = timeline.reverts.filter(
    (revert) => standing.has(revert.seq) && revert.seq > end.seq && reaches(revert, end.prompt) && revert.roots.some((entry) => entry.root === repo.root),
  );
  if (reverts.length === 0 || span.from === span.to) return span;
  const touched = new Set(reverts.flatMap((revert) => [...pathsIn(repo.root, revert.paths)]));
  const paths = (await repo.changes(span.from, span.to)).map((change) => change.path).filter((path) => touched.has(path));
  if (paths.length === 0) return span;
  const ends: [Files, Files] = [filesOf(await repo.entries(span.from, paths), paths), filesOf(await repo.entries(span.to, paths), paths)];
  const original = ends.map((files) => new Map(files));
  for (const revert of reverts) {
    const { before, after } = revert.roots.find((entry) => entry.root === repo.root)!;
    const mine = paths.filter((path) => pathsIn(repo.root, revert.paths).has(path));
    if (mine.length === 0) continue;
    let was: Map<string, TreeEntry>;
    let now: Map<string, TreeEntry>;
    try {
      [was, now] = await Promise.all([repo.entries(before, mine), repo.entries(after, mine)]);
    } catch (error) {
      // A revert whose commits are gone (a deleted shadow repository) cannot be replayed; the prompt shows what it recorded.
      if (error instanceof GitError) continue;
      throw error;
    }
    for (const path of mine) {
      const base = was.get(path);
      const other = now.get(path);
      const pending: Array<{ files: Files; current: TreeEntry }> = [];
      for (const files of ends) {
        const current = files.get(path);
        const decided = withoutMerge(current, base, other);
        if (decided) files.set(path, decided.entry);
        else pending.push({ files, current: current! });
      }
      if (pending.length === 0) continue;
      // One merge per distinct text (an earlier revert may have left both ends alike).
      const currents = [...new Set(pending.map((entry) => entry.current.sha))];
      const merged = await repo.merged(currents, base!.sha, other!.sha);
      for (const { files, current } of pending) {
        const sha = merged[currents.indexOf(current.sha)];
        files.set(path, sha ? { mode: current.mode, sha } : current);
      }
    }
  }
  const tree = async (commit: string, files: Files, start: Files) => ([...files].every(([path, entry]) => same(entry, start.get(path))) ? commit : repo.treeWith(commit, files));
  return { from: await tree(span.from, ends[0], original[0]!), to: await tree(span.to, ends[1], original[1]!) };
}
