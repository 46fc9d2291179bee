/**
 * Rewind: puts a session's workspace back as it was before prompt N. The plan compares three
 * states of each root: the target checkpoint (T), the workspace now (C, recorded first, so the
 * rewind itself can be undone) and the last state Cove recorded (L). What differs between T
 * and C is put back; what differs between L and C was changed by hand since, and is not
 * overwritten unless forced. A file that exists now but not in T is removed only when some
 * checkpoint of the session knows it: a rewind never deletes a file no checkpoint knows. Empty
 * folders, which git does not keep, come from each checkpoint's list of them and follow the
 * same rules: one the target had is made again, one made since is removed when a checkpoint knows it.
 */
import { lstatSync, mkdirSync, readdirSync, renameSync, rmdirSync, symlinkSync, unlinkSync, writeFileSync, chmodSync } from 'node:fs';
import { dirname, join, sep } from 'node:path';
import { isFolder } from './empty-folders';
import { ShadowRepo, type TreeEntry } from './shadow-repo';
import { checkpointBefore, commitOf, latestKnown, type Timeline, type TimelineCheckpoint } from './timeline';

/** A folder action's path ends in `/`. */
export type RewindAction = { kind: 'revert' | 'restore'; path: string; entry: TreeEntry } | { kind: 'remove'; path: string } | { kind: 'restore' | 'remove'; path: string; folder: true };

type FileWrite = Extract<RewindAction, { entry: TreeEntry }>;

export interface RootPlan {
  root: string;
  repo: ShadowRepo;
  /** The workspace as it was when the rewind was planned. */
  before: string;
  actions: RewindAction[];
  /** The target's empty folders (absolute, no trailing `/`): never pruned when the files around them go. */
  emptyFolders: string[];
}

export interface RewindPlan {
  toPrompt: number;
  checkpoint: TimelineCheckpoint;
  roots: RootPlan[];
  /** Absolute paths changed by hand since the last checkpoint that the rewind would overwrite. */
  conflicts: string[];
  /** Absolute paths left as they are, each with why. */
  kept: string[];
}

export class RewindError extends Error {}

function isInside(parent: string, path: string): boolean {
  return path === parent || path.startsWith(parent.endsWith(sep) ? parent : parent + sep);
}

/** Which of `paths` appear in any of the commits. */
async function knownTo(repo: ShadowRepo, commits: readonly string[], paths: readonly string[]): Promise<Set<string>> {
  const known = new Set<string>();
  for (const commit of commits) {
    const missing = paths.filter((path) => !known.has(path));
    if (missing.length === 0) break;
    for (const path of (await repo.entries(commit, missing)).keys()) known.add(path);
  }
  return known;
}

export interface RewindInput {
  coveHome: string;
  workspaceRoots: readonly string[];
  timeline: Timeline;
  toPrompt: number;
  sizeCap?: number;
  force?: boolean;
  /** Absolute paths: only these are put back (the review pane's "Revert file"); all when absent. */
  only?: readonly string[];
}

