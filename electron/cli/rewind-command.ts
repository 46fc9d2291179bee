/**
 * `cove rewind ID [--to N] [--dry-run] [--force]`: puts the session's workspace back as it was
 * before prompt N, printing every change before making it. A file changed by hand since the
 * last checkpoint stops the rewind, named, unless --force; the rewind is recorded in the
 * session as a `rewind` event whose `before` commits can undo it.
 */
import { makeEvent } from '../../shared/events';
import { defaultDataDir, openStore } from '../core/store';
import { loadCheckpointSettings } from '../core/checkpoints';
import { applyRewind, planRewind, RewindError, type RewindPlan } from '../core/checkpoints/rewind';
import { timelineOf } from '../core/checkpoints/timeline';
import { UsageError, type RewindArgs } from './args';
import { EXIT } from './exit-codes';

function firstLine(text: string): string {
  const line = text.split('\n')[0]!.trim();
  return line.length > 60 ? `${line.slice(0, 59)}…` : line;
}

function describePlan(plan: RewindPlan): string[] {
  const lines: string[] = [];
  const verbs = { revert: 'revert ', restore: 'restore', remove: 'remove ' } as const;
  const notes = { revert: 'edited since', restore: 'deleted since', remove: 'created since' } as const;
  for (const root of plan.roots) {
    for (const action of root.actions) lines.push(`  ${verbs[action.kind]}  ${root.root}/${action.path}  (${notes[action.kind]})`);
  }
  for (const kept of plan.kept) lines.push(`  keep     ${kept}`);
  return lines;
}

export async function rewindCommand(args: RewindArgs): Promise<number> {
  const dataDir = defaultDataDir();
  const store = openStore(dataDir);
  try {
    store.recoverInterrupted();
    const session = store.getSession(args.sessionId);
    if (!session) throw new UsageError(`cove rewind: ${args.sessionId}: no such session (see cove sessions)`);
    if (session.status === 'running' || session.status === 'waiting') {
      throw new UsageError(`cove rewind: session ${session.id} is running; stop it before rewinding its files`);
    }
    const timeline = timelineOf(store.loadEvents(session.id));
    const withChanges = timeline.checkpoints.filter((checkpoint) => checkpoint.moment === 'beforeTool');
    if (withChanges.length === 0) {
      process.stderr.write(`cove rewind: session ${session.id} has no checkpoints: none of its calls changed files\n`);
      return EXIT.failed;
    }
    const toPrompt = args.to ?? Math.max(1, withChanges.at(-1)!.prompt);
    const settings = loadCheckpointSettings(dataDir, session.workspaces);
    let plan: RewindPlan;
    try {
      plan = await planRewind({ coveHome: dataDir, workspaceRoots: session.workspaces, timeline, toPrompt, sizeCap: settings.maxFileBytes, force: args.force });
    } catch (error) {
      if (error instanceof RewindError) throw new UsageError(`cove rewind: ${error.message}`);
      throw error;
    }
    const prompt = timeline.prompts[toPrompt - 1]!;
    const changes = plan.roots.reduce((count, root) => count + root.actions.length, 0);
    const out: string[] = [`${args.dryRun ? 'would put back' : 'putting back'} the files of session ${session.id} as they were before prompt ${toPrompt} ("${firstLine(prompt.text)}"):`];
    out.push(...describePlan(plan));
    if (changes === 0) out.push('  nothing differs: the files are already as they were');
    process.stdout.write(`${out.join('\n')}\n`);
    if (plan.conflicts.length > 0 && !args.force) {
      process.stderr.write(`cove rewind: refused: changed by hand since the last checkpoint, and would be overwritten: ${plan.conflicts.join(', ')} (run again with --force to overwrite them)\n`);
      return EXIT.failed;
    }
    if (args.dryRun) {
      process.stdout.write('dry run: nothing was changed\n');
      return EXIT.ok;
    }
    if (changes === 0) return EXIT.ok;
    const outcome = await applyRewind(plan);
    store.appendEvents(session.id, [
      makeEvent('rewind', {
        sessionId: session.id,
        toPrompt,
        checkpointId: plan.checkpoint.checkpointId,
        roots: outcome.roots,
        restored: outcome.restored,
        removed: outcome.removed,
        kept: [...plan.kept, ...outcome.failed],
      }),
    ]);
    process.stdout.write(`rewound: ${outcome.restored.length} put back, ${outcome.removed.length} removed\n`);
    if (outcome.failed.length > 0) {
      process.stderr.write(`cove rewind: ${outcome.failed.length} could not be changed: ${outcome.failed.join('; ')}\n`);
      return EXIT.failed;
    }
    return EXIT.ok;
  } finally {
    store.close();
  }
}
