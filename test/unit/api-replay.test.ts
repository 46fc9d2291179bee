// Replays realistic API streams (test/fixtures/api-streams) through the real SDK and engine, and
// checks both what the person sees (events) and the next request Cove sends.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { reply } from '../support/model-server';
import { assertValidHistory, startEngine, testTool } from '../support/engine';
import * as corpus from '../fixtures/api-streams/corpus';

type Sent = { role: string; content: Array<Record<string, unknown>> };

function messagesOf(body: unknown): Sent[] {
  return (body as { messages: Sent[] }).messages.map((m) => ({ role: m.role, content: typeof m.content === 'string' ? [{ type: 'text', text: m.content }] : m.content }));
}

/** The assistant message of the first reply, as the second request carries it, without cache markers. */
function sentBack(body: unknown): Array<Record<string, unknown>> {
  const assistant = messagesOf(body).find((m) => m.role === 'assistant');
  assert.ok(assistant, 'the second request carries the first reply');
  return assistant.content.map(({ cache_control, ...block }) => block);
}

async function replayThenAnswer(events: corpus.WireEvent[], prompts = ['go']) {
  const engine = await startEngine([reply.raw(events), reply.text('Done.'), reply.text('Again.')], { tools: [testTool('echo')] });
  const outcomes = [];
  for (const prompt of prompts) outcomes.push(await engine.agent.run(prompt));
  return { engine, outcomes };
}

const thinkingCases = [
  { name: 'a thinking start block without a signature field (streaming docs)', events: corpus.thinkingWithoutStartSignature(), signature: corpus.SIGNATURE },
  { name: 'a thinking start block with an empty signature (SDK fixture)', events: corpus.thinkingWithEmptyStartSignature(), signature: corpus.SIGNATURE },
  { name: 'a signature given in the start block only', events: corpus.thinkingWithStartSignature(), signature: 'c2lnbmF0dXJlLWluLXN0YXJ0' },
  { name: 'omitted thinking: empty text, a signature', events: corpus.omittedThinking(), signature: corpus.SIGNATURE },
];

for (const entry of thinkingCases) {
  test(`${entry.name} is sent back with exactly its signature`, async () => {
    const { engine, outcomes } = await replayThenAnswer(entry.events);
    try {
      assert.equal(outcomes[0]!.stopReason, 'endTurn');
      const back = sentBack(engine.server.requests[1]!.body);
      const thinking = back.find((block) => block.type === 'thinking');
      assert.ok(thinking, 'the thinking block is sent back');
      assert.equal(thinking.signature, entry.signature);
      assert.doesNotMatch(engine.server.requests[1]!.rawBody, /undefined/);
      // Sent back first, as received, ahead of the tool call it led to.
      assert.equal(back[0]!.type, 'thinking');
      assert.equal(back.at(-1)!.type, 'tool_use');
      const end = engine.ofType('messageEnd')[0]!;
      assert.deepEqual(end.content[0], { type: 'thinking', thinking: thinking.thinking, signature: entry.signature });
      assertValidHistory(engine.agent.messages);
    } finally {
      await engine.close();
    }
  });
}

test('thinking deltas reach the person as thinking, not as reply text', async () => {
  const { engine } = await replayThenAnswer(corpus.thinkingWithoutStartSignature());
  try {
    const deltas = engine.ofType('messageUpdate').map((event) => event.delta);
    const thinking = deltas.flatMap((d) => (d.type === 'thinking' ? [d.thinking] : [])).join('');
    const text = deltas.flatMap((d) => (d.type === 'text' ? [d.text] : [])).join('');
    assert.match(thinking, /Euclidean algorithm/);
    assert.equal(text, 'Let me check the numbers file first.Done.');
  } finally {
    await engine.close();
  }
});

test('redacted thinking is kept and sent back byte for byte', async () => {
  const { engine } = await replayThenAnswer(corpus.redactedThinking());
  try {
    const back = sentBack(engine.server.requests[1]!.body);
    assert.deepEqual(back[0], { type: 'redacted_thinking', data: corpus.REDACTED });
  } finally {
    await engine.close();
  }
});

