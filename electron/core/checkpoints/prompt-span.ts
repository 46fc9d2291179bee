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
import type { ShadowHistory, TreeEntry } from './shadow-history';
import type { Timeline } from './timeline';

type Files = Map<string, TreeEntry | undefined>;

function same(a: TreeEntry | undefined, b: TreeEntry | undefined): boolean {
  return a === undefined || b === undefined ? a === b : a.sha === b.sha && a.mode === b.mode;
}

const REGULAR = new Set(['100644', '100755']);

/** `current` with the change from `base` to `other` made to it; `current` as it was where that change does not apply. */
async function applied(repo: ShadowHistory, current: TreeEntry | undefined, base: TreeEntry | undefined, other: TreeEntry | undefined): Promise<TreeEntry | undefined> {
  if (same(current, base)) return other;
  if (same(current, other) || !current || !base || !other) return current;
  if (![current, base, other].every((entry) => REGULAR.has(entry.mode))) return current;
  const sha = await repo.merged(current.sha, base.sha, other.sha);
  return sha ? { mode: current.mode, sha } : current;
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
 * The two trees (or commits, where no revert touched that end) a prompt's change runs between
 * in `repo`'s root: `from` and `to` as its checkpoints recorded them, with the reverts recorded
 * after `afterSeq` (the seq of the checkpoint `to` came from) applied.
 */
export async function withReverts(repo: ShadowHistory, timeline: Timeline, span: { from: string; to: string }, afterSeq: number): Promise<{ from: string; to: string }> {
  const standing = standingReverts(timeline);
  const reverts = timeline.reverts.filter((revert) => standing.has(revert.seq) && revert.seq > afterSeq && revert.roots.some((entry) => entry.root === repo.root));
  if (reverts.length === 0 || span.from === span.to) return span;
  const touched = new Set(reverts.flatMap((revert) => [...pathsIn(repo.root, revert.paths)]));
  const paths = (await repo.changes(span.from, span.to)).map((change) => change.path).filter((path) => touched.has(path));
  if (paths.length === 0) return span;
  const ends: [Files, Files] = [filesOf(await repo.entries(span.from, paths), paths), filesOf(await repo.entries(span.to, paths), paths)];
  const original = ends.map((files) => new Map(files));
  for (const revert of reverts) {
    const { before, after } = revert.roots.find((entry) => entry.root === repo.root)!;
    const mine = paths.filter((path) => pathsIn(repo.root, revert.paths).has(path));
    // A revert whose commits are gone (a deleted shadow repository) cannot be replayed; the prompt shows what it recorded.
    if (mine.length === 0 || !(await repo.has(before)) || !(await repo.has(after))) continue;
    const [was, now] = await Promise.all([repo.entries(before, mine), repo.entries(after, mine)]);
    for (const files of ends) {
      for (const path of mine) files.set(path, await applied(repo, files.get(path), was.get(path), now.get(path)));
    }
  }
  const tree = async (commit: string, files: Files, start: Files) => ([...files].every(([path, entry]) => same(entry, start.get(path))) ? commit : repo.treeWith(commit, files));
  return { from: await tree(span.from, ends[0], original[0]!), to: await tree(span.to, ends[1], original[1]!) };
}