export async function planRewind(input: RewindInput): Promise<RewindPlan> {
  const { timeline, toPrompt } = input;
  if (!Number.isInteger(toPrompt) || toPrompt < 1 || toPrompt > timeline.prompts.length) {
    throw new RewindError(`there is no prompt ${toPrompt} in this session (it has ${timeline.prompts.length})`);
  }
  const checkpoint = checkpointBefore(timeline, toPrompt);
  if (!checkpoint) throw new RewindError(`prompt ${toPrompt} and the prompts after it changed nothing that a checkpoint recorded; there is nothing to rewind`);
  const plan: RewindPlan = { toPrompt, checkpoint, roots: [], conflicts: [], kept: [] };
  for (const root of input.workspaceRoots) {
    const target = commitOf(checkpoint, root);
    const repo = new ShadowRepo(input.coveHome, root, input.sizeCap);
    if (!target) {
      plan.kept.push(`${root}: not recorded by that checkpoint (${checkpoint.problems.find((problem) => problem.startsWith(root)) ?? 'no reason stored'}); left as it is`);
      continue;
    }
    if (!(await repo.has(target)))
      throw new RewindError(`the checkpoint repository of ${root} no longer holds checkpoint ${checkpoint.checkpointId} (was ${repo.gitDir} deleted?); nothing was changed`);
    const latest = latestKnown(timeline, root);
    const nowSnapshot = await repo.snapshot(`before a rewind to prompt ${toPrompt}`);
    const now = nowSnapshot.commit;
    const only = input.only ? new Set(input.only) : undefined;
    const changes = (await repo.changes(target, now)).filter((change) => !only || only.has(join(root, change.path)));
    const byHand = new Set(latest && (await repo.has(latest)) ? (await repo.changes(latest, now)).map((change) => change.path) : []);
    const targetEntries = await repo.entries(
      target,
      changes.map((change) => change.path),
    );
    const added = changes.filter((change) => !targetEntries.has(change.path)).map((change) => change.path);
    const later = timeline.checkpoints.filter((entry) => entry.seq > checkpoint.seq).flatMap((entry) => commitOf(entry, root) ?? []);
    const known = await knownTo(repo, [...new Set([...(latest ? [latest] : []), ...later])], added);
    const largeNow = new Set(await repo.largeAt(now));
    const actions: RewindAction[] = [];
    for (const change of changes) {
      const absolute = join(root, change.path);
      const entry = targetEntries.get(change.path);
      if (largeNow.has(change.path) && !input.force) {
        plan.kept.push(`${absolute}: over the size cap now, so its current content is in no checkpoint (--force puts back the old one)`);
        continue;
      }
      if (!entry && !known.has(change.path)) {
        plan.kept.push(`${absolute}: no checkpoint knows it; left as it is`);
        continue;
      }
      if (byHand.has(change.path)) plan.conflicts.push(absolute);
      if (entry?.mode === '160000') {
        plan.kept.push(`${absolute}: a nested repository; left as it is`);
        continue;
      }
      actions.push(entry ? { kind: change.status === 'D' ? 'restore' : 'revert', path: change.path, entry } : { kind: 'remove', path: change.path });
    }
    for (const path of await repo.largeAt(target)) {
      if (!targetEntries.has(path)) plan.kept.push(`${join(root, path)}: was over the size cap at that checkpoint, so it cannot be put back`);
    }
    const targetEmpty = await repo.emptyFoldersAt(target);
    if (!only) actions.push(...(await folderActions(repo, target, targetEmpty, nowSnapshot.emptyFolders, [...new Set([...(latest ? [latest] : []), ...later])], plan.kept)));
    plan.roots.push({ root, repo, before: now, actions, emptyFolders: targetEmpty.map((folder) => join(root, folder.slice(0, -1))) });
  }
  return plan;
}

/** Empty folders to make again (the target had them) and to remove (made since, known to a checkpoint, with no target file in them). */
async function folderActions(
  repo: ShadowRepo,
  target: string,
  targetEmpty: readonly string[],
  nowEmpty: readonly string[],
  laterCommits: readonly string[],
  kept: string[],
): Promise<RewindAction[]> {
  const actions: RewindAction[] = targetEmpty.filter((folder) => !isFolder(repo.root, folder)).map((path) => ({ kind: 'restore', path, folder: true }) as const);
  const wanted = new Set(targetEmpty);
  const candidates = nowEmpty.filter((folder) => !wanted.has(folder));
  if (candidates.length === 0) return actions;
  const known = new Set<string>();
  for (const commit of laterCommits) for (const folder of await repo.emptyFoldersAt(commit)) known.add(folder);
  for (const folder of candidates) {
    if ((await repo.entries(target, [folder.slice(0, -1)])).size > 0) continue;
    if (known.has(folder)) actions.push({ kind: 'remove', path: folder, folder: true });
    else kept.push(`${join(repo.root, folder)}: no checkpoint knows this empty folder; left as it is`);
  }
  return actions;
}

/** Refuses a path whose folders are no longer plain folders inside the root (a symlink put there since). */
function checkParents(root: string, path: string): void {
  let folder = dirname(join(root, path));
  while (isInside(root, folder) && folder !== root) {
    try {
      if (!lstatSync(folder).isDirectory()) throw new RewindError(`${folder} is not a folder any more`);
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'ENOENT') throw error;
    }
    folder = dirname(folder);
  }
}

function removeEntry(path: string): void {
  try {
    const stats = lstatSync(path);
    if (stats.isDirectory()) rmdirSync(path);
    else unlinkSync(path);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'ENOENT') throw error;
  }
}