test('citations arrive with the text and are sent back with it on the next prompt', async () => {
  const { engine, outcomes } = await replayThenAnswer(corpus.citations(), ['What colour is the grass?', 'And the sky?']);
  try {
    assert.deepEqual(
      outcomes.map((o) => o.stopReason),
      ['endTurn', 'endTurn'],
    );
    const end = engine.ofType('messageEnd')[0]!;
    assert.deepEqual(end.content, [{ type: 'text', text: 'The grass is green.', citations: [corpus.CITATION] }]);
    assert.deepEqual(sentBack(engine.server.requests[1]!.body), [{ type: 'text', text: 'The grass is green.', citations: [corpus.CITATION] }]);
  } finally {
    await engine.close();
  }
});

test('server tool blocks (server_tool_use, web_search_tool_result) are kept and sent back unchanged', async () => {
  const { engine } = await replayThenAnswer(corpus.webSearch(), ['Weather in Paris?', 'Thanks']);
  try {
    const back = sentBack(engine.server.requests[1]!.body);
    assert.deepEqual(
      back.map((block) => block.type),
      ['text', 'server_tool_use', 'web_search_tool_result', 'text'],
    );
    assert.deepEqual(back[1], { type: 'server_tool_use', id: 'srvtoolu_corpus01', name: 'web_search', input: { query: 'weather Paris' } });
    assert.deepEqual(back[2], { type: 'web_search_tool_result', tool_use_id: 'srvtoolu_corpus01', content: [corpus.SEARCH_RESULT] });
    // A server tool is not Cove's to run.
    assert.equal(engine.ofType('toolExecutionStart').length, 0);
  } finally {
    await engine.close();
  }
});

test('an error event mid-stream is retried and nothing of the failed attempt is kept', async () => {
  const engine = await startEngine([reply.raw(corpus.errorMidStream()), reply.text('The whole reply.'), reply.text('ok')]);
  try {
    const outcome = await engine.agent.run('go');
    assert.equal(outcome.stopReason, 'endTurn');
    const retry = engine.ofType('providerRetry');
    assert.equal(retry.length, 1);
    assert.match(retry[0]!.error, /overloaded/i);
    await engine.agent.run('next');
    const sent = JSON.stringify(messagesOf(engine.server.requests[2]!.body));
    assert.doesNotMatch(sent, /is discarded/);
    assert.match(sent, /The whole reply\./);
  } finally {
    await engine.close();
  }
});

for (const stopReason of ['end_turn', 'stop_sequence']) {
  test(`stop reason ${stopReason} is a normal end`, async () => {
    const engine = await startEngine([reply.raw(corpus.textReply(stopReason, 'Finished.'))]);
    try {
      const outcome = await engine.agent.run('go');
      assert.equal(outcome.stopReason, 'endTurn');
      assert.equal(engine.server.requests.length, 1);
    } finally {
      await engine.close();
    }
  });
}

test('max_tokens continues the reply, and the next request asks to continue after the cut text', async () => {
  const engine = await startEngine([reply.raw(corpus.textReply('max_tokens', 'The first half')), reply.text(' and the second half.')]);
  try {
    const outcome = await engine.agent.run('Write it');
    assert.equal(outcome.stopReason, 'endTurn');
    const sent = messagesOf(engine.server.requests[1]!.body);
    assert.deepEqual(
      sent.map((m) => m.role),
      ['user', 'assistant', 'user'],
    );
    assert.equal(sent[1]!.content[0]!.text, 'The first half');
    assert.match(String(sent[2]!.content[0]!.text), /^\[Cove\] Your reply was cut off at the output limit/);
    assertValidHistory(engine.agent.messages);
  } finally {
    await engine.close();
  }
});

