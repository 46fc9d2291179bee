import { test } from 'node:test';
import assert from 'node:assert/strict';
import { block, reply, type RecordedRequest } from '../support/model-server';
import { cliFixture, collect } from '../support/cove-cli';
import { rendezvous } from '../support/rendezvous';
import { displayNameFor } from '../../electron/core/subagents/display-names';

const taskOf = (request: RecordedRequest) => JSON.stringify(request.body.messages[0]!.content);
const answering = (request: RecordedRequest) => JSON.stringify(request.body.messages.at(-1)!.content).includes('tool_result');

test('cove run: two subagents in parallel, recognisable by their tasks, with stable display names', async () => {
  const bothAsked = rendezvous(2);
  const f = await cliFixture(async (request) => {
    const task = taskOf(request);
    if (/CHECK-(DOCS|TESTS)/.test(task)) await bothAsked.arrive();
    if (task.includes('CHECK-DOCS')) return reply.text('docs are fine');
    if (task.includes('CHECK-TESTS')) return reply.text('tests are missing for x');
    return answering(request)
      ? reply.text('summary: docs fine, tests missing')
      : reply.message([block.toolUse('subagent', { task: 'CHECK-DOCS in README' }), block.toolUse('subagent', { task: 'CHECK-TESTS under test/', name: 'review' })]);
  });
  try {
    const result = await f.home.run(['run', '--json', '--workspace', f.workspace, 'check the project']);
    assert.equal(result.code, 0, result.stderr);
    const starts = result.events.filter((e) => e.type === 'subagentStart');
    assert.equal(starts.length, 2);
    for (const start of starts) {
      assert.ok(start.type === 'subagentStart');
      assert.equal(start.displayName, displayNameFor(start.subagentId!), 'the name follows from the id');
    }
    assert.deepEqual(starts.map((s) => s.type === 'subagentStart' && s.task).sort(), ['CHECK-DOCS in README', 'CHECK-TESTS under test/']);
    const childIds = new Set(starts.map((s) => s.subagentId));
    const childEvents = result.events.filter((e) => e.subagentId && e.type !== 'subagentStart' && e.type !== 'subagentEnd');
    assert.ok(childEvents.length > 0 && childEvents.every((e) => childIds.has(e.subagentId!)));
    assert.equal(bothAsked.shortfall, undefined, 'both children are asked before either is answered: they run side by side');
    const childRequests = f.server.requests.filter((r) => /CHECK-(DOCS|TESTS)/.test(taskOf(r)));
    assert.equal(childRequests.length, 2);
    const final = JSON.stringify(f.server.requests.at(-1)!.body.messages.at(-1)!.content);
    assert.match(final, /docs are fine/);
    assert.match(final, /tests are missing for x/);
  } finally {
    await f.close();
  }
});

test('cove run: Ctrl-C while a subagent works stops it and the run', async () => {
  const f = await cliFixture((request) => (taskOf(request).includes('SLOW') ? reply.hang({ afterEvents: 5 }) : reply.message([block.toolUse('subagent', { task: 'SLOW research' })])));
  try {
    const child = f.home.spawn(['run', '--json', '--workspace', f.workspace, 'delegate']);
    const done = collect(child);
    await new Promise<void>((resolve, reject) => {
      let buffer = '';
      child.stdout!.on('data', (chunk: Buffer) => {
        buffer += chunk.toString();
        if (buffer.split('\n').some((line) => line.includes('"messageUpdate"') && line.includes('"subagentId"'))) resolve();
      });
      child.on('close', () => reject(new Error(`cove exited before the subagent streamed: ${buffer.slice(-400)}`)));
    });
    child.kill('SIGINT');
    const result = await done;
    assert.equal(result.code, 130, result.stderr);
    const end = result.events.find((e) => e.type === 'subagentEnd');
    assert.equal(end?.type === 'subagentEnd' && end.status, 'cancelled');
    const last = result.events.at(-1)!;
    assert.equal(last.type === 'agentEnd' && !last.subagentId && last.stopReason, 'aborted');
  } finally {
    await f.close();
  }
});
