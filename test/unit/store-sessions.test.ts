import { test, describe } from 'node:test';
import assert from 'node:assert/strict';
import { newSessionId, StoreError } from '../../electron/core/store';
import type { StoredMessage } from '../../electron/core/store';
import { openTestStore } from '../support/store';

const base = { model: 'claude-test', permissionMode: 'default' };

describe('session ids', () => {
  test('sort by creation time and do not collide', () => {
    const times = [0, 1, 31, 32, 1_000, 1_700_000_000_000, 1_700_000_000_001, 2 ** 48 - 1];
    const ids = times.map((time) => newSessionId(time));
    assert.deepEqual([...ids].sort(), ids);
    for (const id of ids) assert.match(id, /^[0-9a-hjkmnp-tv-z]{20}$/);
    const sameMillisecond = new Set(Array.from({ length: 1_000 }, () => newSessionId(42)));
    assert.equal(sameMillisecond.size, 1_000);
  });
});

describe('sessions', () => {
  test('create and get', (t) => {
    const { store } = openTestStore(t);
    const session = store.createSession({ ...base, workspaces: ['/work/app/', '/work/lib/../lib', '/work/app'] });
    assert.equal(session.title, '');
    assert.deepEqual(session.workspaces, ['/work/app', '/work/lib']);
    assert.equal(session.status, 'idle');
    assert.equal(session.model, 'claude-test');
    assert.equal(session.permissionMode, 'default');
    assert.deepEqual(session.usage, { input: 0, output: 0, cacheRead: 0, cacheWrite: 0 });
    assert.equal(session.costUsd, 0);
    assert.equal(session.ownerPid, null);
    assert.equal(session.createdAt, session.updatedAt);
    assert.deepEqual(store.getSession(session.id), session);
    assert.equal(store.getSession('no-such-id'), undefined);
  });

  test('rejects a relative workspace, naming it', (t) => {
    const { store } = openTestStore(t);
    assert.throws(
      () => store.createSession({ ...base, workspaces: ['relative/dir'] }),
      (error: unknown) => error instanceof StoreError && error.code === 'invalidInput' && error.message.includes('relative/dir'),
    );
    assert.equal(store.listSessions().length, 0);
  });

  test('list newest-updated first, by workspace, with a limit', (t) => {
    const { store } = openTestStore(t);
    const a = store.createSession({ ...base, workspaces: ['/one'] });
    const b = store.createSession({ ...base, workspaces: ['/two'] });
    const c = store.createSession({ ...base, workspaces: ['/one', '/two'] });
    assert.deepEqual(
      store.listSessions().map((s) => s.id),
      [c.id, b.id, a.id],
    );

    store.updateSession(a.id, { title: 'touched' });
    assert.deepEqual(
      store.listSessions().map((s) => s.id),
      [a.id, c.id, b.id],
    );
    assert.deepEqual(
      store.listSessions({ limit: 2 }).map((s) => s.id),
      [a.id, c.id],
    );
    assert.deepEqual(
      store.listSessions({ workspace: '/two' }).map((s) => s.id),
      [c.id, b.id],
    );
    assert.deepEqual(
      store.listSessions({ workspace: '/one/' }).map((s) => s.id),
      [a.id, c.id],
    );
    assert.deepEqual(store.listSessions({ workspace: '/on' }), []);

    assert.equal(store.latestSessionForWorkspace('/two')?.id, c.id);
    store.appendEvents(b.id, [{ type: 'turnStart', sessionId: b.id, turn: 1 }]);
    assert.equal(store.latestSessionForWorkspace('/two')?.id, b.id, 'appending events counts as activity');
    assert.equal(store.latestSessionForWorkspace('/three'), undefined);
  });

  test('update changes only the given fields', (t) => {
    const { store } = openTestStore(t);
    const session = store.createSession({ ...base, workspaces: ['/w'], title: 'Original' });
    store.updateSession(session.id, { status: 'running', ownerPid: 4242 });
    let now = store.getSession(session.id)!;
    assert.equal(now.status, 'running');
    assert.equal(now.ownerPid, 4242);
    assert.equal(now.title, 'Original');
    assert.ok(now.updatedAt > session.updatedAt);

    store.updateSession(session.id, { model: 'other', permissionMode: 'plan', workspaces: ['/w', '/x'] });
    now = store.getSession(session.id)!;
    assert.deepEqual([now.model, now.permissionMode, now.workspaces, now.status, now.ownerPid], ['other', 'plan', ['/w', '/x'], 'running', 4242]);

    store.updateSession(session.id, { status: 'done', ownerPid: null, title: '  Renamed  ' });
    now = store.getSession(session.id)!;
    assert.deepEqual([now.status, now.ownerPid, now.title], ['done', null, 'Renamed']);
  });

  test('update of an unknown session or to an unknown status fails clearly', (t) => {
    const { store } = openTestStore(t);
    const session = store.createSession({ ...base, workspaces: ['/w'] });
    assert.throws(
      () => store.updateSession('missing-id', { title: 'x' }),
      (error: unknown) => error instanceof StoreError && error.code === 'sessionNotFound' && error.message.includes('missing-id'),
    );
    assert.throws(
      () => store.updateSession(session.id, { status: 'paused' as never }),
      (error: unknown) => error instanceof StoreError && error.code === 'invalidInput' && error.message.includes('paused'),
    );
    assert.throws(
      () => store.updateSession(session.id, { ownerPid: -1 }),
      (error: unknown) => error instanceof StoreError && error.code === 'invalidInput' && error.message.includes('ownerPid'),
    );
    assert.equal(store.getSession(session.id)?.status, 'idle');
  });

  test('usage accumulates', (t) => {
    const { store } = openTestStore(t);
    const session = store.createSession({ ...base, workspaces: ['/w'] });
    store.addUsage(session.id, { input: 100, output: 20, cacheRead: 5, cacheWrite: 7 }, 0.25);
    store.addUsage(session.id, { input: 1, output: 2, cacheRead: 3, cacheWrite: 4 }, 0.125);
    const now = store.getSession(session.id)!;
    assert.deepEqual(now.usage, { input: 101, output: 22, cacheRead: 8, cacheWrite: 11 });
    assert.equal(now.costUsd, 0.375);
    assert.throws(() => store.addUsage('missing', now.usage, 1), StoreError);
  });

  test('delete removes the session and everything under it', (t) => {
    const { store } = openTestStore(t);
    const keep = store.createSession({ ...base, workspaces: ['/w'] });
    const gone = store.createSession({ ...base, workspaces: ['/w'] });
    for (const id of [keep.id, gone.id]) {
      store.appendMessage(id, { role: 'user', content: 'zebra crossing' });
      store.appendEvents(id, [{ type: 'toolExecutionStart', sessionId: id, toolCallId: 'c', toolName: 'bash', args: {} }]);
    }
    assert.equal(store.deleteSession(gone.id), true);
    assert.equal(store.deleteSession(gone.id), false);
    assert.equal(store.getSession(gone.id), undefined);
    assert.deepEqual(store.loadMessages(gone.id), []);
    assert.deepEqual(store.loadEvents(gone.id), []);
    assert.deepEqual(store.listToolCalls(gone.id), []);
    assert.deepEqual(
      store.search('zebra').map((hit) => hit.sessionId),
      [keep.id],
    );
    assert.equal(store.loadEvents(keep.id).length, 1);
  });
});