test('max_tokens again and again ends the run as truncated, with a reason', async () => {
  const cut = () => reply.raw(corpus.textReply('max_tokens', 'more'));
  const engine = await startEngine([cut(), cut(), cut(), cut()]);
  try {
    const outcome = await engine.agent.run('Write a novel');
    assert.equal(outcome.stopReason, 'truncated');
    assert.match(outcome.error ?? '', /cut off at the output limit/);
    assert.equal(engine.server.requests.length, 3);
    assert.equal(engine.ofType('agentEnd')[0]!.stopReason, 'truncated');
  } finally {
    await engine.close();
  }
});

test('a refusal is shown, ends the run as refused, and the refused exchange is not sent again', async () => {
  const engine = await startEngine([reply.text('Hello there.'), reply.raw(corpus.textReply('refusal', 'Hi')), reply.text('Happy to help with that.')]);
  try {
    await engine.agent.run('Say hello');
    const outcome = await engine.agent.run('Something refused');
    assert.equal(outcome.stopReason, 'refused');
    assert.match(outcome.error ?? '', /declined/);
    const end = engine.ofType('agentEnd')[1]!;
    assert.equal(end.stopReason, 'refused');
    await engine.agent.run('Something else');
    const sent = JSON.stringify(messagesOf(engine.server.requests[2]!.body));
    assert.doesNotMatch(sent, /Something refused/);
    assert.match(sent, /Say hello/);
    assert.match(sent, /Something else/);
    // The store learns it too, so --resume does not send it either.
    const last = engine.history.filter((change) => change.kind === 'replaceAll').at(-1);
    assert.ok(last && last.kind === 'replaceAll');
    assert.doesNotMatch(JSON.stringify(last.messages), /Something refused/);
  } finally {
    await engine.close();
  }
});

test('pause_turn sends the paused reply back as the last message and resumes', async () => {
  const engine = await startEngine([
    reply.raw(
      corpus
        .webSearch()
        .map((e) => (e.event === 'message_delta' ? { ...e, data: { type: 'message_delta', delta: { stop_reason: 'pause_turn', stop_sequence: null }, usage: { output_tokens: 50 } } } : e)),
    ),
    reply.text('Resumed.'),
  ]);
  try {
    const outcome = await engine.agent.run('Search');
    assert.equal(outcome.stopReason, 'endTurn');
    const sent = messagesOf(engine.server.requests[1]!.body);
    assert.deepEqual(
      sent.map((m) => m.role),
      ['user', 'assistant'],
    );
    assert.equal(sent[1]!.content[1]!.type, 'server_tool_use');
  } finally {
    await engine.close();
  }
});

test('model_context_window_exceeded compacts and retries once, then stops with a reason', async () => {
  const engine = await startEngine(
    (request) => {
      const system = JSON.stringify((request.body as { system?: unknown }).system ?? '');
      if (system.includes('You summarize')) return reply.text('Summary of the earlier work.');
      return reply.raw(corpus.textReply('model_context_window_exceeded', 'partial'));
    },
    {
      messages: [
        { role: 'user', content: [{ type: 'text', text: 'First task' }] },
        { role: 'assistant', content: [{ type: 'text', text: 'First answer' }] },
        { role: 'user', content: [{ type: 'text', text: 'Second task' }] },
        { role: 'assistant', content: [{ type: 'text', text: 'Second answer' }] },
      ],
    },
  );
  try {
    const outcome = await engine.agent.run('Third task');
    assert.equal(outcome.stopReason, 'contextExceeded');
    assert.equal(engine.ofType('contextCompacted').length, 1);
    const bodies = engine.server.requests.map((r) => JSON.stringify(r.body));
    // reply, summary, retried reply: and the retry carries the summary, not the old turns.
    assert.equal(bodies.length, 3);
    assert.match(bodies[2]!, /Summary of the earlier work/);
    assert.doesNotMatch(bodies[2]!, /First answer/);
    assert.doesNotMatch(bodies[2]!, /partial/);
  } finally {
    await engine.close();
  }
});

