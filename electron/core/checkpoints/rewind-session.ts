/**
 * A rewind of one stored session, as `cove rewind` and the UI's "Rewind to here" both do it:
 * plan, report what would change, stop at files changed by hand unless forced, apply, and
 * record the `rewind` event; when the person asks, the conversation is cut back to before that
 * prompt too (conversation-cut.ts). Bad input (no such prompt, nothing recorded, a deleted shadow
 * repository) is a RewindError whose message says what was wrong; nothing is changed then.
 */
import { makeEvent, type RewindEvent } from '../../../shared/events';
import type { RewindReport } from '../../../shared/contract';
import type { SessionRecord, StoredEvent } from '../store';
import { loadCheckpointSettings } from './settings';
import { applyRewind, planRewind, RewindError } from './rewind';
import { checkpointBefore, enclosingPrompt, timelineOf } from './timeline';
import { INJECTED_PREFIX } from '../agent/conversation';
import type { ConversationMessage } from '../agent/types';
import { historyBefore } from './conversation-cut';

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
  /** Cut the model's conversation back to before the prompt too; needs `history`. */
  cutConversation?: boolean;
  /** The session's live history, read and replaced when the conversation is cut. */
  history?: { load(): ConversationMessage[]; replace(messages: ConversationMessage[]): void };
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
  const cut = request.cutConversation ?? false;
  if (cut && !request.history) throw new RewindError('this host cannot cut the conversation back');
  if (withChanges.length === 0 && !cut) throw new RewindError(`session ${session.id} has no checkpoints: none of its calls changed files`);
  const asked = request.toPrompt ?? Math.max(1, withChanges.at(-1)?.prompt ?? timeline.prompts.length);
  const toPrompt = Number.isInteger(asked) && asked >= 1 && asked <= timeline.prompts.length ? enclosingPrompt(timeline, asked) : asked;
  // Found before anything changes: a prompt no longer in the history stops the rewind whole.
  const history = cut ? historyBefore(request.history!.load(), request.events, toPrompt) : undefined;
  const settings = loadCheckpointSettings(request.coveHome, session.workspaces);
  const filesChanged = checkpointBefore(timeline, toPrompt) !== undefined || !cut;
  const plan = filesChanged
    ? await planRewind({
        coveHome: request.coveHome,
        workspaceRoots: session.workspaces,
        timeline,
        toPrompt,
        sizeCap: settings.maxFileBytes,
        force: request.force,
        only: request.only,
      })
    : undefined;
  const report: RewindReport = {
    toPrompt,
    promptText: timeline.prompts[toPrompt - 1]!.text,
    changes: plan ? plan.roots.flatMap((root) => root.actions.map((action) => ({ action: action.kind, path: `${root.root}/${action.path}` }))) : [],
    kept: plan?.kept ?? [],
    conflicts: plan?.conflicts ?? [],
    applied: false,
    restored: [],
    removed: [],
    failed: [],
    conversationCut: cut,
    ...(toPrompt !== asked ? { steeredPrompt: asked } : {}),
  };
  if ((report.conflicts.length > 0 && !request.force) || request.dryRun || (report.changes.length === 0 && !cut)) return report;
  const outcome = plan && report.changes.length > 0 ? await applyRewind(plan) : { roots: [], restored: [], removed: [], failed: [] };
  if (history) request.history!.replace(history);
  request.record(
    makeEvent('rewind', {
      sessionId: session.id,
      toPrompt,
      checkpointId: plan?.checkpoint.checkpointId ?? '',
      roots: outcome.roots,
      restored: outcome.restored,
      removed: outcome.removed,
      kept: [...(plan?.kept ?? []), ...outcome.failed],
      ...(cut ? { conversationCut: true } : {}),
    }),
  );
  // A cut conversation is as old as the files are again; a kept one is told what was undone.
  if (!cut) request.tellModel(noteFor(toPrompt, report.promptText, outcome.restored, outcome.removed));
  return { ...report, applied: true, restored: outcome.restored, removed: outcome.removed, failed: outcome.failed, conversationCut: cut };
}
