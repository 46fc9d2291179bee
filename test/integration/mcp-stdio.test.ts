// The MCP hub against the reference "everything" server over stdio: listing, calls, progress,
// cancellation, and a server killed in the middle of a call.
import { test, describe, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ToolError, type Tool } from '../../electron/core/agent/types';
import { McpHub } from '../../electron/core/mcp/mcp-hub';
import { everythingStdio, FAST, isAlive, recordingContext, recordStates, waitForServer } from '../fixtures/mcp/support';

const API_NAME = /^[A-Za-z0-9_-]{1,64}$/;

describe('MCP over stdio (everything server)', () => {
  let workspace: string;
  let hub: McpHub;

  before(async () => {
    workspace = mkdtempSync(join(tmpdir(), 'cove-mcp-stdio-'));
    hub = new McpHub({
      workspace,
      dataDir: workspace,
      config: { servers: [everythingStdio('everything', { env: { COVE_TEST_MARK: 'configured' } })], problems: [] },
      environment: { ...process.env, ANTHROPIC_API_KEY: 'sk-ant-must-not-reach-the-server', ANTHROPIC_AUTH_TOKEN: 'must-not-either' },
      ...FAST,
    });
    await hub.start();
  });

  after(async () => {
    await hub.close();
    rmSync(workspace, { recursive: true, force: true });
  });

  async function tool(name: string): Promise<Tool> {
    const tools = await hub.toolSource().tools(new AbortController().signal);
    return tools.find((candidate) => candidate.name === name) ?? assert.fail(`no tool ${name} among ${tools.map((t) => t.name).join(', ')}`);
  }

  test('offers the server tools as mutating mcp__everything__* tools with object schemas', async () => {
    const tools = await hub.toolSource().tools(new AbortController().signal);
    const names = tools.map((candidate) => candidate.name);
    for (const expected of ['mcp__everything__echo', 'mcp__everything__get-sum', 'mcp__everything__trigger-long-running-operation']) {
      assert.ok(names.includes(expected), `${expected} in ${names.join(', ')}`);
    }
    for (const candidate of tools) {
      assert.ok(candidate.name.startsWith('mcp__everything__'));
      assert.match(candidate.name, API_NAME);
      assert.equal(candidate.sensitivity, 'mutating');
      assert.equal(candidate.parameters.type, 'object');
      assert.equal(candidate.parameters.$schema, undefined);
    }
    const echo = await tool('mcp__everything__echo');
    assert.equal(echo.label, 'Echo Tool');
    assert.equal(echo.description, 'MCP server everything: Echoes back the input string');
    const [status] = hub.status();
    assert.deepEqual({ ...status, stderrTail: undefined }, { name: 'everything', transport: 'stdio', state: 'connected', toolCount: tools.length, stderrTail: undefined });
    assert.match(status!.stderrTail, /Starting default \(STDIO\) server/);
  });

  test('calls return the server content: text, images, structured content, resources', async () => {
    const context = recordingContext();
    assert.deepEqual((await (await tool('mcp__everything__echo')).execute({ message: 'hello' }, context)).content, [{ type: 'text', text: 'Echo: hello' }]);
    assert.deepEqual((await (await tool('mcp__everything__get-sum')).execute({ a: 2, b: 40 }, context)).content, [{ type: 'text', text: 'The sum of 2 and 40 is 42.' }]);
    const image = await (await tool('mcp__everything__get-tiny-image')).execute({}, context);
    const picture = image.content.find((block) => block.type === 'image');
    assert.equal(picture?.type === 'image' && picture.mediaType, 'image/png');
    assert.ok(picture?.type === 'image' && Buffer.from(picture.data, 'base64').subarray(1, 4).toString() === 'PNG');
    const weather = await (await tool('mcp__everything__get-structured-content')).execute({ location: 'Chicago' }, context);
    assert.deepEqual((weather.details as { structuredContent: unknown }).structuredContent, { temperature: 36, conditions: 'Light rain / drizzle', humidity: 82 });
    const reference = await (await tool('mcp__everything__get-resource-reference')).execute({}, context);
    assert.match(reference.content.map((block) => (block.type === 'text' ? block.text : '')).join('\n'), /\[resource demo:\/\/resource\/dynamic\/text\/1, text\/plain\]\nResource 1:/);
  });

  test('an error answer from the server becomes a failed ToolError with its text', async () => {
    await assert.rejects(
      (await tool('mcp__everything__get-sum')).execute({ a: 'two' }, recordingContext()),
      (error: unknown) => error instanceof ToolError && error.kind === 'failed' && /Input validation error/.test(error.message),
    );
  });

  test('the server gets its configured environment on a minimal base, and no API key', async () => {
    const result = await (await tool('mcp__everything__get-env')).execute({}, recordingContext());
    const environment = JSON.parse((result.content[0] as { text: string }).text) as Record<string, string>;
    assert.equal(environment.COVE_TEST_MARK, 'configured');
    assert.equal(environment.PATH, process.env.PATH);
    assert.equal(environment.ANTHROPIC_API_KEY, undefined);
    assert.equal(environment.ANTHROPIC_AUTH_TOKEN, undefined);
  });

  test('progress notifications arrive as determinate, increasing updates', async () => {
    const context = recordingContext();
    const result = await (await tool('mcp__everything__trigger-long-running-operation')).execute({ duration: 0.4, steps: 4 }, context);
    assert.deepEqual(
      context.updates.map((update) => (update.details as { progress?: number }).progress),
      [0.25, 0.5, 0.75, 1],
    );
    assert.deepEqual((context.updates[0]!.details as { progressRaw: unknown }).progressRaw, { progress: 1, total: 4 });
    assert.match((result.content[0] as { text: string }).text, /Steps: 4/);
  });

  test('cancelling through the signal ends the call at once, and the server stays usable', async () => {
    const controller = new AbortController();
    const context = recordingContext(controller.signal, () => controller.abort());
    const started = Date.now();
    await assert.rejects(
      (await tool('mcp__everything__trigger-long-running-operation')).execute({ duration: 30, steps: 30 }, context),
      (error: unknown) => error instanceof ToolError && error.kind === 'cancelled',
    );
    assert.ok(Date.now() - started < 5_000, 'the call did not wait for the 30 s operation');
    assert.equal(context.updates.length, 1);
    assert.equal(hub.status()[0]!.state, 'connected');
    assert.deepEqual((await (await tool('mcp__everything__echo')).execute({ message: 'still here' }, recordingContext())).content, [{ type: 'text', text: 'Echo: still here' }]);
  });

  test('a server killed mid-call fails the call at once, restarts, and serves new calls', async () => {
    const states = recordStates(hub, 'everything');
    const longRunning = await tool('mcp__everything__trigger-long-running-operation');
    const firstPid = hub.server('everything')!.pid!;
    let killedAt = 0;
    const context = recordingContext(undefined, () => {
      if (killedAt) return;
      killedAt = Date.now();
      process.kill(firstPid, 'SIGKILL');
    });
    await assert.rejects(longRunning.execute({ duration: 30, steps: 30 }, context), (error: unknown) => {
      assert.ok(error instanceof ToolError && error.kind === 'failed');
      assert.equal(error.message, 'MCP server everything stopped while the call was running: the process was killed by SIGKILL');
      return true;
    });
    assert.ok(Date.now() - killedAt < 2_000, `failed ${Date.now() - killedAt} ms after the kill`);

    const back = await waitForServer(hub, 'everything', (status) => status.state === 'connected' && status.toolCount > 0);
    assert.deepEqual(states.slice(0, 2), ['restarting', 'connected']);
    assert.ok(back.stderrTail.includes('[cove] server stopped: the process was killed by SIGKILL'), back.stderrTail);
    const secondPid = hub.server('everything')!.pid!;
    assert.notEqual(secondPid, firstPid);
    assert.equal(isAlive(firstPid), false);
    assert.deepEqual((await (await tool('mcp__everything__echo')).execute({ message: 'after restart' }, recordingContext())).content, [{ type: 'text', text: 'Echo: after restart' }]);
    // A tool object from before the crash calls through the new connection.
    const quick = await longRunning.execute({ duration: 0.1, steps: 1 }, recordingContext());
    assert.match((quick.content[0] as { text: string }).text, /Steps: 1/);
  });
});
