import { test } from 'node:test';
import assert from 'node:assert/strict';
import { block, reply } from '../support/model-server';
import { assertValidHistory, startEngine, testTool } from '../support/engine';
import { retryDelay, DEFAULT_RETRY } from '../../electron/core/agent/retry';

test('429, 5xx, 529, stream errors and cut streams are retried and each retry is an event', async () => {
  const engine = await startEngine(
    [
      reply.error(429, 'rate_limit_error', 'slow down', { retryAfter: 0.03 }),
      reply.error(500, 'api_error', 'internal'),
      reply.error(529, 'overloaded_error', 'overloaded'),
      reply.streamError('overloaded_error', 'Overloaded mid-stream'),
      reply.cut({ afterEvents: 4 }),
      reply.text('finally'),
    ],
    { retry: { maxRetries: 5, baseDelayMs: 1, maxDelayMs: 5 } },
  );
  try {
    const outcome = await engine.agent.run('go');
    assert.equal(outcome.stopReason, 'endTurn');
    const retries = engine.ofType('providerRetry');
    assert.deepEqual(
      retries.map((r) => r.attempt),
      [2, 3, 4, 5, 6],
    );
    assert.ok(retries.every((r) => r.maxAttempts === 6));
    assert.equal(retries[0]!.delayMs, 30, 'retry-after is honoured');
    assert.match(retries[0]!.error, /429 rate_limit_error: slow down/);
    assert.match(retries[2]!.error, /529/);
    assert.match(retries[3]!.error, /overloaded_error/);
    assert.match(retries[4]!.error, /terminated|cut short|connection/);
    // The text of the reply that finally arrived, not of the broken ones, is in the history.
    assert.deepEqual(engine.agent.messages[1], { role: 'assistant', content: [{ type: 'text', text: 'finally' }] });
  } finally {
    await engine.close();
  }
});

test('after the last retry the run ends with the provider error in one line', async () => {
  const engine = await startEngine(() => reply.error(503, 'api_error', 'service\nunavailable'), { retry: { maxRetries: 2, baseDelayMs: 1 } });
  try {
    const outcome = await engine.agent.run('go');
    assert.equal(outcome.stopReason, 'error');
    assert.equal(engine.server.requests.length, 3);
    assert.match(outcome.error!, /^503 api_error: service unavailable \(after 3 attempts\)$/);
    assert.equal(engine.ofType('agentEnd')[0]!.error, outcome.error);
  } finally {
    await engine.close();
  }
});

test('a request the provider rejects (400) is not retried', async () => {
  const engine = await startEngine([reply.error(400, 'invalid_request_error', 'messages: bad')]);
  try {
    const outcome = await engine.agent.run('go');
    assert.equal(outcome.stopReason, 'error');
    assert.equal(engine.server.requests.length, 1);
    assert.equal(engine.ofType('providerRetry').length, 0);
  } finally {
    await engine.close();
  }
});

test('backoff doubles from 1 s, is capped at 30 s, and jitters within ±20 %', () => {
  assert.equal(
    retryDelay(1, DEFAULT_RETRY, undefined, () => 0.5),
    1000,
  );
  assert.equal(
    retryDelay(2, DEFAULT_RETRY, undefined, () => 0.5),
    2000,
  );
  assert.equal(
    retryDelay(3, DEFAULT_RETRY, undefined, () => 0),
    3200,
  );
  assert.equal(
    retryDelay(10, DEFAULT_RETRY, undefined, () => 1),
    30_000,
  );
  assert.equal(retryDelay(1, DEFAULT_RETRY, 7000), 7000);
});

test('cancelling mid-stream ends the run at once with stop reason aborted', async () => {
  const engine = await startEngine([reply.hang({ afterEvents: 4 })]);
  try {
    const run = engine.agent.run('go');
    await engine.waitFor((e) => e.type === 'messageUpdate');
    engine.agent.abort();
    const outcome = await run;
    assert.equal(outcome.stopReason, 'aborted');
    await engine.server.waitForDisconnect(0);
    // The text the person already saw is kept.
    assert.equal(engine.agent.messages.at(-1)!.role, 'assistant');
  } finally {
    await engine.close();
  }
});

test('cancelling during tools stops the running one and answers the rest; nothing runs afterwards', async () => {
  let sawAbort = false;
  const slow = testTool(
    'slow',
    (_params, ctx) =>
      new Promise((_resolve, reject) => {
        ctx.signal.addEventListener('abort', () => {
          sawAbort = true;
          reject(new Error('killed'));
        });
      }),
  );
  const after = testTool('after');
  const engine = await startEngine([reply.message([block.toolUse('slow', {}), block.toolUse('after', {})]), reply.text('never asked')], {
    tools: [slow, after],
    strategy: 'sequential',
  });
  try {
    const run = engine.agent.run('go');
    await engine.waitFor((e) => e.type === 'toolExecutionStart' && e.toolName === 'slow');
    engine.agent.abort();
    const outcome = await run;
    assert.equal(outcome.stopReason, 'aborted');
    assert.ok(sawAbort, 'the running tool received the abort');
    assert.equal(after.calls.length, 0);
    assert.equal(engine.server.requests.length, 1, 'no request after the cancel');
    const ends = engine.ofType('toolExecutionEnd');
    assert.deepEqual(
      ends.map((e) => e.result.errorKind),
      ['cancelled', 'cancelled'],
    );
    assertValidHistory(engine.agent.messages);
  } finally {
    await engine.close();
  }
});