describe('messages', () => {
  test('keep their order and exact content', (t) => {
    const { store } = openTestStore(t);
    const session = store.createSession({ ...base, workspaces: ['/w'] });
    const messages: StoredMessage[] = [];
    for (let i = 0; i < 30; i++) {
      messages.push({ role: 'user', content: `question ${i}` });
      messages.push({
        role: 'assistant',
        content: [
          { type: 'text', text: `answer ${i}` },
          { type: 'tool_use', id: `call-${i}`, name: 'read_file', input: { path: `f${i}.ts`, offset: i } },
        ],
      });
    }
    const seqs = messages.map((message) => store.appendMessage(session.id, message));
    assert.deepEqual(
      seqs,
      messages.map((_, index) => index + 1),
    );
    assert.deepEqual(store.loadMessages(session.id), messages);
  });

  test('the first user message names an untitled session', (t) => {
    const { store } = openTestStore(t);
    const session = store.createSession({ ...base, workspaces: ['/w'] });
    store.appendMessage(session.id, { role: 'assistant', content: 'I speak first' });
    assert.equal(store.getSession(session.id)?.title, '');
    const long = 'Refactor ' + 'the configuration loader '.repeat(10);
    store.appendMessage(session.id, { role: 'user', content: [{ type: 'text', text: `\n   ${long}\nsecond line` }] });
    const title = store.getSession(session.id)!.title;
    assert.ok(title.startsWith('Refactor the configuration loader'), title);
    assert.ok(title.length <= 80, `title is ${title.length} characters`);
    assert.ok(title.endsWith('…'));

    const emoji = store.createSession({ ...base, workspaces: ['/w'] });
    store.appendMessage(emoji.id, { role: 'user', content: '🦘'.repeat(100) });
    assert.equal(store.getSession(emoji.id)!.title, '🦘'.repeat(79) + '…', 'cut by code point, not UTF-16 unit');
    store.appendMessage(session.id, { role: 'user', content: 'a later message' });
    assert.equal(store.getSession(session.id)!.title, title);

    const named = store.createSession({ ...base, workspaces: ['/w'], title: 'Given' });
    store.appendMessage(named.id, { role: 'user', content: 'fix the bug' });
    assert.equal(store.getSession(named.id)!.title, 'Given');
  });

  test('replace swaps the live history; the old text stays searchable', (t) => {
    const { store } = openTestStore(t);
    const session = store.createSession({ ...base, workspaces: ['/w'] });
    store.appendMessage(session.id, { role: 'user', content: 'talk about the quokka' });
    store.appendMessage(session.id, { role: 'assistant', content: 'quokkas are marsupials' });
    const summary: StoredMessage[] = [
      { role: 'user', content: 'Summary of the conversation so far: animals.' },
      { role: 'assistant', content: [{ type: 'text', text: 'Understood.' }] },
    ];
    store.replaceMessages(session.id, summary);
    assert.deepEqual(store.loadMessages(session.id), summary);
    const seq = store.appendMessage(session.id, { role: 'user', content: 'next' });
    assert.equal(seq, 5, 'seq continues after the replaced messages');
    assert.deepEqual(store.loadMessages(session.id), [...summary, { role: 'user', content: 'next' }]);
    assert.deepEqual(
      store.search('quokka').map((hit) => hit.sessionId),
      [session.id],
    );
  });

  test('writing to an unknown session fails and stores nothing', (t) => {
    const { store } = openTestStore(t);
    assert.throws(
      () => store.appendMessage('ghost', { role: 'user', content: 'boo' }),
      (error: unknown) => error instanceof StoreError && error.code === 'sessionNotFound',
    );
    assert.throws(() => store.replaceMessages('ghost', []), StoreError);
    assert.deepEqual(store.loadMessages('ghost'), []);
    assert.deepEqual(store.search('boo'), []);
  });
});
