import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { block, reply } from '../support/model-server';
import { cliFixture } from '../support/cove-cli';
import { openStore } from '../../electron/core/store';

const plan = [
  { content: 'Read the failing test', status: 'completed' },
  { content: 'Fix the parser', status: 'in_progress' },
  { content: 'Run the suite', status: 'pending' },
];

describe('todo_write through cove run', () => {
  test('each list becomes a todoUpdate event, is stored, and is shown on stderr', async () => {
    const f = await cliFixture([
      reply.message([block.toolUse('todo_write', { todos: plan }, { id: 'toolu_plan' })]),
      reply.message([block.toolUse('todo_write', { todos: plan.map((todo) => ({ ...todo, status: 'completed' })) }, { id: 'toolu_done' })]),
      reply.text('All done.'),
    ]);
    try {
      const json = await f.home.run(['run', '--json', '--workspace', f.workspace, 'fix it']);
      assert.equal(json.code, 0, json.stderr);
      const updates = json.events.filter((event) => event.type === 'todoUpdate');
      assert.equal(updates.length, 2);
      assert.deepEqual(updates[0]!.type === 'todoUpdate' && updates[0]!.todos, plan);
      assert.ok(updates[1]!.type === 'todoUpdate' && updates[1]!.todos.every((todo) => todo.status === 'completed'));
      const store = openStore(f.home.path);
      try {
        const stored = store.loadEvents(updates[0]!.sessionId).filter((event) => event.type === 'todoUpdate');
        assert.equal(stored.length, 2, 'a reload redraws the checklist from the stored events');
      } finally {
        store.close();
      }
      const toolResult = JSON.stringify(f.server.requests[1]!.body.messages.at(-1));
      assert.match(toolResult, /1 of 3 done/);
    } finally {
      await f.close();
    }
  });

  test('text mode prints the checklist; two items in progress are refused with the reason', async () => {
    const f = await cliFixture([
      reply.message([block.toolUse('todo_write', { todos: plan }, { id: 'toolu_plan' })]),
      reply.message([block.toolUse('todo_write', { todos: plan.map((todo) => ({ ...todo, status: 'in_progress' })) }, { id: 'toolu_bad' })]),
      reply.text('ok'),
    ]);
    try {
      const result = await f.home.run(['run', '--workspace', f.workspace, 'fix it']);
      assert.equal(result.code, 0, result.stderr);
      assert.match(result.stderr, /tasks \(1\/3 done\):\n\s+☑ Read the failing test\n\s+▶ Fix the parser\n\s+☐ Run the suite/);
      const refusal = JSON.stringify(f.server.requests[2]!.body.messages.at(-1));
      assert.match(refusal, /3 items are in_progress.*keep exactly one in_progress/);
      assert.equal(result.stderr.match(/tasks \(/g)?.length, 1, 'a refused list is not shown');
    } finally {
      await f.close();
    }
  });
});
