/**
 * PostToolUse hooks as a tool wrapper: the tool runs as before, then the hooks see its result
 * (redacted, as the model will) and what they say back is added to the result the model reads.
 * A failed tool is not reported to PostToolUse, as in Claude Code.
 */
import { redactResult } from '../agent/redaction';
import type { Tool, ToolSource } from '../agent/types';
import type { SessionHooks } from './session-hooks';

export function withPostToolHooks(tool: Tool, hooks: SessionHooks, subagentId?: string): Tool {
  return {
    ...tool,
    async execute(params, ctx) {
      const result = await tool.execute(params, ctx);
      if (!hooks.has('PostToolUse')) return result;
      const response = redactResult(result, ctx.secrets);
      const feedback = await hooks.postToolUse({
        toolName: tool.name,
        toolCallId: ctx.toolCallId,
        args: params,
        response: { content: response.content, ...(response.details === undefined ? {} : { details: response.details }) },
        subagentId,
        signal: ctx.signal,
      });
      if (feedback.length === 0) return result;
      return { ...result, content: [...result.content, { type: 'text', text: feedback.join('\n') }] };
    },
  };
}

export function hookedTools(tools: readonly Tool[], hooks: SessionHooks | undefined): Tool[] {
  return hooks ? tools.map((tool) => withPostToolHooks(tool, hooks)) : [...tools];
}

export function hookedSources(sources: readonly ToolSource[], hooks: SessionHooks | undefined): ToolSource[] {
  if (!hooks) return [...sources];
  return sources.map((source) => ({ name: source.name, tools: async (signal) => (await source.tools(signal)).map((tool) => withPostToolHooks(tool, hooks)) }));
}
