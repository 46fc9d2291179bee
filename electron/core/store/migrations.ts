/**
 * Schema migrations. `PRAGMA user_version` holds how many of `MIGRATIONS` have been applied;
 * append new ones at the end and never edit a released one. Each runs in its own IMMEDIATE
 * transaction that re-reads the version first, so two processes opening a fresh file at the
 * same moment apply each migration once.
 */
import type { Database } from 'better-sqlite3';
import { StoreError } from './types';

export type Migration = (db: Database) => void;

const initialSchema: Migration = (db) => {
  db.exec(`
    CREATE TABLE sessions (
      id TEXT PRIMARY KEY,
      title TEXT NOT NULL DEFAULT '',
      workspaces TEXT NOT NULL DEFAULT '[]',
      model TEXT NOT NULL,
      permission_mode TEXT NOT NULL,
      status TEXT NOT NULL DEFAULT 'idle'
        CHECK (status IN ('idle', 'running', 'waiting', 'done', 'error', 'aborted', 'interrupted')),
      created_at INTEGER NOT NULL,
      updated_at INTEGER NOT NULL,
      input_tokens INTEGER NOT NULL DEFAULT 0,
      output_tokens INTEGER NOT NULL DEFAULT 0,
      cache_read_tokens INTEGER NOT NULL DEFAULT 0,
      cache_write_tokens INTEGER NOT NULL DEFAULT 0,
      cost_usd REAL NOT NULL DEFAULT 0,
      owner_pid INTEGER
    ) STRICT;
    CREATE INDEX sessions_by_update ON sessions (updated_at DESC, id DESC);
    -- Recovery only ever looks at sessions that claim to be active.
    CREATE INDEX sessions_active ON sessions (status) WHERE status IN ('running', 'waiting');

    -- An explicit INTEGER PRIMARY KEY because the FTS index refers to rows by rowid, and VACUUM
    -- may renumber an implicit rowid. superseded_at is set when compaction replaces the live
    -- history: the old rows stay searchable but are no longer loaded.
    CREATE TABLE messages (
      id INTEGER PRIMARY KEY,
      session_id TEXT NOT NULL REFERENCES sessions (id) ON DELETE CASCADE,
      seq INTEGER NOT NULL,
      role TEXT NOT NULL CHECK (role IN ('user', 'assistant')),
      content TEXT NOT NULL,
      text TEXT NOT NULL DEFAULT '',
      created_at INTEGER NOT NULL,
      superseded_at INTEGER,
      UNIQUE (session_id, seq)
    ) STRICT;

    CREATE VIRTUAL TABLE messages_fts USING fts5 (
      text,
      content = 'messages',
      content_rowid = 'id',
      tokenize = 'unicode61 remove_diacritics 2'
    );
    CREATE TRIGGER messages_fts_insert AFTER INSERT ON messages BEGIN
      INSERT INTO messages_fts (rowid, text) VALUES (new.id, new.text);
    END;
    CREATE TRIGGER messages_fts_delete AFTER DELETE ON messages BEGIN
      INSERT INTO messages_fts (messages_fts, rowid, text) VALUES ('delete', old.id, old.text);
    END;
    CREATE TRIGGER messages_fts_update AFTER UPDATE OF text ON messages BEGIN
      INSERT INTO messages_fts (messages_fts, rowid, text) VALUES ('delete', old.id, old.text);
      INSERT INTO messages_fts (rowid, text) VALUES (new.id, new.text);
    END;

    -- data is the event without its type and sessionId, which live in their own columns.
    CREATE TABLE events (
      id INTEGER PRIMARY KEY,
      session_id TEXT NOT NULL REFERENCES sessions (id) ON DELETE CASCADE,
      seq INTEGER NOT NULL,
      type TEXT NOT NULL,
      data TEXT NOT NULL,
      created_at INTEGER NOT NULL,
      UNIQUE (session_id, seq)
    ) STRICT;

    CREATE TABLE tool_calls (
      session_id TEXT NOT NULL REFERENCES sessions (id) ON DELETE CASCADE,
      tool_call_id TEXT NOT NULL,
      tool_name TEXT NOT NULL,
      args TEXT NOT NULL,
      status TEXT NOT NULL CHECK (status IN ('running', 'done', 'error', 'interrupted')),
      subagent_id TEXT,
      started_at INTEGER NOT NULL,
      ended_at INTEGER,
      PRIMARY KEY (session_id, tool_call_id)
    ) STRICT;
    CREATE INDEX tool_calls_running ON tool_calls (session_id) WHERE status = 'running';
  `);
};

/** Every permission decision (SPEC §6 audit), automatic or a person's; args are stored redacted. */
const permissionAudit: Migration = (db) => {
  db.exec(`
    CREATE TABLE permission_audit (
      id INTEGER PRIMARY KEY,
      session_id TEXT NOT NULL REFERENCES sessions (id) ON DELETE CASCADE,
      tool_call_id TEXT NOT NULL,
      tool_name TEXT NOT NULL,
      args TEXT NOT NULL,
      decision TEXT NOT NULL CHECK (decision IN ('allow', 'deny')),
      decided_by TEXT NOT NULL CHECK (decided_by IN ('rule', 'mode', 'person', 'headless')),
      rule TEXT,
      scope TEXT CHECK (scope IN ('once', 'session', 'always')),
      reason TEXT,
      created_at INTEGER NOT NULL
    ) STRICT;
    CREATE INDEX permission_audit_by_session ON permission_audit (session_id, id);
  `);
};

export const MIGRATIONS: readonly Migration[] = [initialSchema, permissionAudit];

export function schemaVersion(db: Database): number {
  return db.pragma('user_version', { simple: true }) as number;
}

/**
 * Brings `db` (the file at `file`) up to `migrations.length`. Refuses a file written by a newer
 * Cove rather than guess at a schema it does not know.
 */
export function migrate(db: Database, file: string, migrations: readonly Migration[] = MIGRATIONS): void {
  const known = migrations.length;
  const step = db.transaction((): boolean => {
    const version = schemaVersion(db);
    if (version > known) throw newerSchemaError(file, version, known);
    if (version === known) return false;
    try {
      migrations[version]!(db);
    } catch (error) {
      throw new StoreError('migrationFailed', `Could not upgrade ${file} from schema version ${version} to ${version + 1}: ${(error as Error).message}`, { cause: error });
    }
    // PRAGMA takes no bound parameters; the value is an integer we computed.
    db.pragma(`user_version = ${version + 1}`);
    return true;
  });
  let applied = true;
  while (applied) applied = step.immediate();
}

function newerSchemaError(file: string, found: number, known: number): StoreError {
  return new StoreError(
    'newerSchema',
    `${file} was written by a newer version of Cove (schema version ${found}; this Cove knows up to ${known}). ` + 'Update Cove, or set COVE_HOME to another folder.',
  );
}
