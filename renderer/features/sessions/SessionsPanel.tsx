/** The left column: New session, search across sessions, and the list. Folders dropped here start a session. */
import { useEffect } from 'react';
import { LazySearchResults } from '../../app/lazy-features';
import { SEARCH_INPUT_ID, startNewSession } from '../../app/use-global-shortcuts';
import { useCove } from '../../store';
import { useFolderDrop } from '../workspace/use-folder-drop';
import { SessionList } from './SessionList';

const SEARCH_DELAY_MS = 200;
/** The panel's id, for the button that opens and closes it. */
export const SESSIONS_PANEL_ID = 'sessions-panel';

export function SessionsPanel() {
  const searchText = useCove((state) => state.searchText);
  const setSearchText = useCove((state) => state.setSearchText);
  const runSearch = useCove((state) => state.runSearch);
  const startSessionWith = useCove((state) => state.startSessionWith);
  const grouping = useCove((state) => state.sessionGrouping);
  const setGrouping = useCove((state) => state.setSessionGrouping);
  const drop = useFolderDrop((paths) => void startSessionWith(paths));

  useEffect(() => {
    if (searchText.trim() === '') return;
    const timer = setTimeout(() => void runSearch(searchText), SEARCH_DELAY_MS);
    return () => clearTimeout(timer);
  }, [searchText, runSearch]);

  return (
    <nav id={SESSIONS_PANEL_ID} className={`sessions-panel${drop.over ? ' drop-target' : ''}`} aria-label="Sessions" {...drop.handlers}>
      <div className="sessions-toolbar">
        <button type="button" className="primary" onClick={startNewSession}>
          New session
        </button>
        <select className="session-grouping" aria-label="Group sessions by" value={grouping} onChange={(event) => setGrouping(event.target.value === 'project' ? 'project' : 'date')}>
          <option value="date">By date</option>
          <option value="project">By project</option>
        </select>
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
      {searchText.trim() !== '' ? <LazySearchResults /> : <SessionList />}
    </nav>
  );
}
