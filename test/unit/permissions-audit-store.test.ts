import { test, describe } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { PermissionEngine, type AuditEntry } from '../../electron/core/permissions';
import { openStore, StoreError, type Store } from '../../electron/core/store';
import { MIGRATIONS, schemaVersion } from '../../electron/core/store/migrations';

function openTestStore(t: { after(fn: () => void): void }): { store: Store; dir: string } {
  const dir = mkdtempSync(join(tmpdir(), 'cove-audit-'));
  const store = openStore(dir);
  t.after(() => {
    store.close();
    rmSync(dir, { recursive: true, force: true });
  });
  return { store, dir };
}

const session = { workspaces: ['/work/app'], model: 'claude-test', permissionMode: 'default' };

describe('permission audit in the store', () => {
  test('records decisions and lists them per session, oldest first', (t) => {
    const { store } = openTestStore(t);
    const first = store.createSession(session).id;
    const second = store.createSession(session).id;
    store.recordPermission({
      sessionId: first,
      toolCallId: 'call-1',
      toolName: 'bash',
      args: { command: 'npm test' },
      decision: 'allow',
      decidedBy: 'rule',
      rule: 'bash(npm test)',
      at: 1000,
    });
    store.recordPermission({
      sessionId: second,
      toolCallId: 'call-9',
      toolName: 'write_file',
      args: { path: 'a.txt' },
      decision: 'deny',
      decidedBy: 'headless',
      rule: null,
      reason: 'no one to ask',
      at: 1500,
    });
    // Every field given: it comes back as it went in.
    const full = {
      sessionId: first,
      toolCallId: 'call-2',
      toolName: 'edit_file',
      args: { path: 'src/a.ts', old_text: 'a', new_text: 'b' },
      decision: 'allow',
      decidedBy: 'person',
      rule: 'edit_file(src/a.ts)',
      scope: 'always',
      reason: 'allowed always',
      at: 2000,
    } as const;
    store.recordPermission(full);

    const listed = store.listPermissions(first);
    assert.deepEqual(
      listed.map(({ id: _id, ...rest }) => rest),
      [
        {
          sessionId: first,
          toolCallId: 'call-1',
          toolName: 'bash',
          args: { command: 'npm test' },
          decision: 'allow',
          decidedBy: 'rule',
          rule: 'bash(npm test)',
          scope: null,
          reason: null,
          at: 1000,
        },
        full,
      ],
    );
    assert.ok(listed[0]!.id < listed[1]!.id);
    assert.deepEqual(
      store.listPermissions(second).map((entry) => entry.toolCallId),
      ['call-9'],
    );
    assert.deepEqual(store.listPermissions('no-such-session'), []);
  });

  test('refuses an entry for an unknown session, naming it', (t) => {
    const { store } = openTestStore(t);
    assert.throws(
      () => store.recordPermission({ sessionId: 'ghost', toolCallId: 'c', toolName: 'bash', args: null, decision: 'deny', decidedBy: 'rule', rule: null, at: 1 }),
      (error: unknown) => error instanceof StoreError && error.code === 'sessionNotFound' && error.message.includes('ghost'),
    );
  });

  test("takes the engine's audit entries as they are", async (t) => {
    const { store } = openTestStore(t);
    const id = store.createSession(session).id;
    const sink: (entry: AuditEntry) => void = (entry) => store.recordPermission(entry);
    const engine = new PermissionEngine({ mode: 'default', workspaceRoots: ['/work/app'], extraRules: { deny: ['bash(rm:*)'] }, audit: sink });
    const outcome = await engine.check({ sessionId: id, toolCallId: 'c1', toolName: 'bash', args: { command: 'ls; rm x' }, sensitivity: 'mutating' }, new AbortController().signal);
    assert.equal(outcome.decision, 'deny');
    const [entry] = store.listPermissions(id);
    assert.deepEqual([entry!.toolCallId, entry!.decision, entry!.decidedBy, entry!.rule, entry!.args], ['c1', 'deny', 'rule', 'bash(rm:*)', { command: 'ls; rm x' }]);
  });

  test('goes away with its session', (t) => {
    const { store } = openTestStore(t);
    const id = store.createSession(session).id;
    store.recordPermission({ sessionId: id, toolCallId: 'c', toolName: 'bash', args: { command: 'ls' }, decision: 'allow', decidedBy: 'mode', rule: null, at: 1 });
    assert.equal(store.deleteSession(id), true);
    assert.deepEqual(store.listPermissions(id), []);
  });

  test('a store from before the audit is upgraded with its sessions kept', (t) => {
    const dir = mkdtempSync(join(tmpdir(), 'cove-audit-upgrade-'));
    t.after(() => rmSync(dir, { recursive: true, force: true }));
    const raw = new Database(join(dir, 'cove.db'));
    MIGRATIONS[0]!(raw);
    raw.pragma('user_version = 1');
    raw.prepare("INSERT INTO sessions (id, model, permission_mode, created_at, updated_at) VALUES ('old-session', 'm', 'default', 1, 1)").run();
    raw.close();

    const store = openStore(dir);
    t.after(() => store.close());
    assert.equal(store.getSession('old-session')?.id, 'old-session');
    store.recordPermission({ sessionId: 'old-session', toolCallId: 'c', toolName: 'bash', args: {}, decision: 'allow', decidedBy: 'mode', rule: null, at: 5 });
    assert.equal(store.listPermissions('old-session').length, 1);
    const check = new Database(join(dir, 'cove.db'), { readonly: true });
    assert.equal(schemaVersion(check), MIGRATIONS.length);
    check.close();
  });
});
