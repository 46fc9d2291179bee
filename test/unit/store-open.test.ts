import { test, describe } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { homedir, tmpdir } from 'node:os';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { DATABASE_FILE, defaultDataDir, openStore, StoreError } from '../../electron/core/store';
import { migrate, MIGRATIONS, schemaVersion } from '../../electron/core/store/migrations';

function tempDir(t: { after(fn: () => void): void }): string {
  const dir = mkdtempSync(join(tmpdir(), 'cove-store-'));
  t.after(() => rmSync(dir, { recursive: true, force: true }));
  return dir;
}

function tables(file: string): string[] {
  const db = new Database(file, { readonly: true });
  try {
    return db.prepare("SELECT name FROM sqlite_schema WHERE type = 'table' ORDER BY name").pluck().all() as string[];
  } finally {
    db.close();
  }
}

describe('openStore', () => {
  test('creates a private data directory and a WAL database at the current schema', (t) => {
    const dataDir = join(tempDir(t), 'nested', 'home');
    const store = openStore(dataDir);
    t.after(() => store.close());

    assert.equal(store.path, join(dataDir, DATABASE_FILE));
    assert.equal(statSync(dataDir).mode & 0o777, 0o700);
    assert.equal(statSync(store.path).mode & 0o777, 0o600);
    const raw = new Database(store.path);
    try {
      assert.equal(raw.pragma('journal_mode', { simple: true }), 'wal');
      assert.equal(schemaVersion(raw), MIGRATIONS.length);
    } finally {
      raw.close();
    }
    const names = tables(store.path);
    for (const table of ['sessions', 'messages', 'messages_fts', 'events', 'tool_calls']) {
      assert.ok(names.includes(table), `missing table ${table}`);
    }
  });

  test('re-opening keeps the data and applies nothing twice', (t) => {
    const dataDir = tempDir(t);
    const first = openStore(dataDir);
    const session = first.createSession({ workspaces: ['/project'], model: 'm', permissionMode: 'default' });
    first.appendMessage(session.id, { role: 'user', content: 'hello there' });
    const before = first.getSession(session.id);
    first.close();

    const second = openStore(dataDir);
    t.after(() => second.close());
    assert.deepEqual(second.getSession(session.id), before);
    assert.equal(before?.title, 'hello there');
    assert.deepEqual(second.loadMessages(session.id), [{ role: 'user', content: 'hello there' }]);
    assert.equal(second.search('hello').length, 1, 'the FTS index was not rebuilt or duplicated');
    const raw = new Database(second.path, { readonly: true });
    assert.equal(schemaVersion(raw), MIGRATIONS.length);
    raw.close();
  });

  test('two stores on one file (serve and run) both write', (t) => {
    const dataDir = tempDir(t);
    const serve = openStore(dataDir);
    const run = openStore(dataDir);
    t.after(() => {
      serve.close();
      run.close();
    });
    const a = serve.createSession({ workspaces: ['/a'], model: 'm', permissionMode: 'default' });
    const b = run.createSession({ workspaces: ['/b'], model: 'm', permissionMode: 'default' });
    run.appendMessage(a.id, { role: 'user', content: 'from run' });
    assert.deepEqual(serve.loadMessages(a.id), [{ role: 'user', content: 'from run' }]);
    assert.deepEqual(new Set(serve.listSessions().map((s) => s.id)), new Set([a.id, b.id]));
  });

  test('refuses a database from a newer Cove, naming the file and both versions', (t) => {
    const dataDir = tempDir(t);
    openStore(dataDir).close();
    const file = join(dataDir, DATABASE_FILE);
    const newer = MIGRATIONS.length + 7;
    const raw = new Database(file);
    raw.pragma(`user_version = ${newer}`);
    raw.close();

    assert.throws(
      () => openStore(dataDir),
      (error: unknown) => {
        assert.ok(error instanceof StoreError);
        assert.equal(error.code, 'newerSchema');
        assert.match(error.message, new RegExp(file.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')));
        assert.match(error.message, new RegExp(`schema version ${newer}\\b`));
        assert.match(error.message, new RegExp(`knows up to ${MIGRATIONS.length}\\b`));
        return true;
      },
    );
    const after = new Database(file, { readonly: true });
    assert.equal(schemaVersion(after), newer, 'the newer file must be left as it was');
    after.close();
  });

  test('a file that is not a database fails with its path', (t) => {
    const dataDir = tempDir(t);
    writeFileSync(join(dataDir, DATABASE_FILE), 'this is not sqlite '.repeat(100));
    assert.throws(
      () => openStore(dataDir),
      (error: unknown) => error instanceof StoreError && error.code === 'openFailed' && error.message.includes(join(dataDir, DATABASE_FILE)),
    );
  });
});

describe('migrate', () => {
  test('applies migrations in order, one transaction each, and rolls back a failing one', (t) => {
    const file = join(tempDir(t), 'migrations.db');
    const db = new Database(file);
    t.after(() => db.close());
    const applied: number[] = [];
    const good = [
      (d: Database.Database) => {
        applied.push(1);
        d.exec('CREATE TABLE one (x INTEGER)');
      },
      (d: Database.Database) => {
        applied.push(2);
        d.exec('CREATE TABLE two (x INTEGER)');
      },
    ];
    migrate(db, file, good);
    assert.deepEqual(applied, [1, 2]);
    assert.equal(schemaVersion(db), 2);
    migrate(db, file, good);
    assert.deepEqual(applied, [1, 2], 'an up-to-date file runs nothing');

    const failing = [
      ...good,
      (d: Database.Database) => {
        d.exec('CREATE TABLE three (x INTEGER)');
        throw new Error('boom');
      },
    ];
    assert.throws(
      () => migrate(db, file, failing),
      (error: unknown) =>
        error instanceof StoreError &&
        error.code === 'migrationFailed' &&
        error.message.includes(file) &&
        error.message.includes('from schema version 2 to 3') &&
        error.message.includes('boom'),
    );
    assert.equal(schemaVersion(db), 2);
    const names = db.prepare("SELECT name FROM sqlite_schema WHERE type = 'table'").pluck().all();
    assert.ok(!names.includes('three'), 'the failed migration left a table behind');
  });
});

test('defaultDataDir is COVE_HOME, else ~/.cove', (t) => {
  const saved = process.env.COVE_HOME;
  t.after(() => {
    if (saved === undefined) delete process.env.COVE_HOME;
    else process.env.COVE_HOME = saved;
  });
  process.env.COVE_HOME = '/somewhere/cove-home';
  assert.equal(defaultDataDir(), '/somewhere/cove-home');
  delete process.env.COVE_HOME;
  assert.equal(defaultDataDir(), join(homedir(), '.cove'));
});
