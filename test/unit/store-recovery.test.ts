import { test, describe } from 'node:test';
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';
import Database from 'better-sqlite3';
import type { CoveEvent } from '../../shared/events';
import { DATABASE_FILE, isProcessAlive, openStore } from '../../electron/core/store';
import type { SessionStatus, Store } from '../../electron/core/store';

const repository = fileURLToPath(new URL('../..', import.meta.url));
const crashWriter = join(repository, 'test/fixtures/store/crash-writer.ts');

function tempDir(t: { after(fn: () => void): void }): string {
  const dir = mkdtempSync(join(tmpdir(), 'cove-store-'));
  t.after(() => rmSync(dir, { recursive: true, force: true }));
  return dir;
}

/** The pid of a process that has already exited. */
async function deadPid(): Promise<number> {
  const child = spawn(process.execPath, ['-e', '']);
  await once(child, 'exit');
  return child.pid!;
}

function activeSession(store: Store, status: SessionStatus, ownerPid: number | null): string {
  const id = store.createSession({ workspaces: ['/w'], model: 'm', permissionMode: 'default' }).id;
  store.updateSession(id, { status, ownerPid });
  store.appendEvents(id, [
    { type: 'toolExecutionStart', sessionId: id, toolCallId: 'open', toolName: 'bash', args: { command: 'sleep 100' } },
    { type: 'toolExecutionStart', sessionId: id, toolCallId: 'closed', toolName: 'bash', args: { command: 'true' } },
    {
      type: 'toolExecutionEnd',
      sessionId: id,
      toolCallId: 'closed',
      toolName: 'bash',
      result: { content: [] },
      isError: false,
    },
  ]);
  return id;
}

describe('recoverInterrupted', () => {
  test('a session killed with SIGKILL mid-write reopens interrupted with every acknowledged event', async (t) => {
    const dataDir = tempDir(t);
    const child = spawn(process.execPath, ['--import', 'tsx', crashWriter, dataDir], {
      cwd: repository,
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    t.after(() => {
      if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
    });
    let stderr = '';
    child.stderr.on('data', (chunk) => (stderr += chunk));
    const exited = once(child, 'exit');

    const lines = createInterface({ input: child.stdout });
    const ready = await new Promise<string>((resolve, reject) => {
      lines.on('line', (line) => line.startsWith('ready ') && resolve(line.slice('ready '.length)));
      child.on('exit', (code) => reject(new Error(`crash writer exited (${code}) before ready: ${stderr}`)));
    });
    const reported = JSON.parse(ready) as { sessionId: string; batchSize: number; events: CoveEvent[] };
    child.kill('SIGKILL');
    const [, signal] = await exited;
    assert.equal(signal, 'SIGKILL');

    const raw = new Database(join(dataDir, DATABASE_FILE));
    assert.equal(raw.pragma('integrity_check', { simple: true }), 'ok');
    raw.close();

    const store = openStore(dataDir);
    t.after(() => store.close());
    assert.equal(store.getSession(reported.sessionId)?.status, 'running');
    assert.equal(store.getSession(reported.sessionId)?.ownerPid, child.pid);

    const report = store.recoverInterrupted();
    assert.deepEqual(report, { sessions: [reported.sessionId], toolCalls: 1 });
    const session = store.getSession(reported.sessionId)!;
    assert.equal(session.status, 'interrupted');
    assert.equal(session.ownerPid, null);
    const [call] = store.listToolCalls(reported.sessionId);
    assert.equal(call?.toolCallId, 'call-1');
    assert.equal(call?.status, 'interrupted');
    assert.equal(typeof call?.endedAt, 'number');

    const events = store.loadEvents(reported.sessionId);
    assert.deepEqual(
      events.slice(0, reported.events.length),
      reported.events.map((event, index) => ({ ...event, seq: index + 1 })),
      'an event written before "ready" was lost',
    );
    assert.deepEqual(
      events.map((event) => event.seq),
      events.map((_, index) => index + 1),
      'seqs have a gap',
    );
    assert.equal(events.length % reported.batchSize, 0, 'a batch was stored in part');
    assert.deepEqual(store.loadMessages(reported.sessionId), [{ role: 'user', content: 'list the files' }]);

    // The session is usable again and a second recovery finds nothing to do.
    store.appendEvents(reported.sessionId, [{ type: 'turnStart', sessionId: reported.sessionId, turn: 2 }]);
    assert.deepEqual(store.recoverInterrupted(), { sessions: [], toolCalls: 0 });
  });

  test('leaves sessions of live processes alone and interrupts orphans', async (t) => {
    const store = openStore(tempDir(t));
    t.after(() => store.close());
    const gone = await deadPid();
    const mine = activeSession(store, 'running', process.pid);
    const otherUser = activeSession(store, 'waiting', 1);
    const orphanRunning = activeSession(store, 'running', gone);
    const orphanWaiting = activeSession(store, 'waiting', gone);
    const ownerless = activeSession(store, 'running', null);
    const finished = activeSession(store, 'done', gone);

    const report = store.recoverInterrupted();
    assert.deepEqual(new Set(report.sessions), new Set([orphanRunning, orphanWaiting, ownerless]));
    assert.equal(report.toolCalls, 3);

    const statusOf = (id: string) => store.getSession(id)!.status;
    assert.equal(statusOf(mine), 'running');
    assert.equal(statusOf(otherUser), 'waiting');
    assert.equal(statusOf(finished), 'done');
    for (const id of [orphanRunning, orphanWaiting, ownerless]) assert.equal(statusOf(id), 'interrupted');

    const callStatuses = (id: string) => store.listToolCalls(id).map((call) => `${call.toolCallId}:${call.status}`);
    assert.deepEqual(callStatuses(mine), ['open:running', 'closed:done']);
    assert.deepEqual(callStatuses(finished), ['open:running', 'closed:done']);
    assert.deepEqual(callStatuses(orphanRunning), ['open:interrupted', 'closed:done']);
  });

  test('a process that exists but is not ours counts as alive', () => {
    assert.equal(isProcessAlive(process.pid), true);
    // pid 1 always exists; for a normal user signalling it fails with EPERM.
    assert.equal(isProcessAlive(1), true);
  });

  test('a process that has exited, or a number that is no pid, counts as dead', async () => {
    assert.equal(isProcessAlive(await deadPid()), false);
    for (const pid of [0, -1, 1.5, Number.NaN]) assert.equal(isProcessAlive(pid), false, `pid ${pid}`);
  });
});
