/** The right column while the session has subagents: who, what, how long, latest step, Cancel. */
import { memo } from 'react';
import { useCove } from '../../store';
import { ask } from '../../store/request';
import { duration } from '../../ui/format';
import { useNow } from '../../ui/use-now';
import type { SubagentState, SubagentStatus } from '../transcript/model-types';

const EMPTY: SubagentState[] = [];

const STATUS: Record<SubagentStatus, { icon: string; label: string }> = {
  running: { icon: '◐', label: 'Running' },
  done: { icon: '✓', label: 'Done' },
  failed: { icon: '✕', label: 'Failed' },
  cancelled: { icon: '■', label: 'Cancelled' },
};

export function SubagentSidebar() {
  const sessionId = useCove((state) => state.transcript?.sessionId ?? null);
  const subagents = useCove((state) => state.transcript?.state.subagents ?? EMPTY);
  if (!sessionId || subagents.length === 0) return null;
  const running = subagents.filter((agent) => agent.status === 'running').length;
  return (
    <aside className="subagents-panel" aria-label="Subagents">
      <h2>
        Subagents <span className="count">{running > 0 ? `${running} running` : `${subagents.length}`}</span>
      </h2>
      <ul className="subagent-list">
        {subagents.map((agent) => (
          <SubagentRow key={agent.id} agent={agent} sessionId={sessionId} />
        ))}
      </ul>
    </aside>
  );
}

const SubagentRow = memo(function SubagentRow({ agent, sessionId }: { agent: SubagentState; sessionId: string }) {
  const running = agent.status === 'running';
  const now = useNow(1000, running);
  const status = STATUS[agent.status];
  const elapsed = (agent.endedAt ?? (running ? now : agent.startedAt)) - agent.startedAt;
  return (
    <li className={`subagent subagent-${agent.status}`} aria-label={`Subagent ${agent.displayName}: ${status.label}`}>
      <div className="subagent-head">
        <span className={running ? 'spin' : undefined} aria-hidden="true">
          {status.icon}
        </span>
        <strong className="subagent-name">{agent.displayName}</strong>
        <span className="subagent-status">{status.label}</span>
        <span className="subagent-elapsed">{duration(elapsed)}</span>
      </div>
      <p className="subagent-task" title={agent.task}>
        {agent.task}
      </p>
      {agent.latest ? <p className="subagent-latest">{agent.latest}</p> : null}
      {running ? (
        <button type="button" className="danger small" aria-label={`Cancel subagent ${agent.displayName}`} onClick={() => void ask('subagent:cancel', { sessionId, subagentId: agent.id })}>
          Cancel
        </button>
      ) : null}
    </li>
  );
});
