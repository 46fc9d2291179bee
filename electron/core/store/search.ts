/**
 * Full-text search across sessions: messages ever stored (superseded ones included) are ranked
 * by bm25, each session is represented by its best message, and sessions come back best first.
 * Only the newest CANDIDATES matching messages are ranked: a common word matches most of the
 * store (51,000 messages of 60,000 at 10,000 sessions), and scoring all of them cost 100 ms
 * on its own; a word that rare is ranked in full, whatever its age. A session's `matches`
 * counts its messages among those ranked.
 */
import type { Database } from 'better-sqlite3';
import { toMatchQuery } from './search-query';
import type { SearchHit, SessionStatus } from './types';

export const SNIPPET_OPEN = '«';
export const SNIPPET_CLOSE = '»';
const SNIPPET_TOKENS = 16;
/** How many of the newest matching messages are ranked; about 330 sessions' worth at six messages each. */
export const CANDIDATES = 2000;

interface HitRow {
  session_id: string;
  title: string;
  snippet: string;
  matches: number;
  updated_at: number;
  workspaces: string;
  status: SessionStatus;
}

export function searchQueries(db: Database) {
  // bm25 is lower for better matches. The best message per session is kept (a bare column
  // beside MIN() takes the values of the row that holds the minimum), the list is cut to
  // `limit`, and only then is a snippet built, for the kept messages alone: building one for
  // every match was most of the time. The final scan starts at the oldest kept message, so it
  // walks only the candidates' part of the index.
  const select = db.prepare<{ query: string; limit: number; candidates: number }, HitRow>(`
    WITH hits AS MATERIALIZED (
      SELECT rowid AS message_id, bm25(messages_fts) AS rank FROM messages_fts
      WHERE messages_fts MATCH @query ORDER BY rowid DESC LIMIT @candidates
    ),
    best AS MATERIALIZED (
      SELECT m.session_id, hits.message_id, MIN(hits.rank) AS rank, COUNT(*) AS matches
      FROM hits JOIN messages m ON m.id = hits.message_id
      GROUP BY m.session_id
      ORDER BY rank, hits.message_id DESC
      LIMIT @limit
    )
    SELECT s.id AS session_id, s.title,
      snippet(messages_fts, 0, '${SNIPPET_OPEN}', '${SNIPPET_CLOSE}', '…', ${SNIPPET_TOKENS}) AS snippet,
      best.matches, s.updated_at, s.workspaces, s.status
    FROM messages_fts
      JOIN best ON best.message_id = messages_fts.rowid
      JOIN sessions s ON s.id = best.session_id
    WHERE messages_fts MATCH @query AND messages_fts.rowid >= (SELECT min(message_id) FROM best)
    ORDER BY best.rank, s.updated_at DESC`);

  return {
    search(text: string, options: { limit?: number } = {}): SearchHit[] {
      const query = toMatchQuery(text);
      if (query === null) return [];
      return select.all({ query, limit: options.limit ?? 20, candidates: CANDIDATES }).map((row) => ({
        sessionId: row.session_id,
        title: row.title,
        snippet: row.snippet,
        matches: row.matches,
        updatedAt: row.updated_at,
        workspaces: JSON.parse(row.workspaces) as string[],
        status: row.status,
      }));
    },
  };
}
