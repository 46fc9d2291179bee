/**
 * Opens (creating if needed) the session store under a data directory: `<dataDir>/cove.db`.
 * Several processes may share the file (the desktop app or `cove serve` and a `cove run`):
 * WAL lets readers go on while one writes, every write is an IMMEDIATE transaction so a writer
 * waits for the lock up front instead of failing half-way, and the busy timeout bounds the wait.
 */
import Database from 'better-sqlite3';
import { closeSync, mkdirSync, openSync } from 'node:fs';
import { homedir } from 'node:os';
import { join } from 'node:path';
import { eventQueries } from './event-log';
import { migrate } from './migrations';
import { permissionAuditQueries } from './permission-audit';
import { recoveryQueries } from './recovery';
import { searchQueries } from './search';
import { sessionQueries } from './sessions';
import { transcriptQueries } from './transcript';
import { StoreError } from './types';
import type { Store } from './types';

export const DATABASE_FILE = 'cove.db';
const BUSY_TIMEOUT_MS = 5_000;

/** `COVE_HOME`, or `~/.cove`. */
export function defaultDataDir(): string {
  const home = process.env.COVE_HOME;
  return home && home.trim() ? home : join(homedir(), '.cove');
}

export interface StoreOptions {
  /** Milliseconds since the epoch; tests pass a controllable clock. */
  now?: () => number;
  /** Whether a process exists; recovery uses it. Tests pass a fake. */
  isProcessAlive?: (pid: number) => boolean;
  /**
   * Path of a better_sqlite3.node to load instead of the one in node_modules: the desktop app
   * runs under Electron's ABI and loads a copy rebuilt for it, leaving Node's build untouched.
   */
  nativeBinding?: string;
}

export function openStore(dataDir: string, options: StoreOptions = {}): Store {
  const now = options.now ?? Date.now;
  // Sessions hold code and conversations: only the owner may read them. SQLite gives the -wal
  // and -shm files the database file's mode, so creating it 0600 covers all three.
  mkdirSync(dataDir, { recursive: true, mode: 0o700 });
  const path = join(dataDir, DATABASE_FILE);
  closeSync(openSync(path, 'a', 0o600));

  const db = new Database(path, { timeout: BUSY_TIMEOUT_MS, nativeBinding: options.nativeBinding });
  try {
    db.pragma('journal_mode = WAL');
    db.pragma('synchronous = NORMAL');
    db.pragma('foreign_keys = ON');
    migrate(db, path);
  } catch (error) {
    db.close();
    if (error instanceof StoreError) throw error;
    throw new StoreError('openFailed', `Could not open the session store ${path}: ${(error as Error).message}`, {
      cause: error,
    });
  }

  const sessions = sessionQueries(db, now);
  const { touchSession, ...sessionApi } = sessions;
  return {
    path,
    ...sessionApi,
    ...transcriptQueries(db, now, touchSession),
    ...eventQueries(db, now, touchSession),
    ...searchQueries(db),
    ...permissionAuditQueries(db),
    ...recoveryQueries(db, now, options.isProcessAlive),
    close() {
      if (db.open) db.close();
    },
  };
}
