/**
 * The events needed to redraw a session, in order, and the tool calls they describe.
 *
 * Performance: a batch is one IMMEDIATE transaction over statements prepared once per store, so
 * 1,000 events cost one WAL commit (no fsync with synchronous = NORMAL) rather than 1,000:
 * measured at about 6 ms per 1,000-event batch against about 65 ms for 1,000 single-event
 * calls. Callers should buffer events and flush them together rather than write each one.
 */
import type { Database } from 'better-sqlite3';
import type { CoveEvent } from '../../../shared/events';
import type { StoredEvent, ToolCallRecord, ToolCallStatus } from './types';
import { StoreError } from './types';

interface ToolCallRow {
  session_id: string;
  tool_call_id: string;
  tool_name: string;
  args: string;
  status: ToolCallStatus;
  subagent_id: string | null;
  started_at: number;
  ended_at: number | null;
}

export function eventQueries(db: Database, now: () => number, touchSession: (id: string, at: number) => void) {
  const lastSeq = db.prepare<[string], number>('SELECT coalesce(max(seq), 0) FROM events WHERE session_id = ?').pluck();
  const insert = db.prepare('INSERT INTO events (session_id, seq, type, data, created_at) VALUES (?, ?, ?, ?, ?)');
  // A repeated start (a retried call) restarts the record rather than failing the batch.
  const startCall = db.prepare(`
    INSERT INTO tool_calls (session_id, tool_call_id, tool_name, args, status, subagent_id, started_at)
    VALUES (@sessionId, @toolCallId, @toolName, @args, 'running', @subagentId, @at)
    ON CONFLICT (session_id, tool_call_id) DO UPDATE SET
      tool_name = excluded.tool_name, args = excluded.args, status = 'running',
      subagent_id = excluded.subagent_id, started_at = excluded.started_at, ended_at = NULL`);
  // An end without a start (a call denied before it ran) is still recorded.
  const endCall = db.prepare(`
    INSERT INTO tool_calls (session_id, tool_call_id, tool_name, args, status, subagent_id, started_at, ended_at)
    VALUES (@sessionId, @toolCallId, @toolName, 'null', @status, @subagentId, @at, @at)
    ON CONFLICT (session_id, tool_call_id) DO UPDATE SET status = excluded.status, ended_at = excluded.ended_at`);
  const selectEvents = db.prepare<[string, number, number, number], { seq: number; type: string; data: string }>(
    'SELECT seq, type, data FROM events WHERE session_id = ? AND seq > ? AND seq <= ? ORDER BY seq LIMIT ?',
  );
  // The row as the event it was published as, built by string concatenation in SQLite: `data`
  // is the JSON object of the other fields, written by JSON.stringify below.
  const selectEventTexts = db
    .prepare<[string, string, number, number, number], string>(
      `
    SELECT '{"type":' || json_quote(type) || ',"sessionId":' || json_quote(?) || ',"seq":' || seq ||
      CASE WHEN data = '{}' THEN '}' ELSE ',' || substr(data, 2) END
    FROM events WHERE session_id = ? AND seq > ? AND seq <= ? ORDER BY seq LIMIT ?`,
    )
    .pluck();
  // A run's own prompt (not a steering message, not a subagent's) is where a redraw can start.
  const firstPrompt = db
    .prepare<[string, number], number | null>(
      `
    SELECT min(seq) FROM events WHERE session_id = ? AND seq > ? AND type = 'userMessage'
      AND json_extract(data, '$.steered') = 0 AND json_extract(data, '$.subagentId') IS NULL`,
    )
    .pluck();
  const selectCalls = db.prepare<{ sessionId: string; status: ToolCallStatus | null }, ToolCallRow>(`
    SELECT * FROM tool_calls WHERE session_id = @sessionId AND (@status IS NULL OR status = @status)
    ORDER BY started_at, rowid`);

  const append = db.transaction((sessionId: string, events: readonly CoveEvent[]): number => {
    const at = now();
    touchSession(sessionId, at);
    let seq = lastSeq.get(sessionId)!;
    for (const event of events) {
      // A published event keeps the number it was sent with. One without (an import), or one a
      // second process numbered from a log that has since grown, is numbered next: kept, not lost.
      const { type, sessionId: _owner, seq: given, ...data } = event;
      seq = given !== undefined && given > seq ? given : seq + 1;
      insert.run(sessionId, seq, type, JSON.stringify(data), at);
      if (event.type === 'toolExecutionStart') {
        startCall.run({
          sessionId,
          toolCallId: event.toolCallId,
          toolName: event.toolName,
          args: JSON.stringify(event.args ?? null),
          subagentId: event.subagentId ?? null,
          at,
        });
      } else if (event.type === 'toolExecutionEnd') {
        endCall.run({
          sessionId,
          toolCallId: event.toolCallId,
          toolName: event.toolName,
          status: event.isError ? 'error' : 'done',
          subagentId: event.subagentId ?? null,
          at,
        });
      }
    }
    return seq;
  });

  return {
    lastEventSeq(sessionId: string): number {
      return lastSeq.get(sessionId)!;
    },

    redrawStart(sessionId: string, untilSeq: number, count: number): number {
      const from = Math.max(0, untilSeq - count);
      const prompt = firstPrompt.get(sessionId, from);
      return prompt === null || prompt === undefined ? from : prompt - 1;
    },

    appendEvents(sessionId: string, events: readonly CoveEvent[]): number {
      events.forEach((event, index) => {
        if (event.sessionId !== sessionId) {
          throw new StoreError('invalidInput', `events[${index}] (${event.type}) belongs to session ${event.sessionId}, not ${sessionId}`);
        }
      });
      return append.immediate(sessionId, events);
    },

    loadEvents(sessionId: string, options: { afterSeq?: number; untilSeq?: number; limit?: number } = {}): StoredEvent[] {
      return selectEvents
        .all(sessionId, options.afterSeq ?? 0, options.untilSeq ?? Number.MAX_SAFE_INTEGER, options.limit ?? -1)
        .map((row) => ({ type: row.type, sessionId, ...JSON.parse(row.data), seq: row.seq }) as StoredEvent);
    },

    loadEventTexts(sessionId: string, options: { afterSeq?: number; untilSeq?: number; limit?: number } = {}): string[] {
      return selectEventTexts.all(sessionId, sessionId, options.afterSeq ?? 0, options.untilSeq ?? Number.MAX_SAFE_INTEGER, options.limit ?? -1);
    },

    listToolCalls(sessionId: string, options: { status?: ToolCallStatus } = {}): ToolCallRecord[] {
      return selectCalls.all({ sessionId, status: options.status ?? null }).map((row) => ({
        sessionId: row.session_id,
        toolCallId: row.tool_call_id,
        toolName: row.tool_name,
        args: JSON.parse(row.args),
        status: row.status,
        subagentId: row.subagent_id,
        startedAt: row.started_at,
        endedAt: row.ended_at,
      }));
    },
  };
}
