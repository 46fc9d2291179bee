/**
 * Matches across every session, with the matched words highlighted. A result opens its session
 * at the matched message; ArrowDown from the search box goes into the results, ArrowUp and
 * ArrowDown move through them (and back up to the box).
 */
import { useEffect, useRef, type KeyboardEvent } from 'react';
import { SEARCH_INPUT_ID } from '../../app/use-global-shortcuts';
import { useCove } from '../../store';
import { useSearchTarget } from '../transcript/search-target';
import { displayTitle, folderName, relativeTime } from '../../ui/format';
import { StatusBadge } from '../../ui/StatusBadge';
import { useNow } from '../../ui/use-now';
import { InlineMarkdown } from '../transcript/Markdown';

export function SearchResults() {
  const results = useCove((state) => state.searchResults);
  const error = useCove((state) => state.searchError);
  const selectSession = useCove((state) => state.selectSession);
  const now = useNow(30_000);
  const list = useRef<HTMLUListElement>(null);

  // The search box belongs to the sessions panel; its ArrowDown leads here.
  useEffect(() => {
    const onKeyDown = (event: globalThis.KeyboardEvent) => {
      if (event.key !== 'ArrowDown' || (event.target as HTMLElement | null)?.id !== SEARCH_INPUT_ID) return;
      const first = list.current?.querySelector<HTMLButtonElement>('button.session-open');
      if (!first) return;
      event.preventDefault();
      first.focus();
    };
    document.addEventListener('keydown', onKeyDown);
    return () => document.removeEventListener('keydown', onKeyDown);
  }, []);

  const open = (sessionId: string, snippet: string) => {
    useSearchTarget.getState().show(sessionId, snippet);
    selectSession(sessionId);
  };
  const move = (event: KeyboardEvent<HTMLButtonElement>) => {
    if (event.key !== 'ArrowDown' && event.key !== 'ArrowUp') return;
    event.preventDefault();
    const buttons = [...(list.current?.querySelectorAll<HTMLButtonElement>('button.session-open') ?? [])];
    const next = buttons.indexOf(event.currentTarget) + (event.key === 'ArrowDown' ? 1 : -1);
    if (next < 0) document.getElementById(SEARCH_INPUT_ID)?.focus();
    else buttons[Math.min(next, buttons.length - 1)]?.focus();
  };
  if (error)
    return (
      <p role="alert" className="inline-error">
        {error}
      </p>
    );
  if (results === null)
    return (
      <p className="empty" role="status">
        Searching…
      </p>
    );
  if (results.length === 0)
    return (
      <p className="empty" role="status">
        No session matches.
      </p>
    );
  return (
    <ul ref={list} className="session-list search-results" aria-label="Search results">
      {results.map((result, index) => (
        <li key={`${result.sessionId}:${index}`} className="session-row">
          <button type="button" className="session-open" onClick={() => open(result.sessionId, result.snippet)} onKeyDown={move}>
            <span className="session-title">{displayTitle(result.title)}</span>
            <span className="snippet">
              <InlineMarkdown text={result.snippet} marks />
            </span>
            {result.matches !== undefined && result.matches > 1 ? <span className="search-matches">{result.matches} matching messages</span> : null}
            <span className="session-meta">
              <span className="session-folder">{result.workspaces[0] ? folderName(result.workspaces[0]) : ''}</span>
              <span className="session-time">{relativeTime(result.updatedAt, now)}</span>
            </span>
            <span className="session-badges">
              <StatusBadge status={result.status} />
            </span>
          </button>
        </li>
      ))}
    </ul>
  );
}
