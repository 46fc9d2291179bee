/**
 * What a Retry or Resume goes on from. A run that failed or was cut off by a crash leaves the
 * history ending with the person's turn (the prompt, or tool results), or with the model's tool
 * calls that never got answers (the agent answers those as interrupted). Either can go on
 * without sending the prompt again; a history that ends with the model's finished reply cannot.
 */
import type { ConversationMessage } from '../agent/types';

/** The text of the prompt the interrupted work started from, or undefined when there is nothing to go on with. */
export function promptToResume(messages: readonly ConversationMessage[]): string | undefined {
  const last = messages.at(-1);
  if (!last) return undefined;
  const pendingCalls = last.role === 'assistant' && Array.isArray(last.content) && last.content.some((block) => block.type === 'tool_use');
  if (last.role !== 'user' && !pendingCalls) return undefined;
  for (let index = messages.length - 1; index >= 0; index--) {
    const message = messages[index]!;
    if (message.role !== 'user') continue;
    const text = typeof message.content === 'string' ? message.content : message.content.flatMap((block) => (block.type === 'text' ? [block.text] : [])).join('\n');
    if (text.trim() !== '') return text;
  }
  return '';
}

export class NothingToResumeError extends Error {
  constructor(sessionId: string) {
    super(`session ${sessionId} has nothing to retry: its last run ended with the model's reply; send a new message instead`);
    this.name = 'NothingToResumeError';
  }
}
