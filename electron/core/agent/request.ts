/**
 * Builds the provider request for a turn, with prompt-caching breakpoints on the system prompt,
 * the last tool definition and the latest message: the stable prefix (system + tools) is cached
 * across runs, and the growing conversation is cached from one turn to the next.
 * The stored history is never mutated; breakpoints exist only on the copy that is sent.
 */
import type Anthropic from '@anthropic-ai/sdk';
import type { ProviderRequest } from './provider';
import type { ConversationBlock, ConversationMessage, Tool } from './types';

const EPHEMERAL = { type: 'ephemeral' } as const;

export function toolDefinitions(tools: readonly Tool[]): Anthropic.Tool[] {
  return tools.map((tool, index) => ({
    name: tool.name,
    description: tool.description,
    input_schema: tool.parameters as Anthropic.Tool.InputSchema,
    ...(index === tools.length - 1 ? { cache_control: EPHEMERAL } : {}),
  }));
}

function withBreakpoint(message: ConversationMessage): ConversationMessage {
  const blocks: ConversationBlock[] = typeof message.content === 'string' ? [{ type: 'text', text: message.content }] : [...message.content];
  // Thinking blocks cannot carry cache_control; mark the last block that can.
  for (let i = blocks.length - 1; i >= 0; i--) {
    const block = blocks[i]!;
    if (block.type === 'thinking' || block.type === 'redacted_thinking') continue;
    if (block.type === 'text' && block.text === '') continue;
    blocks[i] = { ...block, cache_control: EPHEMERAL };
    break;
  }
  return { role: message.role, content: blocks };
}

export function buildRequest(options: {
  model: string;
  maxTokens: number;
  systemPrompt: string;
  tools: readonly Tool[];
  messages: readonly ConversationMessage[];
  thinking?: Anthropic.ThinkingConfigParam;
}): ProviderRequest {
  const messages = options.messages.map((message, index) => (index === options.messages.length - 1 ? withBreakpoint(message) : message));
  return {
    model: options.model,
    maxTokens: options.maxTokens,
    system: options.systemPrompt ? [{ type: 'text', text: options.systemPrompt, cache_control: EPHEMERAL }] : [],
    tools: toolDefinitions(options.tools),
    messages: messages as Anthropic.MessageParam[],
    ...(options.thinking ? { thinking: options.thinking } : {}),
  };
}
