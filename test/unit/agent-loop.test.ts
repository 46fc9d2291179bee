import { test } from 'node:test';
import assert from 'node:assert/strict';
import { block, reply } from '../support/model-server';
import { assertValidHistory, startEngine, testTool } from '../support/engine';
import { ToolError } from '../../electron/core/agent/types';

test('streams a text reply through the real SDK and publishes the events in order', async () => {
  const engine = await startEngine([reply.text('Hello from the model, streamed in pieces.', { chunks: 5, usage: { input_tokens: 120, output_tokens: 9 } })]);
  try {
    const outcome = await engine.agent.run('say hello');
    assert.equal(outcome.stopReason, 'endTurn');
    const types = engine.events.map((e) => e.type).filter((t) => t !== 'messageUpdate');
    assert.deepEqual(types, ['agentStart', 'turnStart', 'messageStart', 'messageEnd', 'turnEnd', 'agentEnd']);
    // The five chunks may come in one network read, and are then handed on as one delta: never lost.
    const deltas = engine.ofType('messageUpdate');
    assert.ok(deltas.length >= 1 && deltas.length <= 5, `${deltas.length} deltas`);
    assert.equal(deltas.map((d) => (d.delta.type === 'text' ? d.delta.text : '')).join(''), 'Hello from the model, streamed in pieces.');
    assert.ok(engine.events.every((e) => e.sessionId === 'session-test'));
    assert.deepEqual(outcome.usage, { input: 120, output: 9, cacheRead: 0, cacheWrite: 0 });
    // claude-sonnet-5: $2 in, $10 out per million tokens (the published price, see pricing.ts).
    assert.ok(Math.abs(outcome.cost!.total - (120 * 2 + 9 * 10) / 1e6) < 1e-12);
    assert.equal(engine.server.requests[0]!.apiKey, 'test-key');
    assert.deepEqual(
      engine.agent.messages.map((m) => m.role),
      ['user', 'assistant'],
    );
  } finally {
    await engine.close();
  }
});

test('runs a tool call and sends its result back; parallel calls are answered in one message', async () => {
  const echo = testTool('echo');
  const engine = await startEngine(
    [reply.message([block.text('Two calls.'), block.toolUse('echo', { value: 'a' }, { id: 'toolu_a' }), block.toolUse('echo', { value: 'b' }, { id: 'toolu_b' })]), reply.text('done')],
    { tools: [echo] },
  );
  try {
    const outcome = await engine.agent.run('call echo twice');
    assert.equal(outcome.stopReason, 'endTurn');
    assert.deepEqual(echo.calls, [{ value: 'a' }, { value: 'b' }]);
    const second = engine.server.requests[1]!.body;
    const last = second.messages.at(-1)!;
    assert.equal(last.role, 'user');
    const results = (last.content as Array<{ type: string; tool_use_id: string; is_error?: boolean }>).filter((b) => b.type === 'tool_result');
    assert.deepEqual(
      results.map((r) => r.tool_use_id),
      ['toolu_a', 'toolu_b'],
    );
    assert.ok(results.every((r) => !r.is_error));
    const ends = engine.ofType('toolExecutionEnd');
    assert.deepEqual(
      ends.map((e) => [e.toolCallId, e.isError]),
      [
        ['toolu_a', false],
        ['toolu_b', false],
      ],
    );
    assert.equal(engine.ofType('toolExecutionStart').length, 2);
    assertValidHistory(engine.agent.messages);
  } finally {
    await engine.close();
  }
});

