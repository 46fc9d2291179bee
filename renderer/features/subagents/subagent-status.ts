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

/**
 * The count beside "Subagents" (the panel's heading and its top-bar button): those at work and
 * those waiting for the person, apart, since a waiting one needs the person and a running one
 * does not; how many there are once none is at work.
 */
export function subagentCount(subagents: readonly SubagentState[], waiting: ReadonlySet<string>): string {
  let running = 0;
  let asking = 0;
  for (const agent of subagents) {
    const phase = subagentPhase(agent, waiting);
    if (phase === 'running') running++;
    else if (phase === 'waiting') asking++;
  }
  const parts = [running > 0 ? `${running} running` : null, asking > 0 ? `${asking} waiting` : null].filter((part) => part !== null);
  return parts.length > 0 ? parts.join(', ') : String(subagents.length);
}
