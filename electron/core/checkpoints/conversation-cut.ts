/**
 * Cutting the conversation back with a rewind: the model's history is rebuilt as it was before
 * prompt N, so the next run starts from there. The stored events stay (the transcript and the
 * audit keep everything, and the rewind event says the cut was made); only the live history the
 * model is sent is replaced, and the replaced messages stay in the store, superseded.
 *
 * A prompt is found in the history by its own text block: a run's prompt as its `agentStart`
 * gave it to the agent, a steered prompt as the person typed it. The search runs from the end,
 * prompt by prompt, so the same words sent twice are told apart by their order.
 */
import type { ConversationBlock, ConversationMessage } from '../agent/types';
import type { StoredEvent } from '../store';
import { blocksOf } from '../agent/conversation';
import { RewindError } from './rewind';

interface Position {
  message: number;
  block: number;
}

/** The text each prompt (1-based, as the timeline counts them) put into the history. */
function promptTexts(events: readonly StoredEvent[]): string[] {
  const texts: string[] = [];
  let waitingForRun = -1;
  for (const event of events) {
    if (event.subagentId) continue;
    if (event.type === 'userMessage' && event.answer === undefined) {
      texts.push(event.text);
      waitingForRun = event.steered ? -1 : texts.length - 1;
    } else if (event.type === 'agentStart' && waitingForRun >= 0) {
      texts[waitingForRun] = event.prompt;
      waitingForRun = -1;
    }
  }
  return texts;
}

function lastBlockBefore(messages: readonly ConversationMessage[], text: string, before: Position): Position | undefined {
  for (let message = Math.min(before.message, messages.length - 1); message >= 0; message--) {
    const entry = messages[message]!;
    if (entry.role !== 'user') continue;
    const blocks = blocksOf(entry);
    const end = message === before.message ? before.block : blocks.length;
    for (let block = end - 1; block >= 0; block--) {
      const candidate = blocks[block]!;
      if (candidate.type === 'text' && candidate.text === text) return { message, block };
    }
  }
  return undefined;
}

/**
 * The history as it was before prompt `toPrompt`: every message from that prompt's on is left
 * out; a prompt that was merged into a message of tool results keeps those results, so every
 * tool_use kept is still answered. Throws a RewindError when the prompt is no longer in the
 * history (compacted into a summary, or cleared).
 */
export function historyBefore(messages: readonly ConversationMessage[], events: readonly StoredEvent[], toPrompt: number): ConversationMessage[] {
  const texts = promptTexts(events);
  if (toPrompt < 1 || toPrompt > texts.length) throw new RewindError(`there is no prompt ${toPrompt} in this session (it has ${texts.length})`);
  let cursor: Position = { message: messages.length, block: 0 };
  for (let prompt = texts.length; prompt >= toPrompt; prompt--) {
    const found = lastBlockBefore(messages, texts[prompt - 1]!, cursor);
    if (found) cursor = found;
    else if (prompt === toPrompt) {
      throw new RewindError(
        `prompt ${toPrompt} is no longer in the conversation the model is sent (it was compacted into a summary or cleared), so the conversation cannot be cut back to it; rewind the files alone`,
      );
    }
  }
  const kept = messages.slice(0, cursor.message).map((message) => ({ ...message }));
  const before: ConversationBlock[] = blocksOf(messages[cursor.message]!).slice(0, cursor.block);
  if (before.length > 0) kept.push({ role: 'user', content: before });
  return kept;
}
