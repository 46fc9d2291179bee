/**
 * The conversation history sent to the model, message by message. Compaction replaces the live
 * history; the replaced rows are kept (marked superseded) so search still finds what was said.
 */
import type { Database } from 'better-sqlite3';
import { messageText, titleFromText } from './message-text';
import type { StoredMessage } from './types';
import { StoreError } from './types';

export function transcriptQueries(db: Database, now: () => number, touchSession: (id: string, at: number) => void) {
  const nextSeq = db.prepare<[string], number>('SELECT coalesce(max(seq), 0) + 1 FROM messages WHERE session_id = ?').pluck();
  const insert = db.prepare(`
    INSERT INTO messages (session_id, seq, role, content, text, created_at)
    VALUES (@sessionId, @seq, @role, @content, @text, @now)`);
  const nameSession = db.prepare("UPDATE sessions SET title = ? WHERE id = ? AND title = ''");
  const supersede = db.prepare('UPDATE messages SET superseded_at = ? WHERE session_id = ? AND superseded_at IS NULL');
  const load = db.prepare<[string], { role: StoredMessage['role']; content: string }>('SELECT role, content FROM messages WHERE session_id = ? AND superseded_at IS NULL ORDER BY seq');

  function insertMessage(sessionId: string, message: StoredMessage, seq: number, at: number): string {
    if (message.role !== 'user' && message.role !== 'assistant') {
      throw new StoreError('invalidInput', `message ${seq} of session ${sessionId}: role must be user or assistant`);
    }
    const text = messageText(message);
    insert.run({ sessionId, seq, role: message.role, content: JSON.stringify(message.content), text, now: at });
    return text;
  }

  const append = db.transaction((sessionId: string, message: StoredMessage): number => {
    const at = now();
    touchSession(sessionId, at);
    const seq = nextSeq.get(sessionId)!;
    const text = insertMessage(sessionId, message, seq, at);
    if (message.role === 'user') {
      const title = titleFromText(text);
      if (title) nameSession.run(title, sessionId);
    }
    return seq;
  });

  const replace = db.transaction((sessionId: string, messages: readonly StoredMessage[]): void => {
    const at = now();
    touchSession(sessionId, at);
    supersede.run(at, sessionId);
    let seq = nextSeq.get(sessionId)!;
    for (const message of messages) insertMessage(sessionId, message, seq++, at);
  });

  return {
    appendMessage(sessionId: string, message: StoredMessage): number {
      return append.immediate(sessionId, message);
    },

    replaceMessages(sessionId: string, messages: readonly StoredMessage[]): void {
      replace.immediate(sessionId, messages);
    },

    loadMessages(sessionId: string): StoredMessage[] {
      return load.all(sessionId).map((row) => ({ role: row.role, content: JSON.parse(row.content) }) as StoredMessage);
    },
  };
}
