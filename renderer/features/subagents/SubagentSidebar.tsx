/**
 * The right column while the session has subagents: who, what, how long, latest step, Cancel.
 * A row opens the subagent's own transcript in place of the session's; one whose prompt is open
 * says it waits for you.
 */
import { memo, useMemo } from 'react';
import { useCove } from '../../store';
import { ask } from '../../store/request';
import { duration } from '../../ui/format';
import { useNow } from '../../ui/use-now';
import { waitingSubagentIds } from '../transcript/model';
import type { SubagentState } from '../transcript/model-types';
import { SUBAGENT_PHASES, subagentCount, subagentElapsed, subagentPhase, type SubagentPhase } from './subagent-status';
import { useSubagentView } from './subagent-view';

const EMPTY: SubagentState[] = [];

export function SubagentSidebar() {
  const sessionId = useCove((state) => state.transcript?.sessionId ?? null);
  const subagents = useCove((state) => state.transcript?.state.subagents ?? EMPTY);
  const transcript = useCove((state) => state.transcript?.state ?? null);
  const openId = useSubagentView((state) => (state.open && state.open.sessionId === sessionId ? state.open.subagentId : null));
  // Prompts change rarely; the item list on every delta, so the set is kept while it is equal.
  const waitingKey = transcript ? [...waitingSubagentIds(transcript)].join(' ') : '';
  const waiting = useMemo(() => new Set(waitingKey ? waitingKey.split(' ') : []), [waitingKey]);
  if (!sessionId || subagents.length === 0) return null;
  return (
    <aside className="subagents-panel" aria-label="Subagents">
      <h2>
        Subagents <span className="count">{subagentCount(subagents, waiting)}</span>
      </h2>
      <ul className="subagent-list">
        {subagents.map((agent) => (
          <SubagentRow key={agent.id} agent={agent} sessionId={sessionId} phase={subagentPhase(agent, waiting)} opened={agent.id === openId} />
        ))}
      </ul>
    </aside>
  );
}

interface RowProps {
  agent: SubagentState;
  sessionId: string;
  phase: SubagentPhase;
  opened: boolean;
}

const SubagentRow = memo(function SubagentRow({ agent, sessionId, phase, opened }: RowProps) {
  const running = agent.status === 'running';
  const now = useNow(1000, running);
  const status = SUBAGENT_PHASES[phase];
  const openSubagent = useSubagentView((state) => state.openSubagent);
  const close = useSubagentView((state) => state.close);
  return (
    <li className={`subagent subagent-${phase}${opened ? ' opened' : ''}`} aria-label={`Subagent ${agent.displayName}: ${status.label}`}>
      <div className="subagent-head">
        <span className={phase === 'running' ? 'spin' : undefined} aria-hidden="true">
          {status.icon}
        </span>
        <button
          type="button"
          className="subagent-open link-button"
          aria-pressed={opened}
          aria-label={`Open subagent ${agent.displayName}`}
          onClick={() => (opened ? close() : openSubagent(sessionId, agent.id))}
        >
          {agent.displayName}
        </button>
        <span className="subagent-status">{status.label}</span>
        <span className="subagent-elapsed">{duration(subagentElapsed(agent, now))}</span>
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
