import { test } from 'node:test';
import assert from 'node:assert/strict';
import { block, reply } from '../support/model-server';
import { startEngine, testTool } from '../support/engine';
import { holdFirst } from '../support/held-reply';
import type { Tool, ToolMiddleware, ToolSource } from '../../electron/core/agent/types';
import { STEERING_SKIP_MESSAGE } from '../../electron/core/agent/tool-batch';
import { editFileTool } from '../../electron/core/tools/edit-file';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

/** A tool whose calls finish only when the test says so, to observe overlap. */
function gatedTool(name: string) {
  const started: string[] = [];
  const gates = new Map<string, () => void>();
  const startedWaiters: Array<{ count: number; resolve: () => void }> = [];
  let open = false;
  const tool = testTool(name, async (params: { value: string }) => {
    started.push(params.value);
    for (const waiter of [...startedWaiters]) if (started.length >= waiter.count) waiter.resolve();
    if (!open) await new Promise<void>((resolve) => gates.set(params.value, resolve));
    return { content: [{ type: 'text', text: `finished ${params.value}` }] };
  });
  return {
    tool,
    started,
    release: (value: string) => gates.get(value)!(),
    /** Lets every held call and every later one finish. */
    openAll() {
      open = true;
      for (const release of gates.values()) release();
    },
    whenStarted: (count: number) => new Promise<void>((resolve) => (started.length >= count ? resolve() : startedWaiters.push({ count, resolve }))),
  };
}

const threeCalls = () =>
  reply.message([
    block.toolUse('gate', { value: '1' }, { id: 'toolu_1' }),
    block.toolUse('gate', { value: '2' }, { id: 'toolu_2' }),
    block.toolUse('gate', { value: '3' }, { id: 'toolu_3' }),
  ]);

test('parallel runs every call of a reply at once', async () => {
  const gate = gatedTool('gate');
  const engine = await startEngine([threeCalls(), reply.text('ok')], { tools: [gate.tool] });
  try {
    const run = engine.agent.run('go');
    await gate.whenStarted(3);
    assert.deepEqual(gate.started, ['1', '2', '3']);
    ['3', '1', '2'].forEach(gate.release);
    assert.equal((await run).stopReason, 'endTurn');
  } finally {
    await engine.close();
  }
});

test('sequential runs one call at a time; batched(2) runs two, then one', async () => {
  for (const [strategy, firstWave] of [
    ['sequential', 1],
    [{ batched: 2 }, 2],
  ] as const) {
    const held = gatedTool('gate');
    const steering = await startEngine([threeCalls(), reply.text('ok')], { tools: [held.tool], strategy });
    try {
      // Steering is read between units, so a steer while the first unit is held skips every later
      // unit: none of them may have started, however late a wrongly started call would show.
      const steered = steering.agent.run('go');
      await held.whenStarted(firstWave);
      steering.agent.steer('stop after this unit');
      held.openAll();
      assert.equal((await steered).stopReason, 'endTurn');
      assert.deepEqual(held.started, ['1', '2', '3'].slice(0, firstWave), `${JSON.stringify(strategy)}: first unit only`);
    } finally {
      await steering.close();
    }

    const gate = gatedTool('gate');
    const engine = await startEngine([threeCalls(), reply.text('ok')], { tools: [gate.tool], strategy });
    try {
      const run = engine.agent.run('go');
      await gate.whenStarted(firstWave);
      for (let released = 0; released < 3;) {
        const ready = gate.started.length;
        while (released < ready) gate.release(String(++released));
        if (released < 3) await gate.whenStarted(released + 1);
      }
      assert.equal((await run).stopReason, 'endTurn');
      assert.deepEqual(gate.started, ['1', '2', '3']);
    } finally {
      await engine.close();
    }
  }
});

test('steering skips the calls not yet started and reaches the model with the results', async () => {
  const gate = gatedTool('gate');
  const engine = await startEngine([threeCalls(), reply.text('changed course')], { tools: [gate.tool], strategy: 'sequential' });
  try {
    const run = engine.agent.run('go');
    await gate.whenStarted(1);
    engine.agent.steer('stop that and look at README instead');
    gate.release('1');
    assert.equal((await run).stopReason, 'endTurn');
    assert.deepEqual(gate.started, ['1'], 'calls after the steering point are skipped');
    const ends = engine.ofType('toolExecutionEnd');
    assert.equal(ends.length, 3);
    assert.equal(ends[1]!.result.errorKind, 'cancelled');
    assert.equal((ends[2]!.result.content[0] as { text: string }).text, STEERING_SKIP_MESSAGE);
    const sent = engine.server.requests[1]!.body.messages.at(-1)!.content as Array<{ type: string; text?: string }>;
    assert.deepEqual(
      sent.map((b) => b.type),
      ['tool_result', 'tool_result', 'tool_result', 'text'],
    );
    assert.equal(sent[3]!.text, 'stop that and look at README instead');
  } finally {
    await engine.close();
  }
});

test('a steering message sent during a final reply starts another turn', async () => {
  const first = holdFirst(reply.text('first answer'), reply.text('second answer'));
  const engine = await startEngine(first.script);
  try {
    const run = engine.agent.run('question');
    await engine.server.waitForRequests(1);
    engine.agent.steer('and one more thing');
    first.release();
    assert.equal((await run).stopReason, 'endTurn');
    assert.equal(engine.server.requests.length, 2);
    const last = engine.server.requests[1]!.body.messages.at(-1)!;
    assert.equal(last.role, 'user');
    assert.match(JSON.stringify(last.content), /and one more thing/);
  } finally {
    await engine.close();
  }
});

