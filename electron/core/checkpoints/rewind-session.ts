/**
 * A rewind of one stored session, as `cove rewind` and the UI's "Rewind to here" both do it:
 * plan, report what would change, stop at files changed by hand unless forced, apply, and
 * record the `rewind` event. Bad input (no such prompt, nothing recorded, a deleted shadow
 * repository) is a RewindError whose message says what was wrong; nothing is changed then.
 */
import { makeEvent, type RewindEvent } from '../../../shared/events';
import type { RewindReport } from '../../../shared/contract';
import type { SessionRecord, StoredEvent } from '../store';
import { loadCheckpointSettings } from './settings';
import { applyRewind, planRewind, RewindError } from './rewind';
import { timelineOf } from './timeline';
import { INJECTED_PREFIX } from '../agent/conversation';

export { RewindError } from './rewind';

export interface RewindRequest {
  coveHome: string;
  session: SessionRecord;
  events: readonly StoredEvent[];
  /** Undefined: the latest prompt that changed files. */
  toPrompt?: number;
  dryRun: boolean;
  force: boolean;
  /** Absolute paths to put back, and no others. */
  only?: readonly string[];
  /** Stores and publishes the rewind event. */
  record(event: RewindEvent): void;
  /** Adds a note to the stored conversation, read by the model at the session's next run. */
  tellModel(text: string): void;
}

/** What the model reads next time, so it does not build on files that are no longer there. */
function noteFor(toPrompt: number, promptText: string, restored: readonly string[], removed: readonly string[]): string {
  const list = (paths: readonly string[]) => (paths.length > 20 ? `${paths.slice(0, 20).join(', ')} and ${paths.length - 20} more` : paths.join(', '));
  const line = promptText.split('\n')[0]!.slice(0, 120);
  return (
    `${INJECTED_PREFIX}The person rewound the workspace files to how they were before their prompt ${toPrompt} ("${line}"). ` +
    `${restored.length > 0 ? `Put back: ${list(restored)}. ` : ''}${removed.length > 0 ? `Removed: ${list(removed)}. ` : ''}` +
    'What you changed since then is undone on disk; read files again before editing them.'
  );
}

export async function rewindSession(request: RewindRequest): Promise<RewindReport> {
  const { session } = request;
  const timeline = timelineOf(request.events);
  const withChanges = timeline.checkpoints.filter((checkpoint) => checkpoint.moment === 'beforeTool');
  if (withChanges.length === 0) throw new RewindError(`session ${session.id} has no checkpoints: none of its calls changed files`);
  const toPrompt = request.toPrompt ?? Math.max(1, withChanges.at(-1)!.prompt);
  const settings = loadCheckpointSettings(request.coveHome, session.workspaces);
  const plan = await planRewind({
    coveHome: request.coveHome,
    workspaceRoots: session.workspaces,
    timeline,
    toPrompt,
    sizeCap: settings.maxFileBytes,
    force: request.force,
    only: request.only,
  });
  const report: RewindReport = {
    toPrompt,
    promptText: timeline.prompts[toPrompt - 1]!.text,
    changes: plan.roots.flatMap((root) => root.actions.map((action) => ({ action: action.kind, path: `${root.root}/${action.path}` }))),
    kept: plan.kept,
    conflicts: plan.conflicts,
    applied: false,
    restored: [],
    removed: [],
    failed: [],
  };
  if ((plan.conflicts.length > 0 && !request.force) || request.dryRun || report.changes.length === 0) return report;
  const outcome = await applyRewind(plan);
  request.record(
    makeEvent('rewind', {
      sessionId: session.id,
      toPrompt,
      checkpointId: plan.checkpoint.checkpointId,
      roots: outcome.roots,
      restored: outcome.restored,
      removed: outcome.removed,
      kept: [...plan.kept, ...outcome.failed],
    }),
  );
  request.tellModel(noteFor(toPrompt, report.promptText, outcome.restored, outcome.removed));
  return { ...report, applied: true, restored: outcome.restored, removed: outcome.removed, failed: outcome.failed };
}
