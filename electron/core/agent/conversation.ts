/**
 * Helpers over the provider-shaped history: appending user content without breaking the
 * user/assistant alternation, answering every tool_use, and finding the user's own words.
 */
import type { ToolResultPayload } from '../../../shared/events';
import type { ConversationBlock, ConversationMessage } from './types';

/** Text Cove injects into the conversation starts with this, so it is never taken for the user's words. */
export const INJECTED_PREFIX = '[Cove] ';

export type ToolResultBlock = Extract<ConversationBlock, { type: 'tool_result' }>;

export function blocksOf(message: ConversationMessage): ConversationBlock[] {
  return typeof message.content === 'string' ? [{ type: 'text', text: message.content }] : message.content;
}

/** Appends user content, merging into a trailing user message so roles keep alternating. */
export function appendUser(messages: ConversationMessage[], blocks: ConversationBlock[]): ConversationMessage {
  const last = messages.at(-1);
  if (last?.role === 'user') {
    // tool_result blocks must come first in a user message; keep them ahead of added text.
    const merged = [...blocksOf(last), ...blocks];
    last.content = [...merged.filter((b) => b.type === 'tool_result'), ...merged.filter((b) => b.type !== 'tool_result')];
    return last;
  }
  const message: ConversationMessage = { role: 'user', content: blocks };
  messages.push(message);
  return message;
}

export function toolResultBlock(toolUseId: string, result: ToolResultPayload, isError: boolean): ToolResultBlock {
  const content: ToolResultBlock['content'] = result.content.map((block) =>
    block.type === 'text' ? { type: 'text', text: block.text } : { type: 'image', source: { type: 'base64', media_type: block.mediaType, data: block.data } },
  );
  if (result.redactions) content.push({ type: 'text', text: `${INJECTED_PREFIX}${result.redactions} secret value(s) were redacted from this output.` });
  if (content.length === 0) content.push({ type: 'text', text: isError ? 'Error' : '(no output)' });
  return { type: 'tool_result', tool_use_id: toolUseId, content, ...(isError ? { is_error: true } : {}) };
}

/**
 * Answers every tool_use that has no tool_result, e.g. after a crash or a cancel cut a turn
 * short, so the history is valid for the provider again. Returns how many were answered.
 */
export function answerDanglingCalls(messages: ConversationMessage[], reason: string): number {
  let answered = 0;
  for (let i = 0; i < messages.length; i++) {
    const message = messages[i]!;
    if (message.role !== 'assistant') continue;
    const calls = blocksOf(message).filter((b) => b.type === 'tool_use');
    if (calls.length === 0) continue;
    const next = messages[i + 1];
    const answeredIds = new Set(next?.role === 'user' ? blocksOf(next).flatMap((b) => (b.type === 'tool_result' ? [b.tool_use_id] : [])) : []);
    const missing = calls.filter((call) => !answeredIds.has(call.id));
    if (missing.length === 0) continue;
    const results = missing.map((call) => toolResultBlock(call.id, { content: [{ type: 'text', text: reason }] }, true));
    if (next?.role === 'user') next.content = [...results, ...blocksOf(next)];
    else messages.splice(i + 1, 0, { role: 'user', content: results });
    answered += missing.length;
  }
  return answered;
}

/** The user's latest own words: text blocks of user messages, skipping tool results and Cove's notes. */
export function latestUserRequest(messages: readonly ConversationMessage[]): string | undefined {
  for (let i = messages.length - 1; i >= 0; i--) {
    const message = messages[i]!;
    if (message.role !== 'user') continue;
    const text = blocksOf(message)
      .flatMap((b) => (b.type === 'text' && !b.text.startsWith(INJECTED_PREFIX) ? [b.text] : []))
      .join('\n')
      .trim();
    if (text) return text;
  }
  return undefined;
}

/** Plain text of a message, for search and summaries. */
export function plainText(message: ConversationMessage): string {
  return blocksOf(message)
    .map((block) => {
      switch (block.type) {
        case 'text':
          return block.text;
        case 'tool_use':
          return `[called ${block.name} ${JSON.stringify(block.input)}]`;
        case 'tool_result':
          return block.content.map((c) => (c.type === 'text' ? c.text : '[image]')).join('\n');
        default:
          return '';
      }
    })
    .filter(Boolean)
    .join('\n');
}

/**
 * The history for another model: thinking blocks are readable only by the model that wrote them
 * (current models reject the request otherwise), and earlier turns may go without them. An
 * assistant message that held nothing else keeps a note, so roles still alternate.
 */
export function withoutThinking(messages: readonly ConversationMessage[]): ConversationMessage[] {
  return messages.map((message) => {
    if (message.role !== 'assistant' || typeof message.content === 'string') return message;
    const kept = message.content.filter((block) => block.type !== 'thinking' && block.type !== 'redacted_thinking');
    if (kept.length === message.content.length) return message;
    return { role: 'assistant', content: kept.length > 0 ? kept : [{ type: 'text', text: `${INJECTED_PREFIX}(reasoning written by another model is left out)` }] };
  });
}
