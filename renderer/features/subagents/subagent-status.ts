/** How a subagent's state reads, in the sidebar and in its own transcript's header. */
import type { SubagentState, SubagentStatus } from '../transcript/model-types';

export type SubagentPhase = SubagentStatus | 'waiting';

export const SUBAGENT_PHASES: Record<SubagentPhase, { icon: string; label: string }> = {
  running: { icon: '◐', label: 'Running' },
  waiting: { icon: '?', label: 'Waiting for you' },
  done: { icon: '✓', label: 'Done' },
  failed: { icon: '✕', label: 'Failed' },
  cancelled: { icon: '■', label: 'Cancelled' },
};

/** A running subagent with a prompt of its open is waiting for the person, not running. */
export function subagentPhase(agent: SubagentState, waiting: ReadonlySet<string>): SubagentPhase {
  return agent.status === 'running' && waiting.has(agent.id) ? 'waiting' : agent.status;
}

/** From its events' times: the same before and after a reload. Ended without an end event (the app closed): up to its last event. */
export function subagentElapsed(agent: SubagentState, now: number): number {
  const end = agent.endedAt ?? (agent.status === 'running' ? now : agent.lastAt);
  return Math.max(0, end - agent.startedAt);
}
