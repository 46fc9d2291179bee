/**
 * `cove rewind ID [--to N] [--dry-run] [--force] [--conversation]`: puts the session's workspace
 * back as it was before prompt N, printing every change before making it. A file changed by
 * hand since the last checkpoint stops the rewind, named, unless --force; the rewind is
 * recorded in the session as a `rewind` event whose `before` commits can undo it. With
 * --conversation the model's conversation is cut back to before prompt N too.
 */
import type { RewindReport } from '../../shared/contract';
import type { ConversationMessage } from '../core/agent/types';
import type { SessionRecord, Store, StoredMessage } from '../core/store';
import { defaultDataDir, openStore } from '../core/store';
import { RewindError, rewindSession } from '../core/checkpoints/rewind-session';
import { UsageError, type RewindArgs } from './args';
import { EXIT } from './exit-codes';

function firstLine(text: string): string {
  const line = text.split('\n')[0]!.trim();
  return line.length > 60 ? `${line.slice(0, 59)}…` : line;
}

function describeReport(report: RewindReport): string[] {
  const verbs = { revert: 'revert ', restore: 'restore', remove: 'remove ' } as const;
  const notes = { revert: 'edited since', restore: 'deleted since', remove: 'created since' } as const;
  return [
    ...report.changes.map((change) => `  ${verbs[change.action]}  ${change.path}  (${notes[change.action]})`),
    ...report.kept.map((kept) => `  keep     ${kept}`),
    ...(report.changes.length === 0 ? ['  nothing differs: the files are already as they were'] : []),
  ];
}

/**
 * The store and a session of it that no run holds: `cove rewind` and `--undo-revert` change its
 * files, which a running agent would be half-way through. The caller closes the store.
 */
export function openStoppedSession(sessionId: string, doing: string): { dataDir: string; store: Store; session: SessionRecord } {
  const dataDir = defaultDataDir();
  const store = openStore(dataDir);
  try {
    store.recoverInterrupted();
    const session = store.getSession(sessionId);
    if (!session) throw new UsageError(`cove rewind: ${sessionId}: no such session (see cove sessions)`);
    if (session.status === 'running' || session.status === 'waiting') throw new UsageError(`cove rewind: session ${session.id} is running; stop it before ${doing}`);
    return { dataDir, store, session };
  } catch (error) {
    store.close();
    throw error;
  }
}

/** The exit code after files were put back: 1, naming them, when some could not be changed. */
export function failedExit(failed: readonly string[]): number {
  if (failed.length === 0) return EXIT.ok;
  process.stderr.write(`cove rewind: ${failed.length} could not be changed: ${failed.join('; ')}\n`);
  return EXIT.failed;
}

export async function rewindCommand(args: RewindArgs): Promise<number> {
  const { dataDir, store, session } = openStoppedSession(args.sessionId, 'rewinding its files');
  try {
    // Planned as a dry run first, so every change is printed before any is made.
    const request = {
      coveHome: dataDir,
      session,
      events: store.loadEvents(session.id),
      toPrompt: args.to,
      force: args.force,
      record: () => undefined,
      tellModel: (text: string) => store.appendMessage(session.id, { role: 'user', content: [{ type: 'text', text }] }),
      cutConversation: args.conversation,
      history: {
        load: () => store.loadMessages(session.id) as ConversationMessage[],
        replace: (messages: ConversationMessage[]) => store.replaceMessages(session.id, messages as StoredMessage[]),
      },
    };
    let plan: RewindReport;
    try {
      plan = await rewindSession({ ...request, dryRun: true });
    } catch (error) {
      if (error instanceof RewindError) throw new UsageError(`cove rewind: ${error.message}`);
      throw error;
    }
    const heading = `${args.dryRun ? 'would put back' : 'putting back'} the files of session ${session.id} as they were before prompt ${plan.toPrompt} ("${firstLine(plan.promptText)}"):`;
    const cutLine = plan.conversationCut ? [`  ${args.dryRun ? 'would cut' : 'cutting'} the conversation back to before prompt ${plan.toPrompt}: the next run starts from there`] : [];
    const steeredLine =
      plan.steeredPrompt === undefined
        ? []
        : [`  prompt ${plan.steeredPrompt} was sent into a running turn, not a prompt of its own; rewinding to prompt ${plan.toPrompt}, which started that run`];
    process.stdout.write(`${[heading, ...steeredLine, ...describeReport(plan), ...cutLine].join('\n')}\n`);
    if (plan.conflicts.length > 0 && !args.force) {
      process.stderr.write(
        `cove rewind: refused: changed by hand since the last checkpoint, and would be overwritten: ${plan.conflicts.join(', ')} (run again with --force to overwrite them)\n`,
      );
      return EXIT.failed;
    }
    if (args.dryRun) {
      process.stdout.write('dry run: nothing was changed\n');
      return EXIT.ok;
    }
    if (plan.changes.length === 0 && !plan.conversationCut) return EXIT.ok;
    const outcome = await rewindSession({ ...request, toPrompt: plan.toPrompt, dryRun: false, record: (event) => store.appendEvents(session.id, [event]) });
    process.stdout.write(`rewound: ${outcome.restored.length} put back, ${outcome.removed.length} removed\n`);
    return failedExit(outcome.failed);
  } finally {
    store.close();
  }
}
