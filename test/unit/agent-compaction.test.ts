// Compaction with a thinking model: the summary request leaves room for thinking, and older turns
// are replaced only by a summary that has words in it.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { block, reply } from '../support/model-server';
import { assertValidHistory, startEngine, testTool } from '../support/engine';

const big = 'x'.repeat(4000);

function compactingScript(summary: () => ReturnType<typeof reply.text>) {
  let call = 0;
  return (request: { body: unknown }) => {
    const system = JSON.stringify((request.body as { system?: unknown }).system ?? '');
    if (system.includes('You summarize the earlier part')) return summary();
    call++;
    return call <= 3 ? reply.message([block.toolUse('echo', { value: `${call}-${big}` })]) : reply.text('all done');
  };
}

test('the summary request of a thinking model has room for thinking and the summary', async () => {
  const engine = await startEngine(
    compactingScript(() => reply.message([block.thinking('What matters here…'), block.text('SUMMARY: echoed three times')])),
    {
      model: 'claude-sonnet-5-5',
      tools: [testTool('echo')],
      contextWindow: 6000,
    },
  );
  try {
    assert.equal((await engine.agent.run('echo three times')).stopReason, 'endTurn');
    const summaries = engine.server.requests.filter((r) => JSON.stringify(r.body.system ?? '').includes('You summarize'));
    assert.ok(summaries.length >= 1);
    for (const request of summaries) {
      const body = request.body as { max_tokens: number; thinking?: unknown };
      assert.equal(body.max_tokens, 32_000);
      assert.deepEqual(body.thinking, { type: 'adaptive', display: 'summarized' });
    }
    assert.ok(engine.ofType('contextCompacted').every((event) => event.summarized));
    // The summary's text is kept, its thinking is not.
    const summary = JSON.stringify(engine.agent.messages[0]!.content);
    assert.match(summary, /SUMMARY: echoed three times/);
    assert.doesNotMatch(summary, /What matters here/);
    assertValidHistory(engine.agent.messages);
  } finally {
    await engine.close();
  }
});

test('an empty summary (only thinking, or blank text) does not replace the older turns', async () => {
  const engine = await startEngine(
    compactingScript(() => reply.message([block.thinking('Thinking only.'), block.text('   ')])),
    {
      tools: [testTool('echo')],
      contextWindow: 6000,
    },
  );
  try {
    assert.equal((await engine.agent.run('echo three times')).stopReason, 'endTurn');
    assert.equal(engine.ofType('contextCompacted').length, 0);
    assert.match(engine.logs.join('\n'), /got no summary; the history is kept/);
    assert.equal(engine.agent.messages.length, 8);
    assert.match(JSON.stringify(engine.agent.messages[0]!.content), /echo three times/);
  } finally {
    await engine.close();
  }
});
