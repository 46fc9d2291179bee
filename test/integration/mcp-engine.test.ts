// End to end through the engine: an Agent whose tool source is the MCP hub, against the scripted
// model server. The model calls the everything server's tools; their results reach the model and
// their progress reaches the event stream.
import { test, after, before } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { McpHub } from '../../electron/core/mcp/mcp-hub';
import { startEngine } from '../support/engine';
import { block, reply } from '../support/model-server';
import { everythingStdio, FAST } from '../fixtures/mcp/support';

let workspace: string;
let hub: McpHub;

before(() => {
  workspace = mkdtempSync(join(tmpdir(), 'cove-mcp-engine-'));
  hub = new McpHub({ workspace, dataDir: workspace, config: { servers: [everythingStdio()], problems: [] }, ...FAST });
});

after(async () => {
  await hub.close();
  rmSync(workspace, { recursive: true, force: true });
});

function toolResultOf(body: { messages: Array<{ content: unknown }> }, id: string) {
  const last = body.messages.at(-1)!.content as Array<{ type: string; tool_use_id?: string; content?: Array<{ type: string; text?: string }>; is_error?: boolean }>;
  return last.find((part) => part.type === 'tool_result' && part.tool_use_id === id);
}

test('the model calls MCP tools through the engine: results reach it, progress reaches the events', async () => {
  const engine = await startEngine(
    [
      reply.message([block.toolUse('mcp__everything__echo', { message: 'hello from the model' }, { id: 'toolu_echo' })]),
      reply.message([block.toolUse('mcp__everything__trigger-long-running-operation', { duration: 0.3, steps: 3 }, { id: 'toolu_long' })]),
      reply.text('done'),
    ],
    // The hub is not started here: the source waits for the first start itself.
    { toolSources: [hub.toolSource()], workspaceRoots: [workspace] },
  );
  try {
    const outcome = await engine.agent.run('Use the MCP tools.');
    assert.equal(outcome.stopReason, 'endTurn');
    assert.equal(engine.server.requests.length, 3);

    const offered = (engine.server.requests[0]!.body.tools ?? []) as Array<{ name: string; input_schema: { type: string } }>;
    const echo = offered.find((tool) => tool.name === 'mcp__everything__echo');
    assert.equal(echo?.input_schema.type, 'object');

    const echoed = toolResultOf(engine.server.requests[1]!.body as never, 'toolu_echo');
    assert.ok(echoed && !echoed.is_error);
    assert.deepEqual(echoed.content, [{ type: 'text', text: 'Echo: hello from the model' }]);

    const start = engine.ofType('toolExecutionStart').find((event) => event.toolCallId === 'toolu_long');
    assert.equal(start?.sensitivity, 'mutating');
    const progress = engine
      .ofType('toolExecutionUpdate')
      .filter((event) => event.toolCallId === 'toolu_long')
      .map((event) => (event.partialResult.details as { progress?: number }).progress!);
    assert.equal(progress.length, 3);
    progress.forEach((fraction, index) => assert.ok(Math.abs(fraction - (index + 1) / 3) < 1e-9, `update ${index}: ${fraction}`));

    const finished = toolResultOf(engine.server.requests[2]!.body as never, 'toolu_long');
    assert.match(finished?.content?.[0]?.text ?? '', /Long running operation completed\. Duration: 0\.3 seconds, Steps: 3\./);
  } finally {
    await engine.close();
  }
});
