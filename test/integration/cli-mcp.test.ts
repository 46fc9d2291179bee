import { test } from 'node:test';
import assert from 'node:assert/strict';
import { writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { block, reply, type RecordedRequest } from '../support/model-server';
import { cliFixture } from '../support/cove-cli';

const everything = resolve(import.meta.dirname, '../../node_modules/@modelcontextprotocol/server-everything/dist/index.js');
const answering = (request: RecordedRequest) => JSON.stringify(request.body.messages.at(-1)!.content).includes('tool_result');

async function setup(approve: boolean) {
  const fixture = await cliFixture((request) => (answering(request) ? reply.text('echoed') : reply.message([block.toolUse('mcp__everything__echo', { message: 'hello over MCP' })])));
  const { workspace } = fixture;
  writeFileSync(join(workspace, '.mcp.json'), JSON.stringify({ mcpServers: { everything: { command: process.execPath, args: [everything, 'stdio'] } } }));
  if (approve) {
    writeFileSync(join(fixture.home.path, 'settings.json'), JSON.stringify({ enabledMcpjsonServers: ['everything'] }));
  }
  return fixture;
}

test("cove run offers an approved project MCP server's tools and gates them like any mutating tool", async () => {
  const f = await setup(true);
  try {
    const denied = await f.home.run(['run', '--json', '--workspace', f.workspace, 'echo something']);
    assert.equal(denied.code, 0, denied.stderr);
    const offered = (f.server.requests[0]!.body.tools ?? []).map((t) => (t as { name: string }).name);
    assert.ok(offered.includes('mcp__everything__echo'), offered.join(', '));
    const refusal = denied.events.find((e) => e.type === 'toolExecutionEnd');
    assert.ok(refusal?.type === 'toolExecutionEnd' && refusal.isError, 'MCP tools are mutating: denied headless by default');

    const allowed = await f.home.run(['run', '--json', '--workspace', f.workspace, '--allow', 'mcp__everything', 'echo something']);
    assert.equal(allowed.code, 0, allowed.stderr);
    const end = allowed.events.find((e) => e.type === 'toolExecutionEnd');
    assert.ok(end?.type === 'toolExecutionEnd' && !end.isError, JSON.stringify(end));
    assert.match(JSON.stringify(f.server.requests.at(-1)!.body.messages.at(-1)!.content), /hello over MCP/);
  } finally {
    await f.close();
  }
});

test('a project MCP server that was not approved is not started, and the run says how to approve it', async () => {
  const f = await setup(false);
  try {
    const result = await f.home.run(['run', '--json', '--workspace', f.workspace, 'echo something']);
    assert.equal(result.code, 0, result.stderr);
    const offered = (f.server.requests[0]!.body.tools ?? []).map((t) => (t as { name: string }).name);
    assert.ok(!offered.some((name) => name.startsWith('mcp__')));
    assert.match(result.stderr, /MCP server "everything": not started: .*enabledMcpjsonServers/);
    const end = result.events.find((e) => e.type === 'toolExecutionEnd');
    assert.match(JSON.stringify(end), /Tool mcp__everything__echo not found/);
  } finally {
    await f.close();
  }
});
