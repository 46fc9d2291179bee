// The MCP hub against the reference "everything" server over streamable HTTP: listing, calls,
// progress, cancellation, and a server that dies mid-call and comes back on the same port.
import { test, describe, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ToolError, type Tool } from '../../electron/core/agent/types';
import { McpHub } from '../../electron/core/mcp/mcp-hub';
import { FAST, freePort, httpServer, recordingContext, recordStates, startEverythingHttp, waitForServer, type HttpEverything } from '../fixtures/mcp/support';

describe('MCP over streamable HTTP (everything server)', () => {
  let workspace: string;
  let port: number;
  let server: HttpEverything;
  let hub: McpHub;

  before(async () => {
    workspace = mkdtempSync(join(tmpdir(), 'cove-mcp-http-'));
    port = await freePort();
    server = await startEverythingHttp(port);
    hub = new McpHub({ workspace, dataDir: workspace, config: { servers: [httpServer('everything', server.url)], problems: [] }, ...FAST });
    await hub.start();
  });

  after(async () => {
    await hub.close();
    await server.kill();
    rmSync(workspace, { recursive: true, force: true });
  });

  async function tool(name: string): Promise<Tool> {
    const tools = await hub.toolSource().tools(new AbortController().signal);
    return tools.find((candidate) => candidate.name === name) ?? assert.fail(`no tool ${name} among ${tools.map((t) => t.name).join(', ')}`);
  }

  test('offers the server tools as mutating mcp__everything__* tools', async () => {
    const tools = await hub.toolSource().tools(new AbortController().signal);
    assert.ok(tools.some((candidate) => candidate.name === 'mcp__everything__echo'));
    assert.ok(tools.every((candidate) => candidate.name.startsWith('mcp__everything__') && candidate.sensitivity === 'mutating'));
    assert.deepEqual(hub.status(), [{ name: 'everything', transport: 'http', state: 'connected', toolCount: tools.length, stderrTail: '' }]);
  });

  test('a call returns the server content', async () => {
    const result = await (await tool('mcp__everything__echo')).execute({ message: 'over http' }, recordingContext());
    assert.deepEqual(result.content, [{ type: 'text', text: 'Echo: over http' }]);
  });

  test('progress notifications arrive as determinate, increasing updates', async () => {
    const context = recordingContext();
    await (await tool('mcp__everything__trigger-long-running-operation')).execute({ duration: 0.3, steps: 3 }, context);
    const fractions = context.updates.map((update) => (update.details as { progress?: number }).progress!);
    assert.equal(fractions.length, 3);
    fractions.forEach((fraction, index) => assert.ok(Math.abs(fraction - (index + 1) / 3) < 1e-9, `${fraction}`));
  });

  test('cancelling through the signal ends the call at once', async () => {
    const controller = new AbortController();
    const started = Date.now();
    await assert.rejects(
      (await tool('mcp__everything__trigger-long-running-operation')).execute(
        { duration: 30, steps: 30 },
        recordingContext(controller.signal, () => controller.abort()),
      ),
      (error: unknown) => error instanceof ToolError && error.kind === 'cancelled',
    );
    assert.ok(Date.now() - started < 5_000);
    assert.equal(hub.status()[0]!.state, 'connected');
  });

  test('a server that dies mid-call fails the call at once; the hub reconnects when it is back', async () => {
    const states = recordStates(hub, 'everything');
    let killed: Promise<void> | undefined;
    let killedAt = 0;
    const context = recordingContext(undefined, () => {
      killedAt ||= Date.now();
      killed ??= server.kill();
    });
    await assert.rejects((await tool('mcp__everything__trigger-long-running-operation')).execute({ duration: 30, steps: 30 }, context), (error: unknown) => {
      assert.ok(error instanceof ToolError && error.kind === 'failed');
      assert.match(error.message, /^MCP server everything stopped while the call was running: the connection was lost/);
      return true;
    });
    assert.ok(Date.now() - killedAt < 3_000, `failed ${Date.now() - killedAt} ms after the kill`);
    await killed;
    await waitForServer(hub, 'everything', (status) => status.state === 'restarting');
    assert.deepEqual(await hub.toolSource().tools(new AbortController().signal), [], 'a server that is down offers no tools to the next run');

    server = await startEverythingHttp(port);
    await waitForServer(hub, 'everything', (status) => status.state === 'connected' && status.toolCount > 0);
    assert.deepEqual(states.slice(0, 2), ['restarting', 'connected']);
    const result = await (await tool('mcp__everything__echo')).execute({ message: 'back again' }, recordingContext());
    assert.deepEqual(result.content, [{ type: 'text', text: 'Echo: back again' }]);
  });
});