/** Folders left empty by removals, up to the root, when the target has nothing in them. */
function pruneEmptyFolders(root: string, path: string, keep: ReadonlySet<string>): void {
  let folder = dirname(join(root, path));
  while (folder !== root && isInside(root, folder) && !keep.has(folder)) {
    try {
      if (readdirSync(folder).length > 0) return;
      rmdirSync(folder);
    } catch {
      return;
    }
    folder = dirname(folder);
  }
}

/**
 * Git records only whether a file is executable, so a reverted file keeps its other permission
 * bits (a 0600 key file stays 0600); a restored one gets the usual 0644 or 0755.
 */
function modeFor(absolute: string, executable: boolean): number {
  let current: number | undefined;
  try {
    const stats = lstatSync(absolute);
    if (stats.isFile()) current = stats.mode & 0o7777;
  } catch {
    current = undefined;
  }
  if (current === undefined) return executable ? 0o755 : 0o644;
  return executable ? current | ((current & 0o444) >> 2) : current & ~0o111;
}

async function writeEntry(repo: ShadowRepo, root: string, action: FileWrite): Promise<void> {
  checkParents(root, action.path);
  const absolute = join(root, action.path);
  const content = await repo.blob(action.entry.sha);
  mkdirSync(dirname(absolute), { recursive: true });
  try {
    if (lstatSync(absolute).isDirectory()) rmdirSync(absolute);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'ENOENT') throw error;
  }
  if (action.entry.mode === '120000') {
    removeEntry(absolute);
    symlinkSync(content.toString('utf8'), absolute);
    return;
  }
  const temporary = join(dirname(absolute), `.cove-rewind-${process.pid}-${Date.now()}`);
  writeFileSync(temporary, content);
  chmodSync(temporary, modeFor(absolute, action.entry.mode === '100755'));
  renameSync(temporary, absolute);
}

export interface RewindOutcome {
  restored: string[];
  removed: string[];
  failed: string[];
  roots: Array<{ root: string; before: string; after: string }>;
}

/** `start` and the folders above it, up to the root (left out). */
function foldersUp(root: string, start: string): string[] {
  const folders: string[] = [];
  for (let folder = start; folder !== root && isInside(root, folder); folder = dirname(folder)) folders.push(folder);
  return folders;
}

/** Carries out a plan: removals first (deepest first), then every file put back; one failure never stops the others. */
export async function applyRewind(plan: Pick<RewindPlan, 'roots' | 'toPrompt'>, label = `after a rewind to prompt ${plan.toPrompt}`): Promise<RewindOutcome> {
  const outcome: RewindOutcome = { restored: [], removed: [], failed: [], roots: [] };
  for (const rootPlan of plan.roots) {
    const { root, repo } = rootPlan;
    const writes = rootPlan.actions.filter((action): action is FileWrite => 'entry' in action);
    const keep = new Set([...writes.flatMap((action) => foldersUp(root, dirname(join(root, action.path)))), ...rootPlan.emptyFolders.flatMap((folder) => foldersUp(root, folder))]);
    const removals = rootPlan.actions.filter((action) => action.kind === 'remove').sort((a, b) => b.path.split('/').length - a.path.split('/').length);
    for (const action of removals) {
      const absolute = join(root, action.path);
      try {
        checkParents(root, action.path);
        removeEntry(absolute);
        outcome.removed.push(absolute);
        pruneEmptyFolders(root, action.path, keep);
      } catch (error) {
        outcome.failed.push(`${absolute}: could not be removed (${(error as Error).message})`);
      }
    }
    for (const action of rootPlan.actions) {
      if (!('folder' in action) || action.kind !== 'restore') continue;
      const absolute = join(root, action.path);
      try {
        checkParents(root, action.path);
        mkdirSync(absolute, { recursive: true });
        outcome.restored.push(absolute);
      } catch (error) {
        outcome.failed.push(`${absolute}: could not be made again (${(error as Error).message})`);
      }
    }
    for (const action of writes) {
      const absolute = join(root, action.path);
      try {
        await writeEntry(repo, root, action);
        outcome.restored.push(absolute);
      } catch (error) {
        outcome.failed.push(`${absolute}: could not be put back (${(error as Error).message})`);
      }
    }
    const after = (await repo.snapshot(label)).commit;
    outcome.roots.push({ root, before: rootPlan.before, after });
  }
  return outcome;
}
