import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Anthropic from '@anthropic-ai/sdk';
import type { CoveEvent } from '../../shared/events';
import { SessionManager } from '../../electron/core/sessions/session-manager';
import type { SubagentLimits } from '../../electron/core/subagents/subagent-runner';
import { DISPLAY_NAMES, displayNameFor, splitmix64 } from '../../electron/core/subagents/display-names';
import { loadAgentDefinitions } from '../../electron/core/subagents/definitions';
import { openStore } from '../../electron/core/store';
import { builtinTools } from '../../electron/core/tools/registry';
import { block, reply, startModelServer, type RecordedRequest, type Reply } from '../support/model-server';
import { rendezvous } from '../support/rendezvous';

/** The task (or prompt) a request works on: its first user message. */
function taskOf(request: RecordedRequest): string {
  const first = request.body.messages[0]!;
  return typeof first.content === 'string' ? first.content : JSON.stringify(first.content);
}

async function setup(script: (request: RecordedRequest) => Reply | Promise<Reply>, limits: Partial<SubagentLimits> = {}) {
  const server = await startModelServer(script);
  const dir = mkdtempSync(join(tmpdir(), 'cove-subagents-'));
  const workspace = join(dir, 'ws');
  mkdirSync(workspace);
  const store = openStore(join(dir, 'home'));
  const manager = new SessionManager({
    store,
    createClient: () => new Anthropic({ apiKey: 'k', baseURL: server.url, maxRetries: 0 }),
    tools: () => builtinTools(),
    subagentLimits: limits,
  });
  const session = manager.createSession({ workspaces: [workspace], model: 'claude-sonnet-5', permissionMode: 'default' });
  const events: CoveEvent[] = [];
  manager.subscribe((event) => events.push(event));
  return {
    server,
    manager,
    store,
    session,
    workspace,
    events,
    waitFor(predicate: (event: CoveEvent) => boolean): Promise<CoveEvent> {
      const found = events.find(predicate);
      if (found) return Promise.resolve(found);
      return new Promise((resolve) => {
        const off = manager.subscribe((event) => {
          if (predicate(event)) {
            off();
            resolve(event);
          }
        });
      });
    },
    async close() {
      await manager.stopAll();
      store.close();
      await server.close();
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

test('display names: the same id always gets the same name from the pool of 25', () => {
  assert.equal(DISPLAY_NAMES.length, 25);
  assert.equal(new Set(DISPLAY_NAMES).size, 25);
  assert.equal(displayNameFor('sub_abc123'), displayNameFor('sub_abc123'));
  // splitmix64 reference values (seed 0 → 0xe220a8397b1dcdaf).
  assert.equal(splitmix64(0n), 0xe220a8397b1dcdafn);
  const used = new Set(Array.from({ length: 500 }, (_, i) => displayNameFor(`sub_${i}`)));
  assert.ok(used.size >= 20, `names spread over the pool (${used.size} used)`);
});

test('children run in parallel with fresh contexts; their events carry their id; usage adds up', async () => {
  const bothAsked = rendezvous(2);
  const s = await setup(async (request) => {
    const task = taskOf(request);
    if (/TASK-[AB]/.test(task)) await bothAsked.arrive();
    if (task.includes('TASK-A')) return reply.text('found A in a.ts', { usage: { input_tokens: 10, output_tokens: 5 } });
    if (task.includes('TASK-B')) return reply.text('found B in b.ts', { usage: { input_tokens: 10, output_tokens: 5 } });
    return request.body.messages.length === 1
      ? reply.message([block.toolUse('subagent', { task: 'TASK-A: find A' }), block.toolUse('subagent', { task: 'TASK-B: find B', name: 'research' })])
      : reply.text('both found');
  });
  try {
    const outcome = await s.manager.run(s.session.id, 'find A and B');
    assert.equal(bothAsked.shortfall, undefined, 'both children are asked before either is answered');
    assert.equal(outcome.stopReason, 'endTurn');
    const starts = s.events.filter((e) => e.type === 'subagentStart');
    assert.equal(starts.length, 2);
    const ids = starts.map((e) => e.subagentId!);
    for (const start of starts) assert.ok(start.type === 'subagentStart' && start.displayName === displayNameFor(start.subagentId));
    const ends = s.events.filter((e) => e.type === 'subagentEnd');
    assert.deepEqual(
      ends.map((e) => e.type === 'subagentEnd' && e.status),
      ['done', 'done'],
    );
    // The child's own run is framed and tagged.
    for (const id of ids) assert.ok(s.events.some((e) => e.type === 'agentStart' && e.subagentId === id));
    // Fresh context: a child's request holds only its task.
    const childRequests = s.server.requests.filter((r) => /TASK-[AB]/.test(taskOf(r)));
    assert.equal(childRequests.length, 2);
    assert.ok(childRequests.every((r) => r.body.messages.length === 1));
    // The research definition narrows the tools.
    const researchTools = (childRequests.find((r) => taskOf(r).includes('TASK-B'))!.body.tools ?? []).map((t) => (t as { name: string }).name);
    assert.deepEqual(researchTools, ['read_file', 'list_files', 'search']);
    const answer = JSON.stringify(s.server.requests.at(-1)!.body.messages.at(-1)!.content);
    assert.match(answer, /found A in a\.ts/);
    assert.match(answer, /found B in b\.ts/);
    const usage = s.store.getSession(s.session.id)!.usage;
    assert.ok(usage.input >= 20 && usage.output >= 10, 'children usage is added to the session');
  } finally {
    await s.close();
  }
});

test('maxConcurrent children run at once, never more', async () => {
  const pairs = rendezvous(2, { total: 5 });
  const s = await setup(
    async (request) => {
      if (taskOf(request).includes('CHILD')) {
        await pairs.arrive();
        return reply.text('ok');
      }
      return request.body.messages.length === 1 ? reply.message([1, 2, 3, 4, 5].map((n) => block.toolUse('subagent', { task: `CHILD ${n}` }))) : reply.text('done');
    },
    { maxConcurrent: 2 },
  );
  let running = 0;
  let peak = 0;
  s.manager.subscribe((event) => {
    if (event.type === 'subagentStart') peak = Math.max(peak, ++running);
    if (event.type === 'subagentEnd') running--;
  });
  try {
    await s.manager.run(s.session.id, 'fan out');
    assert.equal(s.events.filter((e) => e.type === 'subagentEnd').length, 5);
    assert.equal(pairs.shortfall, undefined, 'children are asked two at a time');
    assert.equal(peak, 2, 'no third child starts while two run');
  } finally {
    await s.close();
  }
});

test('stopping the parent stops its children; the sidebar can stop one and the parent goes on', async () => {
  const s = await setup((request) => {
    const task = taskOf(request);
    if (task.includes('SLOW')) return reply.hang();
    const answering = JSON.stringify(request.body.messages.at(-1)!.content).includes('tool_result');
    return answering ? reply.text('parent continues') : reply.message([block.toolUse('subagent', { task: 'SLOW work' })]);
  });
  try {
    // Sidebar cancel: the child ends cancelled, the parent gets an error result and finishes.
    const first = s.manager.run(s.session.id, 'delegate');
    const started = await s.waitFor((e) => e.type === 'subagentStart');
    assert.equal(s.manager.cancelSubagent(s.session.id, started.subagentId!), true);
    assert.equal((await first).stopReason, 'endTurn');
    const end = s.events.find((e) => e.type === 'subagentEnd');
    assert.equal(end?.type === 'subagentEnd' && end.status, 'cancelled');
    assert.match(JSON.stringify(s.server.requests.at(-1)!.body.messages.at(-1)!.content), /the person cancelled it/);

    // Parent stop: the child stops too and the run ends aborted.
    s.events.length = 0;
    const second = s.manager.run(s.session.id, 'delegate again');
    await s.waitFor((e) => e.type === 'subagentStart');
    s.manager.stop(s.session.id);
    assert.equal((await second).stopReason, 'aborted');
    const childEnd = s.events.find((e) => e.type === 'agentEnd' && e.subagentId);
    assert.equal(childEnd?.type === 'agentEnd' && childEnd.stopReason, 'aborted');
  } finally {
    await s.close();
  }
});

test('a child that loops or exceeds its limits is stopped with a result that says why', async () => {
  const s = await setup(
    (request) => {
      const task = taskOf(request);
      if (task.includes('LOOPY')) return reply.message([block.toolUse('list_files', { path: '.' })]);
      if (task.includes('FOREVER')) return reply.message([block.toolUse('list_files', { path: `.`, max_depth: request.body.messages.length })]);
      return request.body.messages.length === 1 ? reply.message([block.toolUse('subagent', { task: 'LOOPY' }), block.toolUse('subagent', { task: 'FOREVER' })]) : reply.text('noted');
    },
    { maxTurns: 4 },
  );
  try {
    await s.manager.run(s.session.id, 'go');
    const results = JSON.stringify(s.server.requests.at(-1)!.body.messages.at(-1)!.content);
    assert.match(results, /stopped before finishing: stopped: the model kept repeating/);
    assert.match(results, /stopped before finishing: stopped after 4 turns/);
    assert.deepEqual(
      s.events.filter((e) => e.type === 'subagentEnd').map((e) => e.type === 'subagentEnd' && e.status),
      ['failed', 'failed'],
    );
  } finally {
    await s.close();
  }
});

test('definitions come from .cove/agents with built-ins for research and review', () => {
  const dir = mkdtempSync(join(tmpdir(), 'cove-agents-'));
  try {
    mkdirSync(join(dir, '.cove', 'agents'), { recursive: true });
    writeFileSync(
      join(dir, '.cove', 'agents', 'tester.md'),
      '---\nname: tester\ndescription: Runs tests\ntools: [bash, read_file]\nmax_turns: 7\nmodel: claude-haiku-4-5\n---\nRun the tests.',
    );
    writeFileSync(join(dir, '.cove', 'agents', 'broken.md'), '---\nmax_turns: many\n---\n');
    const { definitions, problems } = loadAgentDefinitions([dir]);
    assert.deepEqual(definitions.map((d) => d.name).sort(), ['research', 'review', 'tester']);
    const tester = definitions.find((d) => d.name === 'tester')!;
    assert.deepEqual([tester.tools, tester.maxTurns, tester.model, tester.instructions], [['bash', 'read_file'], 7, 'claude-haiku-4-5', 'Run the tests.']);
    assert.equal(problems.length, 1);
    assert.match(problems[0]!, /broken\.md: max_turns must be a whole number/);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});
