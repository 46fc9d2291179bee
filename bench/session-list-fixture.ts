/**
 * A data folder holding many stored sessions, for the session-list benchmarks and the e2e test
 * of the virtualized list. The store is opened once (so the schema and its triggers are the real
 * ones), then filled with plain INSERTs in one transaction: 10,000 sessions through the store's
 * one-transaction-per-message API would take minutes, and what is measured is reading them.
 */
import Database from 'better-sqlite3';
import { join } from 'node:path';
import { DATABASE_FILE, openStore } from '../electron/core/store';

export interface StoredSessions {
  count: number;
  /** The newest session's title; the list shows it first. */
  newestTitle: string;
  /** The oldest session's title; the list shows it last. */
  oldestTitle: string;
  /** A word most messages hold, for a search that matches nearly every session. */
  commonWord: string;
  /** A word one session in a thousand holds. */
  rareWord: string;
}

const TOPICS = ['parser', 'sidebar', 'login form', 'billing export', 'flaky test', 'build cache', 'docs site', 'CLI flags', 'migration', 'websocket'];
const PROJECTS = ['atlas', 'beacon', 'cobalt', 'delta', 'ember', 'fjord', 'garnet', 'harbor'];
const MESSAGES_PER_SESSION = 6;
const HOUR = 3_600_000;
const COMMON_WORD = 'function';
const RARE_WORD = 'zeppelin';

export function sessionTitle(index: number): string {
  return `Fix the ${TOPICS[index % TOPICS.length]} in ${PROJECTS[index % PROJECTS.length]}, case ${index}`;
}

function messageText(index: number, turn: number): string {
  const topic = TOPICS[(index + turn) % TOPICS.length];
  const rare = index % 1000 === 7 && turn === 2 ? ` The ${RARE_WORD} module is involved.` : '';
  // Most messages name the common word; a few do not, so it is common, not universal.
  const common = (index + turn) % 7 === 0 ? '' : ` The ${COMMON_WORD} that handles it returns early.`;
  return turn % 2 === 0
    ? `Please look at the ${topic} in session ${index}: it breaks when the input is empty.${common}${rare}`
    : `I read the code of the ${topic}.${common} I changed the check and ran the tests; they pass now.${rare}`;
}

/** Fills `dataDir` with `count` sessions, each `MESSAGES_PER_SESSION` messages, an hour apart, the newest now. */
export function writeStoredSessions(dataDir: string, workspace: string, count: number): StoredSessions {
  openStore(dataDir).close();
  const db = new Database(join(dataDir, DATABASE_FILE));
  try {
    const insertSession = db.prepare(`
      INSERT INTO sessions (id, title, workspaces, model, permission_mode, status, created_at, updated_at)
      VALUES (?, ?, ?, 'claude-sonnet-4-5', 'default', 'done', ?, ?)`);
    const insertMessage = db.prepare(`
      INSERT INTO messages (session_id, seq, role, content, text, created_at) VALUES (?, ?, ?, ?, ?, ?)`);
    const now = Date.now();
    const projects = PROJECTS.map((project) => join(workspace, project));
    db.transaction(() => {
      for (let index = 0; index < count; index++) {
        const at = now - (count - 1 - index) * HOUR;
        const id = `s-bench-${String(index).padStart(6, '0')}`;
        insertSession.run(id, sessionTitle(index), JSON.stringify([projects[index % projects.length]]), at, at);
        for (let turn = 0; turn < MESSAGES_PER_SESSION; turn++) {
          const text = messageText(index, turn);
          insertMessage.run(id, turn + 1, turn % 2 === 0 ? 'user' : 'assistant', JSON.stringify([{ type: 'text', text }]), text, at);
        }
      }
    })();
  } finally {
    db.close();
  }
  return { count, newestTitle: sessionTitle(count - 1), oldestTitle: sessionTitle(0), commonWord: COMMON_WORD, rareWord: RARE_WORD };
}
