/**
 * A subagent's own transcript, in place of the session's: its messages (markdown), tool cards
 * with their output, and its prompts, which can be answered here too. A subagent's run is short,
 * so its rows are drawn whole rather than virtualized.
 */
import { useEffect, useLayoutEffect, useMemo, useRef } from 'react';
import { useCove } from '../../store';
import { duration } from '../../ui/format';
import { useNow } from '../../ui/use-now';
import { EMPTY_TRANSCRIPT, waitingSubagentIds } from '../transcript/model';
import { TranscriptRow } from '../transcript/TranscriptRow';
import { useFollow } from '../transcript/use-follow';
import { SUBAGENT_PHASES, subagentElapsed, subagentPhase } from './subagent-status';
import { useSubagentView } from './subagent-view';

export function SubagentTranscript({ sessionId, subagentId }: { sessionId: string; subagentId: string }) {
  const session = useCove((state) => (state.transcript?.sessionId === sessionId ? state.transcript.state : EMPTY_TRANSCRIPT));
  const agent = session.subagents.find((candidate) => candidate.id === subagentId);
  const own = session.subagentTranscripts[subagentId] ?? EMPTY_TRANSCRIPT;
  const close = useSubagentView((state) => state.close);
  const now = useNow(1000, agent?.status === 'running');
  const scroller = useRef<HTMLDivElement>(null);
  const back = useRef<HTMLButtonElement>(null);
  const { following, atBottom, onScroll, jumpToLatest } = useFollow(scroller);
  // Its end marker's usage and Retry belong to the session's run, not to this one.
  const items = useMemo(() => own.items.filter((item) => item.kind !== 'runEnd'), [own.items]);
  const newestPendingKey = items.findLast((item) => item.kind === 'permission' && !item.decision && !item.expired)?.key ?? null;

  useEffect(() => back.current?.focus(), []);
  useLayoutEffect(() => {
    const element = scroller.current;
    if (element && following.current) element.scrollTop = element.scrollHeight;
  }, [items, following]);

  if (!agent) {
    return (
      <div className="transcript-frame">
        <p className="empty" role="status">
          This subagent is no longer in the session.{' '}
          <button type="button" onClick={close}>
            Back to the session
          </button>
        </p>
      </div>
    );
  }
  const phase = SUBAGENT_PHASES[subagentPhase(agent, waitingSubagentIds(session))];
  return (
    <div className="transcript-frame subagent-transcript">
      <header className="subagent-transcript-head">
        <button ref={back} type="button" onClick={close}>
          ← Back to the session
        </button>
        <strong>Subagent {agent.displayName}</strong>
        <span className="subagent-status">{phase.label}</span>
        <span className="subagent-elapsed">{duration(subagentElapsed(agent, now))}</span>
        <p className="subagent-task" title={agent.task}>
          {agent.task}
        </p>
      </header>
      <div ref={scroller} className="transcript" role="region" aria-label={`Transcript of subagent ${agent.displayName}`} tabIndex={0} data-transcript onScroll={onScroll}>
        {items.length === 0 ? (
          <p className="empty" role="status">
            {agent.status === 'running' ? 'Starting…' : 'It did nothing that shows here.'}
          </p>
        ) : (
          items.map((item) => (
            <div key={item.key} className="transcript-row static">
              <TranscriptRow item={item} sessionId={sessionId} newestPending={item.key === newestPendingKey} />
            </div>
          ))
        )}
      </div>
      {atBottom ? null : (
        <button type="button" className="jump-latest" onClick={jumpToLatest}>
          Jump to latest
        </button>
      )}
    </div>
  );
}
