/**
 * One secret set per session: its runs share it, its events and permission audit are redacted
 * with it (the values of its secret files too, which no pattern knows), and it is closed when
 * the session is deleted, its workspaces change or the host stops.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Anthropic from '@anthropic-ai/sdk';
import type { CoveEvent } from '../../shared/events';
import { SessionManager } from '../../electron/core/sessions/session-manager';
import { createSessionGate } from '../../electron/core/permissions';
import { SecretSet } from '../../electron/core/secrets';
import { SessionSecrets } from '../../electron/core/secrets/session-secrets';
import { openStore } from '../../electron/core/store';
import { block, reply, startModelServer } from '../support/model-server';
import { testTool } from '../support/engine';

/** A value only the workspace's .env makes secret: low in entropy, in no rule's shape. */
const FILE_VALUE = 'horse-battery-staple-correct';

test('a session keeps one secret set across runs; events, store and audit never hold its file values', async () => {
  const workspace = mkdtempSync(join(tmpdir(), 'cove-session-secrets-'));
  const home = mkdtempSync(join(tmpdir(), 'cove-session-secrets-home-'));
  writeFileSync(join(workspace, '.env'), `DEPLOY_PASSPHRASE=${FILE_VALUE}\n`);
  const command = `deploy --passphrase ${FILE_VALUE} --to prod`;
  const server = await startModelServer([
    reply.message([block.text(`Deploying with ${FILE_VALUE} now.`, { chunks: 5 }), block.toolUse('deploy', { value: command }, { chunks: 4 })]),
    reply.text('done'),
    reply.text('second run'),
  ]);
  const store = openStore(home);
  const made: SecretSet[] = [];
  let closed = 0;
  const deploy = testTool('deploy', () => ({ content: [{ type: 'text', text: 'deployed' }] }), { sensitivity: 'mutating' });
  const manager: SessionManager = new SessionManager({
    store,
    createClient: () => new Anthropic({ apiKey: 'k', baseURL: server.url, maxRetries: 0 }),
    tools: () => [deploy],
    secrets: async (session) => {
      const set = await SecretSet.fromWorkspace(session.workspaces, { watch: true, env: {} });
      const close = set.close.bind(set);
      set.close = () => {
        closed++;
        close();
      };
      made.push(set);
      return set;
    },
    permissionGate: (session) => createSessionGate({ workspaces: session.workspaces, mode: 'bypass', coveHome: home, store, redactor: manager.redactorOf(session.id) }),
    retry: { baseDelayMs: 1 },
  });
  const events: CoveEvent[] = [];
  manager.subscribe((event) => events.push(event));
  try {
    const session = manager.createSession({ workspaces: [workspace], model: 'claude-sonnet-5', permissionMode: 'bypass' });
    assert.equal((await manager.run(session.id, 'deploy it')).stopReason, 'endTurn');
    assert.equal((await manager.run(session.id, 'again')).stopReason, 'endTurn');
    assert.equal(deploy.calls.length, 1);
    assert.equal(deploy.calls[0].value, command, 'the tool itself gets the real argument');
    assert.equal(made.length, 1, 'both runs share one set');

    const published = JSON.stringify(events);
    const stored = JSON.stringify(store.loadEvents(session.id));
    const audited = JSON.stringify(store.listPermissions(session.id));
    for (const [where, text] of [
      ['published', published],
      ['stored', stored],
      ['audited', audited],
    ] as const) {
      assert.ok(!text.includes(FILE_VALUE), `${where} events hold the file value`);
    }
    assert.match(audited, /deploy --passphrase \[REDACTED:[a-z-]+\] --to prod/);
    const start = events.find((event) => event.type === 'toolExecutionStart');
    assert.deepEqual(start?.type === 'toolExecutionStart' && start.args, { value: 'deploy --passphrase [REDACTED:secret-file] --to prod' });

    assert.equal(closed, 0);
    manager.updateSession(session.id, { workspaces: [workspace, home] });
    await manager.secretsOf(session.id);
    assert.equal(made.length, 2, 'other workspaces are scanned again');
    assert.equal(closed, 1, 'and the old set is closed');
    assert.ok(manager.deleteSession(session.id));
    assert.equal(closed, 2, 'deleting the session closes its set');
    const other = manager.createSession({ workspaces: [workspace], model: 'claude-sonnet-5', permissionMode: 'bypass' });
    await manager.secretsOf(other.id);
    await manager.stopAll();
    assert.equal(closed, 3, 'the host stopping closes every set');
  } finally {
    store.close();
    await server.close();
    rmSync(workspace, { recursive: true, force: true });
    rmSync(home, { recursive: true, force: true });
  }
});

test('a set whose scan ends after its session closed is closed then; without a scan nothing is redacted', async () => {
  let release!: () => void;
  const scanned = new Promise<void>((resolve) => (release = resolve));
  let closed = 0;
  const sets = new SessionSecrets(async () => {
    await scanned;
    const set = new SecretSet({ values: [{ value: FILE_VALUE, label: 'env' }] });
    set.close = () => void closed++;
    return set;
  });
  const pending = sets.of({ id: 'a', workspaces: ['/w'] });
  assert.match(sets.current('a').redact('ghp_0123456789abcdefABCDEFghijklmnopqrST').text, /REDACTED/, 'the built-in patterns apply meanwhile');
  assert.equal(sets.current('a').redact(FILE_VALUE).text, FILE_VALUE);
  sets.close('a');
  release();
  await pending;
  assert.equal(closed, 1);

  const failing = new SessionSecrets(() => {
    throw new Error('the scan broke');
  });
  await assert.rejects(Promise.resolve(failing.of({ id: 'b', workspaces: ['/w'] })), /the scan broke/, 'a broken scan says why');
  assert.match(failing.current('b').redact('ghp_0123456789abcdefABCDEFghijklmnopqrST').text, /REDACTED/, 'events still get the built-in patterns');

  const none = new SessionSecrets(undefined);
  assert.equal(none.current('a').redact('ghp_0123456789abcdefABCDEFghijklmnopqrST').count, 0);
});
