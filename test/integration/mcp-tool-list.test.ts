// How a server's tool list reaches the engine: refreshed on tools/list_changed, replaced when the
// server comes back with another list, fixed for a run once handed out, and named so that two
// servers never offer one name.
import { test, describe, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ToolError, type Tool } from '../../electron/core/agent/types';
import { McpHub } from '../../electron/core/mcp/mcp-hub';
import { FAST, fixture, recordingContext, stdioServer, waitForServer } from '../fixtures/mcp/support';

const LONG = 'summarize_the_entire_repository_history_and_write_a_long_report_about_it';

describe('MCP tool lists', () => {
  let root: string;
  let hub: McpHub;
  const listFile = (name: string) => join(root, `${name}.json`);
  const writeList = (name: string, tools: string[]) => writeFileSync(listFile(name), JSON.stringify({ tools }));

  before(async () => {
    root = mkdtempSync(join(tmpdir(), 'cove-mcp-lists-'));
    writeList('fixture', ['alpha']);
    writeList('a', ['_b', LONG, 'files.read']);
    writeList('a_', ['b']);
    hub = new McpHub({
      workspace: root,
      dataDir: root,
      config: { servers: ['fixture', 'a', 'a_'].map((name) => stdioServer(name, [fixture('tools-server.mjs'), listFile(name)])), problems: [] },
      ...FAST,
    });
    await hub.start();
  });

  after(async () => {
    await hub.close();
    rmSync(root, { recursive: true, force: true });
  });

  const currentTools = () => hub.toolSource().tools(new AbortController().signal);
  const names = (tools: Tool[], server: string) =>
    tools
      .map((tool) => tool.name)
      .filter((name) => name.startsWith(`mcp__${server}__`))
      .sort();
  const find = (tools: Tool[], name: string) => tools.find((tool) => tool.name === name) ?? assert.fail(`no ${name}`);

  test('tools/list_changed refreshes the list for the next run; a run keeps what it was given', async () => {
    const thisRun = await currentTools();
    assert.deepEqual(names(thisRun, 'fixture'), ['mcp__fixture__alpha', 'mcp__fixture__announce', 'mcp__fixture__crash', 'mcp__fixture__fail']);
    writeList('fixture', ['alpha', 'beta']);
    await find(thisRun, 'mcp__fixture__announce').execute({}, recordingContext());
    await waitForServer(hub, 'fixture', (status) => status.toolCount === 5);
    const nextRun = await currentTools();
    assert.ok(names(nextRun, 'fixture').includes('mcp__fixture__beta'));
    assert.equal(names(thisRun, 'fixture').length, 4);
    assert.deepEqual((await find(nextRun, 'mcp__fixture__beta').execute({ value: 'x' }, recordingContext())).content, [{ type: 'text', text: 'beta:x' }]);
  });

  test('a server that comes back with another list offers that list from the next run on', async () => {
    const before = await currentTools();
    writeList('fixture', ['gamma']);
    await assert.rejects(
      find(before, 'mcp__fixture__crash').execute({}, recordingContext()),
      (error: unknown) => error instanceof ToolError && error.message === 'MCP server fixture stopped while the call was running: the process exited with code 7',
    );
    await waitForServer(hub, 'fixture', (status) => status.state === 'connected');
    const after = names(await currentTools(), 'fixture');
    assert.ok(after.includes('mcp__fixture__gamma'));
    assert.ok(!after.includes('mcp__fixture__alpha') && !after.includes('mcp__fixture__beta'));
    // The model may still call a tool it was offered earlier: the server answers that it has none.
    await assert.rejects(find(before, 'mcp__fixture__alpha').execute({}, recordingContext()), (error: unknown) => error instanceof ToolError && /no tool alpha/.test(error.message));
  });

  test('an isError answer is a failed ToolError with the server text', async () => {
    await assert.rejects(
      find(await currentTools(), 'mcp__fixture__fail').execute({ value: 'on purpose' }, recordingContext()),
      (error: unknown) => error instanceof ToolError && error.kind === 'failed' && error.message === 'it failed: on purpose',
    );
  });

  test('long and unusual names fit the API and still call the original tool', async () => {
    const tools = await currentTools();
    for (const tool of tools) assert.match(tool.name, /^[A-Za-z0-9_-]{1,64}$/);
    const long = tools.find((tool) => tool.name.startsWith('mcp__a__summarize_'))!;
    assert.equal(long.name.length, 64);
    assert.deepEqual((await long.execute({ value: 'v' }, recordingContext())).content, [{ type: 'text', text: `${LONG}:v` }]);
    const dotted = find(tools, 'mcp__a__files_read');
    assert.deepEqual((await dotted.execute({ value: 'v' }, recordingContext())).content, [{ type: 'text', text: 'files.read:v' }]);
  });

  test('two servers whose names would meet get distinct tool names, each reaching its own server', async () => {
    const tools = await currentTools();
    assert.equal(new Set(tools.map((tool) => tool.name)).size, tools.length);
    const first = find(tools, 'mcp__a___b');
    const second = tools.find((tool) => tool.name.startsWith('mcp__a___b_') && tool !== first)!;
    assert.match(second.name, /^mcp__a___b_[0-9a-f]{6}$/);
    assert.deepEqual((await first.execute({ value: '1' }, recordingContext())).content, [{ type: 'text', text: '_b:1' }]);
    assert.deepEqual((await second.execute({ value: '2' }, recordingContext())).content, [{ type: 'text', text: 'b:2' }]);
  });
});