test('the turn limit stops a run that keeps calling tools', async () => {
  let n = 0;
  const echo = testTool('echo');
  const engine = await startEngine(() => reply.message([block.toolUse('echo', { value: String(n++) })]), { tools: [echo], maxTurns: 3 });
  try {
    const outcome = await engine.agent.run('go');
    assert.equal(outcome.stopReason, 'maxTurns');
    assert.equal(engine.server.requests.length, 3);
    assert.match(outcome.error!, /3 turns/);
    assertValidHistory(engine.agent.messages);
  } finally {
    await engine.close();
  }
});

test('the same call three times in a row is nudged, and a fourth stops the run', async () => {
  const echo = testTool('echo');
  const engine = await startEngine(() => reply.message([block.toolUse('echo', { value: 'same' })]), { tools: [echo] });
  try {
    const outcome = await engine.agent.run('go');
    assert.equal(outcome.stopReason, 'loopDetected');
    assert.equal(echo.calls.length, 2, 'the third and fourth identical calls are not run');
    assert.deepEqual(
      engine.ofType('loopDetected').map((e) => [e.action, e.count]),
      [
        ['nudge', 3],
        ['stop', 4],
      ],
    );
    const nudge = engine.ofType('toolExecutionEnd')[2]!;
    assert.match((nudge.result.content[0] as { text: string }).text, /3 times in a row/);
    assertValidHistory(engine.agent.messages);
  } finally {
    await engine.close();
  }
});

test('usage and cost add up across turns', async () => {
  const engine = await startEngine(
    [
      reply.message([block.toolUse('echo', {})], { usage: { input_tokens: 1000, output_tokens: 100, cache_creation_input_tokens: 2000 } }),
      reply.text('ok', { usage: { input_tokens: 50, output_tokens: 10, cache_read_input_tokens: 2000 } }),
    ],
    { tools: [testTool('echo')] },
  );
  try {
    const outcome = await engine.agent.run('go');
    assert.deepEqual(outcome.usage, { input: 1050, output: 110, cacheRead: 2000, cacheWrite: 2000 });
    const turns = engine.ofType('turnEnd');
    assert.equal(turns.length, 2);
    // claude-sonnet-5 as published: $2 in, $10 out, $0.20 cache read, $2.50 cache write.
    const expected = (1050 * 2 + 110 * 10 + 2000 * 0.2 + 2000 * 2.5) / 1e6;
    assert.ok(Math.abs(outcome.cost!.total - expected) < 1e-12, `${outcome.cost!.total} vs ${expected}`);
    assert.ok(Math.abs(turns[0]!.cost!.total + turns[1]!.cost!.total - expected) < 1e-12);
  } finally {
    await engine.close();
  }
});

test('cache breakpoints sit on the system prompt, the last tool and the latest message', async () => {
  const engine = await startEngine([reply.message([block.toolUse('b', {})]), reply.text('ok')], {
    tools: [testTool('a'), testTool('b')],
    systemPrompt: 'You are a test.',
  });
  try {
    await engine.agent.run('go');
    for (const request of engine.server.requests) {
      const body = request.body as unknown as {
        system: Array<{ cache_control?: unknown }>;
        tools: Array<{ cache_control?: unknown }>;
        messages: Array<{ content: Array<{ cache_control?: unknown }> }>;
      };
      assert.deepEqual(body.system.at(-1)!.cache_control, { type: 'ephemeral' });
      assert.deepEqual(
        body.tools.map((t) => Boolean(t.cache_control)),
        [false, true],
      );
      const marked = body.messages.flatMap((m) => m.content.filter((b) => b.cache_control));
      assert.equal(marked.length, 1);
      assert.ok(body.messages.at(-1)!.content.at(-1)!.cache_control);
    }
    // The stored history itself carries no breakpoints.
    assert.ok(!JSON.stringify(engine.agent.messages).includes('cache_control'));
  } finally {
    await engine.close();
  }
});

test('compaction summarizes older turns without separating a tool_use from its tool_result', async () => {
  const big = 'x'.repeat(4000);
  let call = 0;
  const engine = await startEngine(
    (request) => {
      const system = JSON.stringify(request.body.system ?? '');
      if (system.includes('You summarize the earlier part')) return reply.text('SUMMARY: read files a..d');
      call++;
      return call <= 4 ? reply.message([block.toolUse('echo', { value: `${call}-${big}` })]) : reply.text('all done');
    },
    { tools: [testTool('echo')], contextWindow: 6000, compactAt: 0.8 },
  );
  try {
    const outcome = await engine.agent.run('read the four files');
    assert.equal(outcome.stopReason, 'endTurn');
    const compacted = engine.ofType('contextCompacted');
    assert.ok(compacted.length >= 1, 'compaction happened');
    assert.ok(compacted.every((c) => c.summarized));
    const afterCompaction = engine.server.requests.filter((r) => JSON.stringify(r.body.messages).includes('SUMMARY: read files'));
    assert.ok(afterCompaction.length >= 1);
    for (const request of afterCompaction) {
      const messages = request.body.messages as Array<{ role: string; content: unknown }>;
      assert.equal(messages[0]!.role, 'user');
      assert.match(JSON.stringify(messages[0]!.content), /read the four files/, 'the run prompt survives compaction');
      assertValidHistory(messages);
    }
    assertValidHistory(engine.agent.messages);
    assert.ok(engine.history.some((h) => h.kind === 'replaceAll'));
  } finally {
    await engine.close();
  }
});