test('unknown event, block and delta types and an unknown stop reason are logged and skipped, never a crash', async () => {
  const engine = await startEngine([reply.raw(corpus.unknownShapes('future_reason')), reply.text('ok')]);
  try {
    const outcome = await engine.agent.run('go');
    assert.equal(outcome.stopReason, 'endTurn');
    assert.deepEqual(engine.ofType('messageEnd')[0]!.content, [{ type: 'text', text: 'Still readable.' }]);
    const logs = engine.logs.join('\n');
    assert.match(logs, /content_block_hint/);
    assert.match(logs, /hologram/);
    assert.match(logs, /sparkle_delta/);
    assert.match(logs, /future_reason/);
  } finally {
    await engine.close();
  }
});

test('current models are asked for adaptive thinking with summarized display; unknown ones get no thinking field', async () => {
  const known = await startEngine([reply.text('a')], { model: 'claude-sonnet-5-5' });
  const unknown = await startEngine([reply.text('b')], { model: 'llama3.2:latest' });
  try {
    await known.agent.run('go');
    await unknown.agent.run('go');
    assert.deepEqual((known.server.requests[0]!.body as { thinking?: unknown }).thinking, { type: 'adaptive', display: 'summarized' });
    assert.equal((unknown.server.requests[0]!.body as { thinking?: unknown }).thinking, undefined);
    assert.equal(unknown.ofType('agentEnd')[0]!.cost, null);
  } finally {
    await known.close();
    await unknown.close();
  }
});

test('a refused prompt that was merged into a trailing user message is taken out of it too', async () => {
  const engine = await startEngine([reply.raw(corpus.textReply('refusal', 'No')), reply.text('Fine.')], {
    tools: [testTool('echo')],
    // An interrupted run: its call is answered as interrupted, and the next prompt joins that message.
    messages: [
      { role: 'user', content: [{ type: 'text', text: 'Start' }] },
      { role: 'assistant', content: [{ type: 'tool_use', id: 'toolu_dangling', name: 'echo', input: { value: 'v' } }] },
    ],
  });
  try {
    assert.equal((await engine.agent.run('Refused words')).stopReason, 'refused');
    await engine.agent.run('Kept words');
    const sent = messagesOf(engine.server.requests[1]!.body);
    const text = JSON.stringify(sent);
    assert.doesNotMatch(text, /Refused words/);
    assert.match(text, /Kept words/);
    assert.match(text, /toolu_dangling/);
    assertValidHistory(engine.agent.messages);
  } finally {
    await engine.close();
  }
});

test("a recorded refusal stream in the SDK fixtures' wire format (padded JSON, stop_details) is shown and kept out of the next request", async () => {
  const { readFileSync } = await import('node:fs');
  const recorded = readFileSync(new URL('../fixtures/api-streams/refusal-after-thinking.sse', import.meta.url), 'utf8');
  const engine = await startEngine([reply.sse(recorded), reply.text('Sure, here is the weather.')], { model: 'claude-fable-5-1' });
  try {
    const refused = await engine.agent.run('Help me with something refused');
    assert.equal(refused.stopReason, 'refused');
    const shown = engine
      .ofType('messageUpdate')
      .flatMap((event) => (event.delta.type === 'text' ? [event.delta.text] : []))
      .join('');
    assert.equal(shown, "I can't help with that.");
    assert.equal(engine.ofType('messageEnd')[0]!.providerStopReason, 'refusal');
    // Fable 5.1: $10 in, $50 out per million tokens.
    assert.ok(Math.abs(refused.cost!.total - (31 * 10 + 52 * 50) / 1e6) < 1e-12);
    await engine.agent.run('What is the weather?');
    const sent = JSON.stringify(messagesOf(engine.server.requests[1]!.body));
    assert.doesNotMatch(sent, /refused|can't help|Y292ZS1jb3JwdXMtcmVmdXNhbC1zaWduYXR1cmU/);
    assert.deepEqual(
      messagesOf(engine.server.requests[1]!.body).map((m) => m.role),
      ['user'],
    );
  } finally {
    await engine.close();
  }
});
