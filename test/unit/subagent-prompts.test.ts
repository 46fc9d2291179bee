import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Anthropic from '@anthropic-ai/sdk';
import type { CoveEvent, PermissionRequestEvent } from '../../shared/events';
import { SessionManager } from '../../electron/core/sessions/session-manager';
import { openStore } from '../../electron/core/store';
import { builtinTools } from '../../electron/core/tools/registry';
import { block, reply, startModelServer, type RecordedRequest } from '../support/model-server';
import { testTool } from '../support/engine';

function firstPrompt(request: RecordedRequest): string {
  return JSON.stringify(request.body.messages[0]?.content ?? '');
}

test("a subagent's permission prompt carries its subagentId; the main agent's carries none; every event is timed", async () => {
  const echo = testTool('echo');
  const server = await startModelServer((request) => {
    const done = request.body.messages.length > 1;
    if (firstPrompt(request).includes('CHILD')) return done ? reply.text('child done') : reply.message([block.toolUse('echo', { value: 'child' })]);
    if (request.body.messages.length === 1) return reply.message([block.toolUse('echo', { value: 'parent' }), block.toolUse('subagent', { task: 'CHILD: echo something' })]);
    return reply.text('all done');
  });
  const dir = mkdtempSync(join(tmpdir(), 'cove-subagent-prompts-'));
  const store = openStore(dir);
  const manager = new SessionManager({
    store,
    createClient: () => new Anthropic({ apiKey: 'k', baseURL: server.url, maxRetries: 0 }),
    tools: () => [echo, ...builtinTools().filter((tool) => tool.name === 'subagent')],
    permissionGate: (_session, prompter) => ({
      name: 'ask-for-echo',
      async beforeTool(call) {
        if (call.toolName !== 'echo') return { action: 'allow' };
        const answer = await prompter(
          { toolCallId: call.toolCallId, toolName: call.toolName, args: call.args, sensitivity: call.sensitivity, reasons: ['test asks'], suggestedRule: 'echo' },
          call.signal,
        );
        return answer.decision === 'allow' ? { action: 'allow' } : { action: 'deny', reason: 'denied' };
      },
    }),
  });
  try {
    const session = manager.createSession({ workspaces: [dir], model: 'claude-sonnet-5', permissionMode: 'default' });
    const events: CoveEvent[] = [];
    manager.subscribe((event) => {
      events.push(event);
      if (event.type === 'permissionRequest') manager.answerPermission(session.id, event.requestId, { decision: 'allow', scope: 'once' });
    });
    const before = Date.now();
    assert.equal((await manager.run(session.id, 'echo and delegate')).stopReason, 'endTurn');
    const requests = events.filter((event): event is PermissionRequestEvent => event.type === 'permissionRequest');
    const start = events.find((event) => event.type === 'subagentStart');
    assert.ok(start?.subagentId, 'a subagent ran');
    const byArgs = Object.fromEntries(requests.map((request) => [(request.args as { value: string }).value, request.subagentId ?? null]));
    assert.deepEqual(byArgs, { parent: null, child: start.subagentId });
    const decisions = events.filter((event) => event.type === 'permissionDecision').map((event) => event.subagentId ?? null);
    assert.deepEqual(decisions.sort(), [null, start.subagentId].sort());
    for (const event of events) assert.ok(typeof event.at === 'number' && event.at >= before && event.at <= Date.now(), `${event.type} is timed`);
    assert.deepEqual(
      store.loadEvents(session.id).map((event) => event.at),
      events.map((event) => event.at),
      'the stored events keep their times',
    );
  } finally {
    await manager.stopAll();
    store.close();
    await server.close();
    rmSync(dir, { recursive: true, force: true });
  }
});