test('middleware can allow, rewrite or deny; a throwing middleware denies', async () => {
  const echo = testTool('echo');
  const seen: Array<{ args: unknown; request: string | undefined }> = [];
  const policy: ToolMiddleware = {
    name: 'policy',
    beforeTool(call) {
      seen.push({ args: call.args, request: call.userRequest() });
      const value = (call.args as { value: string }).value;
      if (value === 'deny') return { action: 'deny', reason: 'not today' };
      if (value === 'rewrite') return { action: 'modify', args: { value: 'rewritten' } };
      if (value === 'explode') throw new Error('policy bug');
      return { action: 'allow' };
    },
  };
  const engine = await startEngine([reply.message(['allow', 'deny', 'rewrite', 'explode'].map((value) => block.toolUse('echo', { value }, { id: `toolu_${value}` }))), reply.text('ok')], {
    tools: [echo],
    middleware: [policy],
  });
  try {
    await engine.agent.run('please echo things');
    assert.deepEqual(echo.calls, [{ value: 'allow' }, { value: 'rewritten' }]);
    const ends = new Map(engine.ofType('toolExecutionEnd').map((e) => [e.toolCallId, e]));
    assert.equal((ends.get('toolu_deny')!.result.content[0] as { text: string }).text, 'Tool call denied: not today');
    assert.match((ends.get('toolu_explode')!.result.content[0] as { text: string }).text, /^Tool call denied: middleware policy failed \(policy bug\)/);
    const startOfRewrite = engine.ofType('toolExecutionStart').find((e) => e.toolCallId === 'toolu_rewrite')!;
    assert.deepEqual(startOfRewrite.args, { value: 'rewritten' }, 'the start event carries what actually runs');
    assert.ok(seen.every((s) => s.request === 'please echo things'));
  } finally {
    await engine.close();
  }
});

test('tool sources: own tools win, earlier sources win, sourced tools sorted, a failing source is logged', async () => {
  const own = testTool('shared_name', () => ({ content: [{ type: 'text', text: 'own' }] }));
  const source = (name: string, tools: Tool[]): ToolSource => ({ name, tools: async () => tools });
  const failing: ToolSource = {
    name: 'broken',
    tools: async () => {
      throw new Error('server gone');
    },
  };
  const engine = await startEngine([reply.message([block.toolUse('shared_name', {}), block.toolUse('zeta', {})]), reply.text('ok')], {
    tools: [own],
    toolSources: [
      source('first', [testTool('zeta', () => ({ content: [{ type: 'text', text: 'first zeta' }] })), testTool('shared_name'), testTool('alpha')]),
      failing,
      source('second', [testTool('zeta', () => ({ content: [{ type: 'text', text: 'second zeta' }] })), testTool('beta')]),
    ],
  });
  try {
    await engine.agent.run('go');
    const offered = (engine.server.requests[0]!.body.tools ?? []).map((t) => (t as { name: string }).name);
    assert.deepEqual(offered, ['shared_name', 'alpha', 'beta', 'zeta']);
    const texts = engine.ofType('toolExecutionEnd').map((e) => (e.result.content[0] as { text: string }).text);
    assert.deepEqual(texts, ['own', 'first zeta']);
    assert.ok(engine.logs.some((l) => l.includes('broken') && l.includes('server gone')));
    assert.ok(engine.logs.some((l) => l.includes('zeta') && l.includes('second')));
  } finally {
    await engine.close();
  }
});

test('edits of one file in one reply run in the reply’s order, so none undoes another; other calls still start at once', async (t) => {
  const root = mkdtempSync(join(tmpdir(), 'cove-same-file-'));
  t.after(() => rmSync(root, { recursive: true, force: true }));
  writeFileSync(join(root, 'a.txt'), 'one\ntwo\nthree\n');
  const gate = gatedTool('gate');
  const edits = reply.message([
    block.toolUse('edit_file', { path: 'a.txt', old_text: 'one', new_text: 'ONE' }, { id: 'toolu_e1' }),
    block.toolUse('edit_file', { path: 'a.txt', old_text: 'two', new_text: 'TWO' }, { id: 'toolu_e2' }),
    block.toolUse('gate', { value: 'beside' }, { id: 'toolu_g' }),
    block.toolUse('edit_file', { path: join(root, 'a.txt'), old_text: 'three', new_text: 'THREE' }, { id: 'toolu_e3' }),
  ]);
  const engine = await startEngine([edits, reply.text('ok')], { tools: [editFileTool, gate.tool], workspaceRoots: [root] });
  try {
    const run = engine.agent.run('go');
    // The unrelated call is not held behind the edits.
    await gate.whenStarted(1);
    gate.openAll();
    assert.equal((await run).stopReason, 'endTurn');
    assert.equal(readFileSync(join(root, 'a.txt'), 'utf8'), 'ONE\nTWO\nTHREE\n');
    const ends = engine.events.filter((event) => event.type === 'toolExecutionEnd' && event.toolName === 'edit_file');
    assert.deepEqual(
      ends.map((event) => (event.type === 'toolExecutionEnd' ? [event.toolCallId, event.isError] : [])),
      [
        ['toolu_e1', false],
        ['toolu_e2', false],
        ['toolu_e3', false],
      ],
    );
  } finally {
    await engine.close();
  }
});
