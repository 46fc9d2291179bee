/**
 * Which subagent made a tool call. A session's permission gate is shared by its agent and all
 * its subagents, and asks by tool call id alone; the subagent's own reply, published before its
 * tools run, names the calls it makes, so a prompt can carry the asker's `subagentId` (SPEC §4)
 * and a window can say which subagent asks.
 */
import type { CoveEvent } from '../../../shared/events';

export class SubagentCalls {
  private readonly owners = new Map<string, string>();

  /** Learns from each event as it is published; forgets a call once it ended. */
  note(event: CoveEvent): void {
    if (event.type === 'messageEnd' && event.subagentId !== undefined) {
      for (const block of event.content) if (block.type === 'tool_use') this.owners.set(block.id, event.subagentId);
    } else if (event.type === 'toolExecutionEnd') this.owners.delete(event.toolCallId);
  }

  of(toolCallId: string): string | undefined {
    return this.owners.get(toolCallId);
  }
}
