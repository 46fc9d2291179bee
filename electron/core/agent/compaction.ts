/**
 * Compaction: when the conversation nears the context window, the older part is replaced by a
 * summary. The cut is always made just before an assistant message, so a tool_use and its
 * tool_result (which follows in the next user message) are either both kept or both summarized.
 */
import { INJECTED_PREFIX, plainText } from './conversation';
import type { ModelSpec } from './model-catalog';
import type { AssistantReply, ProviderRequest } from './provider';
import { thinkingFor } from './stop-reasons';
import type { ConversationMessage } from './types';

/**
 * max_tokens of the summary request. Adaptive thinking spends from the same budget as the
 * summary text, so a thinking model gets room for both; others need only the summary's share.
 */
export function summaryMaxTokens(spec: ModelSpec): number {
  const wanted = spec.thinking === 'none' ? 8_192 : 32_000;
  return Math.min(wanted, spec.maxOutput);
}

/** Rough tokens of a history: about four characters a token. */
export function estimateTokens(messages: readonly ConversationMessage[]): number {
  let chars = 0;
  for (const message of messages) chars += typeof message.content === 'string' ? message.content.length : JSON.stringify(message.content).length;
  return Math.ceil(chars / 4);
}

/**
 * The index of the first message to keep: the earliest assistant message whose suffix fits in
 * `keepTokens`, and never the first message (something must go). Null when there is no cut.
 */
export function chooseCut(messages: readonly ConversationMessage[], keepTokens: number): number | null {
  let suffix = 0;
  let cut: number | null = null;
  for (let i = messages.length - 1; i >= 1; i--) {
    suffix += estimateTokens([messages[i]!]);
    if (messages[i]!.role !== 'assistant') continue;
    if (suffix > keepTokens && cut !== null) break;
    cut = i;
    if (suffix > keepTokens) break;
  }
  return cut;
}

/** The removed part as text for the summarizer, head and tail kept when it is too long. */
export function transcriptOf(messages: readonly ConversationMessage[], maxChars: number): string {
  const text = messages.map((m) => `${m.role.toUpperCase()}:\n${plainText(m)}`).join('\n\n');
  if (text.length <= maxChars) return text;
  const head = Math.floor(maxChars / 3);
  return `${text.slice(0, head)}\n\n[… ${text.length - maxChars} characters left out …]\n\n${text.slice(text.length - (maxChars - head))}`;
}

export const SUMMARY_SYSTEM_PROMPT =
  'You summarize the earlier part of a coding session so the work can continue without it. ' +
  'Keep: what the user asked for, decisions made, files read or changed (with paths), commands run and their outcome, ' +
  'errors still open, and what remains to do. Be concise and factual; write no preamble.';

export function summaryMessage(summary: string | null, removed: number, runPrompts: readonly string[]): ConversationMessage {
  const prompts = runPrompts.length > 0 ? `\n\nThe user's requests in this run, verbatim:\n${runPrompts.map((p) => `- ${p}`).join('\n')}` : '';
  const body = summary
    ? `The earlier part of this conversation (${removed} messages) was compacted. Summary:\n${summary}`
    : `The earlier part of this conversation (${removed} messages) was removed to fit the context window; no summary could be made.`;
  return { role: 'user', content: [{ type: 'text', text: `${INJECTED_PREFIX}${body}${prompts}` }] };
}

/** The request that summarizes `removed`, keeping `focus` (the person's words) in particular. */
export function summaryRequest(model: string, spec: ModelSpec, removed: readonly ConversationMessage[], window: number, focus: string): ProviderRequest {
  return {
    model,
    // Thinking spends the same max_tokens as the summary; leave room for both.
    maxTokens: summaryMaxTokens(spec),
    system: [{ type: 'text', text: SUMMARY_SYSTEM_PROMPT }],
    tools: [],
    messages: [{ role: 'user', content: `${transcriptOf(removed, Math.floor(window * 2))}\n\nSummarize the conversation above.${focus ? ` Keep in particular: ${focus}` : ''}` }],
    thinking: thinkingFor(spec),
  };
}

/** The summary a reply holds; null when it has no text. */
export function summaryOf(reply: AssistantReply): string | null {
  return (
    reply.content
      .flatMap((block) => (block.type === 'text' ? [block.text] : []))
      .join('\n')
      .trim() || null
  );
}
