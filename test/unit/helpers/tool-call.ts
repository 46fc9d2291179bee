/** A tool call as middleware sees it, for tests that only care about its id and sensitivity. */
import type { ToolCallRequest } from '../../../electron/core/agent/types';

export function toolCall(toolCallId: string, fields: Partial<ToolCallRequest> = {}): ToolCallRequest {
  return {
    sessionId: 's1',
    toolCallId,
    toolName: 'bash',
    args: {},
    sensitivity: 'mutating',
    workspaceRoots: [],
    signal: new AbortController().signal,
    messages: [],
    runPrompts: [],
    userRequest: () => undefined,
    ...fields,
  };
}
