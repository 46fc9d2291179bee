/** The left column: New session, search across sessions, and the list. Folders dropped here start a session. */
import { useEffect, useMemo } from 'react';
import { SEARCH_INPUT_ID, startNewSession } from '../../app/use-global-shortcuts';
import { useCove } from '../../store';
import { useFolderDrop } from '../workspace/use-folder-drop';
import { SearchResults } from './SearchResults';
import { SessionRow } from './SessionRow';
import { pendingCounts, sortedSessions } from './sorted-sessions';

const SEARCH_DELAY_MS = 200;

export function SessionsPanel() {
  const searchText = useCove((state) => state.searchText);
  const setSearchText = useCove((state) => state.setSearchText);
  const runSearch = useCove((state) => state.runSearch);
  const startSessionWith = useCove((state) => state.startSessionWith);
  const drop = useFolderDrop((paths) => void startSessionWith(paths));

  useEffect(() => {
    if (searchText.trim() === '') return;
    const timer = setTimeout(() => void runSearch(searchText), SEARCH_DELAY_MS);
    return () => clearTimeout(timer);
  }, [searchText, runSearch]);

  return (
    <nav className={`sessions-panel${drop.over ? ' drop-target' : ''}`} aria-label="Sessions" {...drop.handlers}>
      <div className="sessions-toolbar">
        <button type="button" className="primary" onClick={startNewSession}>
          New session
        </button>
      </div>
      <div className="sessions-search">
        <input
          id={SEARCH_INPUT_ID}
          type="search"
          aria-label="Search sessions"
          placeholder="Search sessions (Ctrl+K)"
          value={searchText}
          onChange={(event) => setSearchText(event.target.value)}
          onKeyDown={(event) => {
            if (event.key === 'Escape') setSearchText('');
          }}
        />
      </div>
      {searchText.trim() !== '' ? <SearchResults /> : <SessionList />}
    </nav>
  );
}

function SessionList() {
  const sessions = useCove((state) => state.sessions);
  const pending = useCove((state) => state.pending);
  const loaded = useCove((state) => state.sessionsLoaded);
  const ordered = useMemo(() => sortedSessions(sessions), [sessions]);
  const counts = useMemo(() => pendingCounts(sessions, pending), [sessions, pending]);
  if (loaded && ordered.length === 0) return <p className="empty">No sessions yet. Drop a project folder here to start one.</p>;
  return (
    <ul className="session-list" aria-label="Session list">
      {ordered.map((session) => (
        <SessionRow key={session.id} session={session} pendingCount={counts[session.id] ?? 0} />
      ))}
    </ul>
  );
}
