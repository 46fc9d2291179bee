/** One session in the list: title (renamable in place), folder, status, last activity, waiting prompts. */
import { memo, useState } from 'react';
import type { SessionSummary } from '../../../shared/contract';
import { prefetchSessionView } from '../../app/feature-chunks';
import { useCove } from '../../store';
import { displayTitle, folderName, relativeTime } from '../../ui/format';
import { StatusBadge } from '../../ui/StatusBadge';
import { useNow } from '../../ui/use-now';

interface SessionRowProps {
  session: SessionSummary;
  pendingCount: number;
  /** The row's place in the virtualized list, its offset from the top, and what measures its height. */
  index: number;
  start: number;
  measure(element: HTMLElement | null): void;
  /** How many sessions the list holds; -1 while older ones are still to load. */
  setSize: number;
  posInSet: number;
}

export const SessionRow = memo(function SessionRow({ session, pendingCount, index, start, measure, setSize, posInSet }: SessionRowProps) {
  const active = useCove((state) => state.activeSessionId === session.id);
  const selectSession = useCove((state) => state.selectSession);
  const [renaming, setRenaming] = useState(false);
  const now = useNow(30_000);
  const folder = session.workspaces[0] ? folderName(session.workspaces[0]) : 'no folder';
  const title = displayTitle(session.title);

  return (
    <li
      ref={measure}
      data-index={index}
      style={{ transform: `translateY(${start}px)` }}
      className={`session-row${active ? ' active' : ''}`}
      data-session-id={session.id}
      aria-label={title}
      aria-setsize={setSize}
      aria-posinset={posInSet}
    >
      {renaming ? (
        <RenameField session={session} onDone={() => setRenaming(false)} />
      ) : (
        <button
          type="button"
          className="session-open"
          title={title}
          aria-current={active ? 'page' : undefined}
          // The pointer or focus on a row is the surest sign of a click to come: the session
          // view's chunk starts now if the idle prefetch has not brought it yet.
          onPointerEnter={prefetchSessionView}
          onPointerDown={prefetchSessionView}
          onFocus={prefetchSessionView}
          onClick={() => selectSession(session.id)}
          onDoubleClick={() => setRenaming(true)}
        >
          <span className="session-title">{title}</span>
          <span className="session-meta">
            <span className="session-folder" title={session.workspaces.join('\n')}>
              {folder}
            </span>
            <span className="session-time">{relativeTime(session.updatedAt, now)}</span>
          </span>
          <span className="session-badges">
            <StatusBadge status={session.status} />
            {pendingCount > 0 ? (
              <span className="badge pending-badge">
                {pendingCount} {pendingCount === 1 ? 'prompt' : 'prompts'} waiting
              </span>
            ) : null}
          </span>
        </button>
      )}
      {renaming ? null : (
        <button type="button" className="icon-button rename-button" aria-label="Rename" title="Rename this session" onClick={() => setRenaming(true)}>
          ✎
        </button>
      )}
    </li>
  );
});

function RenameField({ session, onDone }: { session: SessionSummary; onDone(): void }) {
  const renameSession = useCove((state) => state.renameSession);
  const [title, setTitle] = useState(session.title);
  const save = async () => {
    const next = title.trim();
    if (next !== '' && next !== session.title) await renameSession(session.id, next);
    onDone();
  };
  return (
    <input
      className="rename-input"
      aria-label="Session title"
      value={title}
      autoFocus
      maxLength={200}
      onFocus={(event) => event.target.select()}
      onChange={(event) => setTitle(event.target.value)}
      onBlur={() => void save()}
      onKeyDown={(event) => {
        if (event.key === 'Enter') {
          event.preventDefault();
          void save();
        } else if (event.key === 'Escape') {
          event.preventDefault();
          onDone();
        }
      }}
    />
  );
}
