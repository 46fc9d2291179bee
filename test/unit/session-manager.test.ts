import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Anthropic from '@anthropic-ai/sdk';
import type { CoveEvent } from '../../shared/events';
import { SessionManager } from '../../electron/core/sessions/session-manager';
import { openStore, type Store } from '../../electron/core/store';
import { block, reply, startModelServer, type Script } from '../support/model-server';
import { testTool } from '../support/engine';
import { holdFirst } from '../support/held-reply';

async function setup(script: Script, tools = [testTool('echo')]) {
  const server = await startModelServer(script);
  const dir = mkdtempSync(join(tmpdir(), 'cove-manager-'));
  const store: Store = openStore(dir);
  const manager = new SessionManager({
    store,
    createClient: () => new Anthropic({ apiKey: 'k', baseURL: server.url, maxRetries: 0 }),
    tools: () => tools,
    retry: { baseDelayMs: 1 },
  });
  const session = manager.createSession({ workspaces: [dir], model: 'claude-sonnet-5', permissionMode: 'default' });
  return {
    server,
    store,
    manager,
    session,
    async close() {
      await manager.stopAll();
      store.close();
      await server.close();
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

test('every subscriber gets every event, and the store can redraw the session', async () => {
  const s = await setup([reply.message([block.text('Let me check.', { chunks: 6 }), block.toolUse('echo', { value: 'x' })]), reply.text('All good.', { chunks: 3 })]);
  try {
    const first: CoveEvent[] = [];
    const second: CoveEvent[] = [];
    s.manager.subscribe((e) => first.push(e));
    const unsubscribe = s.manager.subscribe((e) => second.push(e));
    const outcome = await s.manager.run(s.session.id, 'check it');
    unsubscribe();
    assert.equal(outcome.stopReason, 'endTurn');
    assert.deepEqual(first, second);

    // Stored exactly as published, under the same seq, which counts up from 1 without a gap.
    const stored = s.store.loadEvents(s.session.id);
    assert.deepEqual(stored, first);
    assert.deepEqual(
      first.map((e) => e.seq),
      first.map((_, index) => index + 1),
    );
    assert.equal(first[0]!.type, 'userMessage', 'the prompt is published before its run starts');
    // The six streamed chunks of the first reply were coalesced into fewer events before they were numbered.
    const text = (events: CoveEvent[]) => events.flatMap((e) => (e.type === 'messageUpdate' && e.delta.type === 'text' ? [e.delta.text] : [])).join('');
    assert.equal(text(first), 'Let me check.All good.');

    const messages = s.store.loadMessages(s.session.id);
    assert.deepEqual(
      messages.map((m) => m.role),
      ['user', 'assistant', 'user', 'assistant'],
    );
    const record = s.store.getSession(s.session.id)!;
    assert.equal(record.status, 'done');
    assert.equal(record.ownerPid, null);
    assert.equal(record.title, 'check it');
    assert.ok(record.usage.output > 0 && record.costUsd > 0);
  } finally {
    await s.close();
  }
});

test('send steers a running session and starts a run on an idle one; stop aborts', async () => {
  const first = holdFirst(reply.text('first'), reply.text('steered'), reply.hang());
  const s = await setup(first.script);
  try {
    const started = s.manager.send(s.session.id, 'hello');
    assert.equal(started.steered, false);
    await s.server.waitForRequests(1);
    assert.ok(s.manager.isRunning(s.session.id));
    assert.deepEqual(s.manager.send(s.session.id, 'and also this'), { steered: true });
    first.release();
    assert.equal((await started.run!).stopReason, 'endTurn');
    assert.equal(s.server.requests.length, 2);

    const next = s.manager.send(s.session.id, 'a third thing');
    await s.server.waitForRequests(3);
    assert.equal(s.manager.stop(s.session.id), true);
    assert.equal((await next.run!).stopReason, 'aborted');
    assert.equal(s.store.getSession(s.session.id)!.status, 'aborted');
    assert.equal(s.manager.stop(s.session.id), false, 'nothing left to stop');
    // The third run carried the whole history.
    assert.equal(s.server.requests[2]!.body.messages.length, 5);
  } finally {
    await s.close();
  }
});

test('Stop ends the run there: steering it had not read starts no run after it', async () => {
  const s = await setup([reply.hang(), reply.text('a run nobody asked for')]);
  try {
    const started = s.manager.send(s.session.id, 'hello');
    await s.server.waitForRequests(1);
    assert.deepEqual(s.manager.send(s.session.id, 'also look at the docs'), { steered: true });
    assert.equal(s.manager.stop(s.session.id), true);
    assert.equal((await started.run!).stopReason, 'aborted');
    assert.equal(s.manager.isRunning(s.session.id), false, 'no run started from the unread note');
    assert.equal(s.server.requests.length, 1);
    assert.equal(s.store.getSession(s.session.id)!.status, 'aborted');
  } finally {
    await s.close();
  }
});

test('steering sent as a run ends starts the next run with it, instead of being lost', async () => {
  const s = await setup([reply.text('first'), reply.text('read both notes')]);
  try {
    const events: CoveEvent[] = [];
    s.manager.subscribe((event) => {
      events.push(event);
      // After the agent's last look for steering, while its run returns.
      if (event.type === 'agentEnd' && events.filter((e) => e.type === 'agentEnd').length === 1) s.manager.send(s.session.id, 'note one');
    });
    let sentSecond = false;
    s.manager.subscribeSessions((session) => {
      // The run has returned and the session says done, but its cleanup has not finished.
      if (session.id === s.session.id && session.status === 'done' && !sentSecond) {
        sentSecond = true;
        assert.deepEqual(s.manager.send(s.session.id, 'note two'), { steered: true });
      }
    });
    const first = await s.manager.run(s.session.id, 'start');
    assert.equal(first.stopReason, 'endTurn');
    for (let wait = 0; s.manager.isRunning(s.session.id) || events.filter((e) => e.type === 'agentEnd').length < 2; wait++) {
      assert.ok(wait < 500, 'the follow-up run ends');
      await new Promise((resolve) => setTimeout(resolve, 10));
    }
    const second = s.server.requests[1]!.body.messages.at(-1)!;
    assert.equal(second.role, 'user');
    assert.match(JSON.stringify(second.content), /note one\\n\\nnote two/, 'both notes went to the model, in order');
    const prompts = events.filter((e) => e.type === 'userMessage');
    assert.deepEqual(
      prompts.map((e) => [e.text, e.steered]),
      [
        ['start', false],
        ['note one', true],
        ['note two', true],
      ],
      'each note was shown once, as sent',
    );
    assert.ok(events.findIndex((e) => e.type === 'agentStart' && e !== events.find((f) => f.type === 'agentStart')) > events.indexOf(prompts[2]!));
    assert.deepEqual(
      s.store.loadMessages(s.session.id).map((m) => m.role),
      ['user', 'assistant', 'user', 'assistant'],
    );
    assert.equal(s.store.getSession(s.session.id)!.status, 'done');
  } finally {
    await s.close();
  }
});

test('a second run of a running session is refused', async () => {
  const s = await setup([reply.hang()]);
  try {
    const run = s.manager.run(s.session.id, 'one');
    await s.server.waitForRequests(1);
    await assert.rejects(s.manager.run(s.session.id, 'two'), /already running/);
    s.manager.stop(s.session.id);
    await run;
  } finally {
    await s.close();
  }
});

test('a permission ask waits for a person: the session shows waiting, the answer is published', async () => {
  const echo = testTool('echo');
  const server = await startModelServer([reply.message([block.toolUse('echo', { value: 'v' })]), reply.text('done')]);
  const dir = mkdtempSync(join(tmpdir(), 'cove-manager-'));
  const store = openStore(dir);
  const manager = new SessionManager({
    store,
    createClient: () => new Anthropic({ apiKey: 'k', baseURL: server.url, maxRetries: 0 }),
    tools: () => [echo],
    permissionGate: (_session, prompter) => ({
      name: 'ask-everything',
      async beforeTool(call) {
        const answer = await prompter(
          { toolCallId: call.toolCallId, toolName: call.toolName, args: call.args, sensitivity: call.sensitivity, reasons: ['test asks'], suggestedRule: 'echo' },
          call.signal,
        );
        return answer.decision === 'allow' ? { action: 'allow' } : { action: 'deny', reason: answer.reason ?? 'denied by the person' };
      },
    }),
  });
  try {
    const session = manager.createSession({ workspaces: [dir], model: 'claude-sonnet-5', permissionMode: 'default' });
    const statuses: string[] = [];
    manager.subscribeSessions((s) => statuses.push(s.status));
    const events: CoveEvent[] = [];
    const asked = new Promise<Extract<CoveEvent, { type: 'permissionRequest' }>>((resolve) =>
      manager.subscribe((e) => {
        events.push(e);
        if (e.type === 'permissionRequest') resolve(e);
      }),
    );
    const run = manager.run(session.id, 'echo it');
    const request = await asked;
    assert.equal(store.getSession(session.id)!.status, 'waiting');
    assert.deepEqual(
      manager.pendingPermissions().map((p) => p.requestId),
      [request.requestId],
    );
    assert.equal(echo.calls.length, 0, 'nothing runs before the answer');
    assert.equal(manager.answerPermission('another-session', request.requestId, { decision: 'allow', scope: 'once' }), false);
    assert.equal(manager.answerPermission(session.id, request.requestId, { decision: 'allow', scope: 'session', rule: 'echo' }), true);
    assert.equal((await run).stopReason, 'endTurn');
    assert.equal(echo.calls.length, 1);
    const decision = events.find((e) => e.type === 'permissionDecision');
    assert.deepEqual(decision && { ...decision }, {
      type: 'permissionDecision',
      sessionId: session.id,
      seq: decision?.seq,
      at: decision?.at,
      requestId: request.requestId,
      decision: 'allow',
      scope: 'session',
      rule: 'echo',
    });
    assert.equal(decision?.seq, request.seq! + 1);
    assert.deepEqual(manager.pendingPermissions(), []);
    assert.ok(statuses.includes('waiting') && statuses.at(-1) === 'done');
    const stored = store.loadEvents(session.id).map((e) => e.type);
    assert.ok(stored.includes('permissionRequest') && stored.includes('permissionDecision'));
  } finally {
    await manager.stopAll();
    store.close();
    await server.close();
    rmSync(dir, { recursive: true, force: true });
  }
});
