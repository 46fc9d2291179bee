/**
 * The review pane's reverts as part of the session's record (issue 13): a hunk revert and a
 * file revert each leave a `revert` event holding every root's state just before and just after
 * (two shadow commits), so a reload draws it, `cove sessions --changes` ends the session's
 * change at what it left, the next rewind does not take it for a hand edit, and it can itself be
 * undone. An undo puts the files it changed back as they were before it, refused with their
 * names when they changed since, and is recorded the same way (`undoes` names the revert).
 */
import { isAbsolute, join, relative, sep } from 'node:path';
import { makeEvent, type RevertEvent, type RewindEvent } from '../../../shared/events';
import type { HunkRevertReport, UndoRevertReport } from '../../../shared/contract';
import { revertHunk, type HunkRevertInput } from './hunk-revert';
import { applyRewind, RewindError, type RewindAction, type RootPlan } from './rewind';
import { ShadowRepo } from './shadow-repo';
import type { Timeline } from './timeline';

export interface RevertRecording {
  sessionId: string;
  /** Stores and publishes the revert event. */
  record(event: RevertEvent): void;
}

/** A hunk revert with the root recorded around it; nothing is recorded when it was refused. */
export async function recordedHunkRevert(input: HunkRevertInput & RevertRecording): Promise<HunkRevertReport> {
  if (!input.workspaceRoots.includes(input.root)) throw new RewindError(`${input.root} is not a workspace folder of this session`);
  const repo = new ShadowRepo(input.coveHome, input.root);
  const before = (await repo.snapshot('before a hunk revert')).commit;
  const report = await revertHunk(input);
  if (!report.reverted) return report;
  const after = (await repo.snapshot('after a hunk revert')).commit;
  input.record(
    makeEvent('revert', {
      sessionId: input.sessionId,
      scope: 'hunk',
      ...(input.prompt === undefined ? {} : { prompt: input.prompt }),
      paths: [join(input.root, input.path)],
      hunk: report.hunk,
      roots: [{ root: input.root, before, after }],
    }),
  );
  return report;
}

/** A rewind of some files only (the pane's "Revert file") is recorded as that files' revert. */
export function fileRevertOf(rewind: RewindEvent): RevertEvent {
  return makeEvent('revert', {
    sessionId: rewind.sessionId,
    scope: 'file',
    prompt: rewind.toPrompt,
    paths: [...rewind.restored, ...rewind.removed],
    roots: rewind.roots,
  });
}

function inside(root: string, path: string): boolean {
  return path.startsWith(root.endsWith(sep) ? root : root + sep);
}

export interface UndoRevertInput {
  coveHome: string;
  workspaceRoots: readonly string[];
  timeline: Timeline;
  /** The seq of the revert event to undo. */
  seq: number;
  /** Change nothing: `restored` and `removed` name what the undo would put back and remove. */
  dryRun?: boolean;
}

/** What the model reads at its next run after an undo, so it does not edit from a stale read. */
export function undoNote(report: UndoRevertReport): string {
  return `The person undid their revert of ${[...report.restored, ...report.removed].join(', ')}: your change is back; read the file again before editing it.`;
}

/**
 * Puts the revert's files back as they were just before it. Refused whole, with nothing
 * changed, when one of them changed since the revert (by hand or by the agent), when it was
 * undone already, or when its shadow commits are gone.
 */
export async function undoRevert(input: UndoRevertInput & RevertRecording): Promise<UndoRevertReport> {
  const revert = input.timeline.reverts.find((entry) => entry.seq === input.seq);
  if (!revert) throw new RewindError(`there is no revert at seq ${input.seq} in this session`);
  if (input.timeline.reverts.some((entry) => entry.undoes === revert.seq)) throw new RewindError(`the revert at seq ${input.seq} was undone already`);
  const plans: RootPlan[] = [];
  const conflicts: string[] = [];
  for (const { root, before, after } of revert.roots) {
    if (!input.workspaceRoots.includes(root)) throw new RewindError(`${root} is no longer a workspace folder of this session`);
    const repo = new ShadowRepo(input.coveHome, root);
    if (!(await repo.has(before)) || !(await repo.has(after)))
      throw new RewindError(`the checkpoint repository of ${root} no longer holds that revert (was ${repo.gitDir} deleted?); nothing was changed`);
    const paths = revert.paths.filter((path) => isAbsolute(path) && inside(root, path)).map((path) => relative(root, path).split(sep).join('/'));
    if (paths.length === 0) continue;
    const now = (await repo.snapshot('before undoing a revert')).commit;
    const since = new Set((await repo.changes(after, now)).map((change) => change.path));
    conflicts.push(...paths.filter((path) => since.has(path)).map((path) => join(root, path)));
    const entries = await repo.entries(before, paths);
    const actions: RewindAction[] = paths.map((path) => {
      const entry = entries.get(path);
      return entry ? { kind: 'revert', path, entry } : { kind: 'remove', path };
    });
    plans.push({ root, repo, before: now, actions, emptyFolders: [] });
  }
  if (conflicts.length > 0) return { undone: false, restored: [], removed: [], conflicts, failed: [] };
  if (input.dryRun) {
    const named = (kind: RewindAction['kind']) => plans.flatMap((plan) => plan.actions.filter((action) => action.kind === kind).map((action) => join(plan.root, action.path)));
    return { undone: false, restored: named('revert'), removed: named('remove'), conflicts: [], failed: [] };
  }
  const outcome = await applyRewind({ roots: plans, toPrompt: revert.prompt ?? 0 }, 'after undoing a revert');
  input.record(
    makeEvent('revert', {
      sessionId: input.sessionId,
      scope: revert.scope,
      ...(revert.prompt === undefined ? {} : { prompt: revert.prompt }),
      paths: revert.paths,
      ...(revert.hunk === undefined ? {} : { hunk: revert.hunk }),
      roots: outcome.roots,
      undoes: revert.seq,
    }),
  );
  return { undone: true, restored: outcome.restored, removed: outcome.removed, conflicts: [], failed: outcome.failed };
}
