/** Matches across every session, with the matched words highlighted. */
import { useCove } from '../../store';
import { displayTitle, folderName, relativeTime } from '../../ui/format';
import { StatusBadge } from '../../ui/StatusBadge';
import { useNow } from '../../ui/use-now';
import { InlineMarkdown } from '../transcript/Markdown';

export function SearchResults() {
  const results = useCove((state) => state.searchResults);
  const error = useCove((state) => state.searchError);
  const selectSession = useCove((state) => state.selectSession);
  const now = useNow(30_000);
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
    <ul className="session-list search-results" aria-label="Search results">
      {results.map((result, index) => (
        <li key={`${result.sessionId}:${index}`} className="session-row">
          <button type="button" className="session-open" onClick={() => selectSession(result.sessionId)}>
            <span className="session-title">{displayTitle(result.title)}</span>
            <span className="snippet">
              <InlineMarkdown text={result.snippet} marks />
            </span>
            <span className="session-meta">
              <span className="session-folder">{result.workspaces[0] ? folderName(result.workspaces[0]) : ''}</span>
              <span className="session-time">{relativeTime(result.updatedAt, now)}</span>
            </span>
            <StatusBadge status={result.status} />
          </button>
        </li>
      ))}
    </ul>
  );
}
