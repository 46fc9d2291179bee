// `cove run` ends that are not normal: each exits non-zero with one line saying why, and a
// refused request is not sent again on --resume. Also a gateway: a model id Cove does not know,
// no Models API, and the cost reported as unknown.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { block, reply } from '../support/model-server';
import { cliFixture } from '../support/cove-cli';

const cases = [
  { name: 'max_tokens after its continuations', script: () => [0, 1, 2].map(() => reply.text('cut', { stopReason: 'max_tokens' })), stop: 'truncated', line: /cut off at the output limit/ },
  { name: 'a refusal', script: () => [reply.text('No.', { stopReason: 'refusal' })], stop: 'refused', line: /declined this request/ },
] as const;

for (const entry of cases) {
  test(`cove run ends on ${entry.name} with exit 1 and one line naming it`, async () => {
    const f = await cliFixture([...entry.script()]);
    try {
      const result = await f.home.run(['run', '--workspace', f.workspace, 'Do the thing']);
      assert.equal(result.code, 1, result.stderr);
      const lines = result.stderr.trim().split('\n');
      assert.match(lines.at(-1)!, /^cove: /);
      assert.match(lines.at(-1)!, entry.line);
      assert.equal(lines.filter((line) => entry.line.test(line)).length, 1, result.stderr);
    } finally {
      await f.close();
    }
  });
}

test('a refused request is kept out of the conversation on --resume', async () => {
  const f = await cliFixture([reply.text('Sure.'), reply.text('No.', { stopReason: 'refusal' }), reply.text('Resumed fine.')]);
  try {
    const first = await f.home.run(['run', '--json', '--workspace', f.workspace, 'Plant a tree']);
    assert.equal(first.code, 0, first.stderr);
    const sessionId = first.events[0]!.sessionId;
    const refused = await f.home.run(['run', '--json', '--resume', sessionId, 'Something refused']);
    assert.equal(refused.code, 1);
    const end = refused.events.find((event) => event.type === 'agentEnd');
    assert.equal(end?.type === 'agentEnd' && end.stopReason, 'refused');
    const resumed = await f.home.run(['run', '--resume', sessionId, 'Water it']);
    assert.equal(resumed.code, 0, resumed.stderr);
    const sent = JSON.stringify(f.server.requests[2]!.body.messages);
    assert.match(sent, /Plant a tree/);
    assert.match(sent, /Water it/);
    assert.doesNotMatch(sent, /Something refused/);
    assert.doesNotMatch(sent, /"No\."/);
  } finally {
    await f.close();
  }
});

test('a gateway: an unknown model id runs without a Models API, with its cost unknown', async () => {
  const f = await cliFixture([reply.text('Hello from a local model.'), reply.text('Again.')]);
  try {
    const result = await f.home.run(['run', '--model', 'qwen3-coder:30b', '--workspace', f.workspace, 'Hello']);
    assert.equal(result.code, 0, result.stderr);
    assert.equal(result.stdout, 'Hello from a local model.\n');
    assert.match(result.stderr, /cost unknown/);
    assert.match(result.stderr, /Models API .* did not answer/);
    const body = f.server.requests[0]!.body as { model: string; thinking?: unknown; max_tokens: number };
    assert.equal(body.model, 'qwen3-coder:30b');
    assert.equal(body.thinking, undefined);
    assert.equal(body.max_tokens, 8192);
    const json = await f.home.run(['run', '--json', '--model', 'qwen3-coder:30b', '--workspace', f.workspace, 'Hello']);
    const end = json.events.find((event) => event.type === 'agentEnd');
    assert.ok(end?.type === 'agentEnd');
    assert.equal(end.cost, null);
    const listed = await f.home.run(['sessions']);
    assert.match(listed.stdout, /cost unknown/);
    const rows = (await f.home.run(['sessions', '--json'])).stdout
      .trim()
      .split('\n')
      .map((line) => JSON.parse(line));
    assert.ok(rows.every((row) => row.costUsd === null));
  } finally {
    await f.close();
  }
});

test('resuming with another model drops the thinking blocks only their own model can read', async () => {
  const f = await cliFixture([
    reply.message([block.thinking('Planning the tree.', { signature: 'c29ubmV0LTUtc2lnbmF0dXJl' }), block.text('Planted.')]),
    reply.text('Watered.'),
    reply.text('Watered again.'),
  ]);
  try {
    const first = await f.home.run(['run', '--json', '--model', 'claude-sonnet-5', '--workspace', f.workspace, 'Plant a tree']);
    assert.equal(first.code, 0, first.stderr);
    const sessionId = first.events[0]!.sessionId;
    const same = await f.home.run(['run', '--resume', sessionId, 'Water it']);
    assert.equal(same.code, 0, same.stderr);
    assert.match(JSON.stringify(f.server.requests[1]!.body.messages), /c29ubmV0LTUtc2lnbmF0dXJl/, 'the same model gets its thinking back');
    const other = await f.home.run(['run', '--resume', sessionId, '--model', 'claude-sonnet-5-5', 'Water it again']);
    assert.equal(other.code, 0, other.stderr);
    const sent = JSON.stringify(f.server.requests[2]!.body.messages);
    assert.doesNotMatch(sent, /"thinking"|c29ubmV0LTUtc2lnbmF0dXJl/);
    assert.match(sent, /Planted\./);
    assert.equal((f.server.requests[2]!.body as { model: string }).model, 'claude-sonnet-5-5');
  } finally {
    await f.close();
  }
});
