/**
 * Full-text search across sessions: every message ever stored (superseded ones included) is
 * ranked by bm25, each session is represented by its best message, and sessions come back
 * best first.
 */
import type { Database } from 'better-sqlite3';
import { toMatchQuery } from './search-query';
import type { SearchHit, SessionStatus } from './types';

export const SNIPPET_OPEN = '«';
export const SNIPPET_CLOSE = '»';
const SNIPPET_TOKENS = 16;

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
  // bm25 is lower for better matches; ROW_NUMBER picks each session's best message so the
  // snippet shows the passage that ranked the session.
  const select = db.prepare<{ query: string; limit: number }, HitRow>(`
    WITH hits AS (
      SELECT m.session_id, bm25(messages_fts) AS rank,
        snippet(messages_fts, 0, '${SNIPPET_OPEN}', '${SNIPPET_CLOSE}', '…', ${SNIPPET_TOKENS}) AS snippet
      FROM messages_fts JOIN messages m ON m.id = messages_fts.rowid
      WHERE messages_fts MATCH @query
    ),
    best AS (
      SELECT session_id, rank, snippet,
        ROW_NUMBER() OVER (PARTITION BY session_id ORDER BY rank) AS place,
        COUNT(*) OVER (PARTITION BY session_id) AS matches
      FROM hits
    )
    SELECT s.id AS session_id, s.title, best.snippet, best.matches, s.updated_at, s.workspaces, s.status
    FROM best JOIN sessions s ON s.id = best.session_id
    WHERE best.place = 1
    ORDER BY best.rank, s.updated_at DESC
    LIMIT @limit`);

  return {
    search(text: string, options: { limit?: number } = {}): SearchHit[] {
      const query = toMatchQuery(text);
      if (query === null) return [];
      return select.all({ query, limit: options.limit ?? 20 }).map((row) => ({
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
