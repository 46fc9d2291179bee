// The session list in pages by updatedAt: every session exactly once, ties by id, a session
// that moves to the top while someone pages is not listed twice, and a bad cursor is named.
import { test, describe } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { openStore, StoreError } from '../../electron/core/store';
import type { SessionRecord, Store } from '../../electron/core/store';

function openTestStore(t: { after(fn: () => void): void }, now: () => number): { store: Store } {
  const dir = mkdtempSync(join(tmpdir(), 'cove-pages-'));
  const store = openStore(dir, { now });
  t.after(() => {
    store.close();
    rmSync(dir, { recursive: true, force: true });
  });
  return { store };
}

const base = { model: 'claude-test', permissionMode: 'default', workspaces: ['/work/app'] };

function allPages(store: Store, limit: number, options: { workspace?: string } = {}): SessionRecord[][] {
  const pages: SessionRecord[][] = [];
  for (;;) {
    const before = pages.at(-1)?.at(-1);
    const page = store.listSessions({ ...options, limit, before: before && { updatedAt: before.updatedAt, id: before.id } });
    if (page.length === 0) return pages;
    pages.push(page);
  }
}

describe('session pages', () => {
  test('pages cover every session once, newest first, sessions of one millisecond by id', (t) => {
    // Three sessions per millisecond, so ties in updatedAt fall on page boundaries.
    let reading = 0;
    const { store } = openTestStore(t, () => 1_700_000_000_000 + Math.floor(reading++ / 3));
    for (let index = 0; index < 40; index++) store.createSession(base);
    const whole = store.listSessions();
    const pages = allPages(store, 7);
    assert.deepEqual(
      pages.map((page) => page.length),
      [7, 7, 7, 7, 7, 5],
    );
    assert.deepEqual(
      pages.flat().map((session) => session.id),
      whole.map((session) => session.id),
    );
    for (let index = 1; index < whole.length; index++) {
      const [newer, older] = [whole[index - 1]!, whole[index]!];
      assert.ok(newer.updatedAt > older.updatedAt || (newer.updatedAt === older.updatedAt && newer.id > older.id), `${newer.id} before ${older.id}`);
    }
  });

  test('a session touched while paging moves above the cursor and is not listed twice', (t) => {
    let time = 1_700_000_000_000;
    const { store } = openTestStore(t, () => ++time);
    const ids = Array.from({ length: 10 }, () => store.createSession(base).id);
    const first = store.listSessions({ limit: 4 });
    store.updateSession(ids[0]!, { title: 'renamed: now the newest' });
    const last = first.at(-1)!;
    const rest = store.listSessions({ before: { updatedAt: last.updatedAt, id: last.id } });
    const seen = [...first, ...rest].map((session) => session.id);
    assert.equal(new Set(seen).size, seen.length, 'no session twice');
    assert.deepEqual(new Set(seen), new Set(ids.filter((id) => id !== ids[0])), 'every other session once');
  });

  test('pages of one workspace', (t) => {
    let time = 1_700_000_000_000;
    const { store } = openTestStore(t, () => ++time);
    for (let index = 0; index < 12; index++) store.createSession({ ...base, workspaces: [index % 3 === 0 ? '/work/lib' : '/work/app'] });
    const pages = allPages(store, 3, { workspace: '/work/lib' });
    assert.deepEqual(
      pages.map((page) => page.length),
      [3, 1],
    );
    assert.ok(pages.flat().every((session) => session.workspaces[0] === '/work/lib'));
  });

  test('a cursor that is not a place in the list is refused, naming it', (t) => {
    const { store } = openTestStore(t, () => 1_700_000_000_000);
    assert.throws(
      () => store.listSessions({ before: { updatedAt: 1.5, id: 'x' } }),
      (error: unknown) => error instanceof StoreError && error.code === 'invalidInput' && error.message.includes('1.5'),
    );
  });
});