test('bad tool input never runs the tool and names the problem', async () => {
  const echo = testTool('echo');
  const engine = await startEngine(
    [
      reply.message([
        block.rawToolUse('echo', '{"value": "unterminated', { id: 'toolu_json' }),
        block.toolUse('echo', { value: 42 }, { id: 'toolu_type' }),
        block.toolUse('echo', { other: 'x' }, { id: 'toolu_extra' }),
        block.toolUse('nope', {}, { id: 'toolu_unknown' }),
      ]),
      reply.text('ok'),
    ],
    { tools: [echo] },
  );
  try {
    await engine.agent.run('go');
    assert.equal(echo.calls.length, 0, 'the tool must not run on bad arguments');
    const byId = new Map(engine.ofType('toolExecutionEnd').map((e) => [e.toolCallId, e]));
    const text = (id: string) => (byId.get(id)!.result.content[0] as { text: string }).text;
    assert.match(text('toolu_json'), /not valid JSON/);
    assert.equal(byId.get('toolu_json')!.result.errorKind, 'invalidArgs');
    assert.match(text('toolu_type'), /field 'value' must be string/);
    assert.match(text('toolu_extra'), /unknown field 'other'/);
    assert.equal(text('toolu_unknown'), 'Tool nope not found');
    assert.ok([...byId.values()].every((e) => e.isError));
    assert.equal(engine.server.requests.length, 2, 'the loop goes on after the errors');
  } finally {
    await engine.close();
  }
});

test('a reply cut off by max_tokens never runs its calls', async () => {
  const echo = testTool('echo');
  const engine = await startEngine([reply.message([block.toolUse('echo', { value: 'partial' })], { stopReason: 'max_tokens' }), reply.text('retrying smaller')], {
    tools: [echo],
  });
  try {
    await engine.agent.run('write a big file');
    assert.equal(echo.calls.length, 0);
    const end = engine.ofType('toolExecutionEnd')[0]!;
    assert.equal(end.result.errorKind, 'invalidArgs');
    assert.match((end.result.content[0] as { text: string }).text, /max_tokens/);
  } finally {
    await engine.close();
  }
});

test('a tool that throws becomes an error result and the loop goes on', async () => {
  const broken = testTool('broken', () => {
    throw new Error('disk on fire');
  });
  const missing = testTool('missing', () => {
    throw ToolError.notFound('src/x.ts does not exist');
  });
  const engine = await startEngine([reply.message([block.toolUse('broken', {}), block.toolUse('missing', {})]), reply.text('recovered')], {
    tools: [broken, missing],
  });
  try {
    const outcome = await engine.agent.run('go');
    assert.equal(outcome.stopReason, 'endTurn');
    const [first, second] = engine.ofType('toolExecutionEnd');
    assert.equal(first!.isError, true);
    assert.match((first!.result.content[0] as { text: string }).text, /Tool broken failed: disk on fire/);
    assert.equal(second!.result.errorKind, 'notFound');
    const results = engine.server.requests[1]!.body.messages.at(-1)!.content as Array<{ is_error?: boolean }>;
    assert.ok(results.every((r) => r.is_error === true));
  } finally {
    await engine.close();
  }
});

test('tool updates and progress are published, redacted, and never sent to the model', async () => {
  const secret = 'sk-test-SECRETVALUE123';
  const tool = testTool('work', async (_params, ctx) => {
    ctx.onUpdate({ content: [{ type: 'text', text: `chunk with ${secret}` }], details: { progress: 0.5, note: secret } });
    ctx.onProgress(`halfway ${secret}`);
    return { content: [{ type: 'text', text: `final ${secret}` }], details: { raw: secret }, diff: `+${secret}` };
  });
  const redactor = { redact: (text: string) => ({ text: text.split(secret).join('[REDACTED]'), count: text.split(secret).length - 1 }) };
  const engine = await startEngine([reply.message([block.toolUse('work', {})]), reply.text('ok')], { tools: [tool], secrets: redactor });
  try {
    await engine.agent.run('go');
    const published = JSON.stringify(engine.events);
    assert.ok(!published.includes(secret), 'no event may carry the secret');
    assert.equal(engine.ofType('toolExecutionUpdate').length, 1);
    assert.deepEqual(engine.ofType('toolExecutionUpdate')[0]!.partialResult.details, { progress: 0.5, note: '[REDACTED]' });
    assert.equal(engine.ofType('progressMessage')[0]!.text, 'halfway [REDACTED]');
    const end = engine.ofType('toolExecutionEnd')[0]!;
    assert.equal(end.result.redactions, 3);
    const sent = engine.server.requests[1]!.rawBody;
    assert.ok(!sent.includes(secret));
    assert.ok(!sent.includes('chunk with'), 'updates are for the UI only');
    assert.match(sent, /3 secret value\(s\) were redacted/);
  } finally {
    await engine.close();
  }
});
