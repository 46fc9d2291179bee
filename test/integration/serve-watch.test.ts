// Per-session streams over the WebSocket of the built `cove serve`: a tab that watches session A
// gets A's deltas and never B's, while B's low-rate events (its run's end, its record, each
// tool call's start and end) still reach it for the sessions list; a malformed watch is refused
// with why and changes nothing.
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, realpathSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { ServerFrame, SessionSummary } from '../../shared/contract';
import { block, reply, startModelServer, type ScriptedServer } from '../support/model-server';
import { CoveHome } from '../support/cove-cli';
import { ApiSocket, startServe, type ServeProcess } from '../e2e/serve-process';

const agentEvents = (socket: ApiSocket) => socket.frames.flatMap((frame) => (frame.type === 'event' && frame.event.kind === 'agent' ? [frame.event.event] : []));

describe('cove serve: watching a session', () => {
  let model: ScriptedServer;
  let home: CoveHome;
  let workspace: string;
  let serve: ServeProcess;

  before(async () => {
    model = await startModelServer([
      reply.text('Alpha streams in many pieces.', { chunks: 8 }),
      reply.message([block.toolUse('bash', { command: 'seq 1 5' }, { id: 'toolu_beta' })]),
      reply.text('Beta streams in many pieces too.', { chunks: 8 }),
    ]);
    home = new CoveHome(model.url);
    workspace = realpathSync(mkdtempSync(join(tmpdir(), 'cove-watch-ws-')));
    serve = await startServe(home, ['--port', '0']);
  });

  after(async () => {
    await serve?.stop();
    await model?.close();
    home?.remove();
    rmSync(workspace, { recursive: true, force: true });
  });

  test("a tab showing session A does not receive session B's deltas or tool output, but still hears B's tool call and its end", async () => {
    const [tabA, tabB] = await Promise.all([ApiSocket.open(serve), ApiSocket.open(serve)]);
    try {
      const a = await tabA.request<SessionSummary>('session:create', { workspaces: [workspace], title: 'A' });
      const b = await tabA.request<SessionSummary>('session:create', { workspaces: [workspace], title: 'B', permissionMode: 'bypass' });
      assert.ok(a.ok && b.ok);
      assert.deepEqual(await tabA.watch([a.value.id]), { ok: true, value: { watching: [a.value.id] } });
      await tabB.watch([b.value.id]);
      const isEnd = (sessionId: string) => (frame: ServerFrame) =>
        frame.type === 'event' && frame.event.kind === 'agent' && frame.event.event.type === 'agentEnd' && frame.event.event.sessionId === sessionId;
      assert.ok((await tabA.request('session:send', { sessionId: a.value.id, text: 'first' })).ok);
      await tabA.waitFor(isEnd(a.value.id), "A's agentEnd");
      assert.ok((await tabB.request('session:send', { sessionId: b.value.id, text: 'second' })).ok);
      await Promise.all([tabA.waitFor(isEnd(b.value.id), "B's agentEnd on tab A"), tabB.waitFor(isEnd(b.value.id), "B's agentEnd on tab B")]);

      const deltasOf = (socket: ApiSocket, sessionId: string) => agentEvents(socket).filter((event) => event.type === 'messageUpdate' && event.sessionId === sessionId);
      assert.ok(deltasOf(tabA, a.value.id).length > 0, "tab A gets A's deltas");
      assert.equal(deltasOf(tabA, b.value.id).length, 0, "tab A gets none of B's deltas");
      assert.ok(deltasOf(tabB, b.value.id).length > 0, "tab B gets B's deltas");
      assert.equal(deltasOf(tabB, a.value.id).length, 0);
      const lowRate = agentEvents(tabA)
        .filter((event) => event.sessionId === b.value.id)
        .map((event) => event.type);
      for (const type of ['userMessage', 'agentStart', 'toolExecutionStart', 'toolExecutionEnd', 'agentEnd'] as const) assert.ok(lowRate.includes(type), `${type} in ${lowRate.join()}`);
      assert.ok(!lowRate.includes('toolExecutionUpdate'), "tab A gets none of B's tool output");
      assert.ok(
        agentEvents(tabB).some((event) => event.type === 'toolExecutionUpdate' && event.sessionId === b.value.id),
        "tab B gets B's tool output",
      );

      // What tab A skipped is in B's log, under the seq numbers it lacks.
      const log = await tabA.request<{ events: Array<{ seq: number; type: string }> }>('session:events', { sessionId: b.value.id, afterSeq: 0 });
      assert.ok(log.ok);
      const seen = new Set(
        agentEvents(tabA)
          .filter((event) => event.sessionId === b.value.id)
          .map((event) => event.seq),
      );
      const skipped = log.value.events.filter((event) => !seen.has(event.seq)).map((event) => event.type);
      assert.ok(skipped.length > 0 && skipped.every((type) => type === 'messageUpdate' || type === 'toolExecutionUpdate'), skipped.join());
    } finally {
      tabA.close();
      tabB.close();
    }
  });

  test('a malformed watch is refused with what was wrong; a good one after it is taken', async () => {
    const tab = await ApiSocket.open(serve);
    try {
      await tab.watch(['kept']);
      const refused = await tab.watch(['not an id!']);
      assert.equal(refused.ok, false);
      assert.match(!refused.ok ? refused.error.message : '', /sessionIds\.0: must be an id/);
      assert.deepEqual(await tab.watch(['kept', 'other']), { ok: true, value: { watching: ['kept', 'other'] } });
    } finally {
      tab.close();
    }
  });
});
