/**
 * Rewinds and the review pane's reverts as transcript rows, folded from their events (pure, like
 * ../transcript/model.ts, which calls this), so a reload draws what was drawn live. A rewind that
 * cut the conversation back folds every row from the prompt it went back to under its marker:
 * those rows are no longer what the model is sent, and the conversation continued from there.
 * An undo marks the revert it undid.
 */
import type { RevertEvent, RewindEvent } from '../../../shared/events';
import type { RestoreItem, TranscriptItem, UserItem } from '../transcript/model-types';

/** Prompts that reached the agent, in order, those folded under earlier cuts included: main's numbering. */
export function* promptItems(items: readonly TranscriptItem[]): Generator<UserItem> {
  for (const item of items) {
    if (item.kind === 'user' && item.answer === undefined) yield item;
    else if (item.kind === 'restore' && item.cut) yield* promptItems(item.cut);
  }
}

/**
 * The number of the prompt `key` names, as main counts them (those folded under a conversation
 * cut included), when "Rewind to here" may be offered on it; null otherwise. A message steered
 * into a running turn is no prompt boundary (the files were half-way through that run's
 * changes). A prompt folded under a cut is no longer in the conversation: a rewind to it could
 * not cut the conversation back there, and its row is drawn as a record of what was cut.
 */
export function rewindablePrompt(items: readonly TranscriptItem[], key: string): number | null {
  let count = 0;
  for (const item of promptItems(items)) {
    count++;
    if (item.key !== key) continue;
    return item.steered || !items.includes(item) ? null : count;
  }
  return null;
}

function holds(item: TranscriptItem, prompt: UserItem): boolean {
  if (item === prompt) return true;
  return item.kind === 'restore' && item.cut !== null && item.cut.some((inner) => holds(inner, prompt));
}

/** Where a cut back to before prompt N starts among the top rows; -1 when that prompt is not drawn. */
function cutStart(items: readonly TranscriptItem[], toPrompt: number): number {
  let number = 0;
  for (const prompt of promptItems(items)) {
    if (++number === toPrompt) return items.findIndex((item) => holds(item, prompt));
  }
  return -1;
}

export function withRestore(items: readonly TranscriptItem[], event: RewindEvent | RevertEvent, key: string): TranscriptItem[] {
  const next = items.slice();
  if (event.type === 'revert' && event.undoes !== undefined) {
    const index = next.findLastIndex((item) => item.kind === 'restore' && item.event.seq === event.undoes);
    const undone = next[index];
    if (undone?.kind === 'restore') next[index] = { ...undone, undone: true };
  }
  const item: RestoreItem = { kind: 'restore', key, event, cut: null, undone: false };
  const start = event.type === 'rewind' && event.conversationCut ? cutStart(next, event.toPrompt) : -1;
  if (start < 0) return [...next, item];
  return [...next.slice(0, start), { ...item, cut: next.slice(start) }];
}
