/**
 * `cove rewind ID --undo-revert N [--dry-run]`: undoes revert #N of the session's review pane
 * (`cove sessions --changes` lists them by that number), as the transcript's "Undo revert"
 * does: the files it changed go back as they were just before it, byte for byte. Refused whole,
 * naming the files and changing nothing, when they changed since the revert; a revert is undone
 * once. The undo is recorded in the session like the app's, and the model told at its next run.
 */
import type { RevertEvent } from '../../shared/events';
import { INJECTED_PREFIX } from '../core/agent/conversation';
import { RewindError } from '../core/checkpoints/rewind';
import { undoNote, undoRevert } from '../core/checkpoints/session-reverts';
import { timelineOf } from '../core/checkpoints/timeline';
import { UsageError } from './args';
import { EXIT } from './exit-codes';
import { failedExit, openStoppedSession } from './rewind-command';

export async function undoRevertCommand(args: { sessionId: string; seq: number; dryRun: boolean }): Promise<number> {
  const { dataDir, store, session } = openStoppedSession(args.sessionId, 'undoing a revert');
  try {
    const input = {
      coveHome: dataDir,
      workspaceRoots: session.workspaces,
      timeline: timelineOf(store.loadEvents(session.id)),
      seq: args.seq,
      sessionId: session.id,
      record: (event: RevertEvent) => void store.appendEvents(session.id, [event]),
    };
    let report;
    try {
      // Refused whole, with nothing written or recorded, when its files changed since the revert.
      report = await undoRevert({ ...input, dryRun: args.dryRun });
    } catch (error) {
      if (error instanceof RewindError) throw new UsageError(`cove rewind: --undo-revert ${args.seq}: ${error.message}`);
      throw error;
    }
    if (report.conflicts.length > 0) {
      process.stderr.write(`cove rewind: refused: changed since revert #${args.seq}, and would be overwritten: ${report.conflicts.join(', ')}; nothing was changed\n`);
      return EXIT.failed;
    }
    const lines = [
      `${args.dryRun ? 'would undo' : 'undid'} revert #${args.seq} of session ${session.id}: the agent's change ${args.dryRun ? 'would be' : 'is'} back`,
      ...report.restored.map((path) => `  put back  ${path}`),
      ...report.removed.map((path) => `  remove    ${path}`),
      ...(args.dryRun ? ['dry run: nothing was changed'] : []),
    ];
    process.stdout.write(`${lines.join('\n')}\n`);
    if (args.dryRun) return EXIT.ok;
    store.appendMessage(session.id, { role: 'user', content: [{ type: 'text', text: `${INJECTED_PREFIX}${undoNote(report)}` }] });
    return failedExit(report.failed);
  } finally {
    store.close();
  }
}
