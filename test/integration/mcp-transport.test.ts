// Cove's stdio transport: message order within one chunk of output, stray output on stdout, and
// a server's last answer before it exits.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { McpHub } from '../../electron/core/mcp/mcp-hub';
import { FAST, fixture, recordingContext, stdioServer, waitForServer } from '../fixtures/mcp/support';

let workspace: string;
let hub: McpHub;

before(async () => {
  workspace = mkdtempSync(join(tmpdir(), 'cove-mcp-transport-'));
  hub = new McpHub({ workspace, dataDir: workspace, config: { servers: [stdioServer('burst', [fixture('burst-server.mjs')])], problems: [] }, ...FAST });
  await hub.start();
});

after(async () => {
  await hub.close();
  rmSync(workspace, { recursive: true, force: true });
});

const tool = async (name: string) => (await hub.toolSource().tools(new AbortController().signal)).find((candidate) => candidate.name === name)!;

test('progress written together with the result still arrives, before the result', async () => {
  const context = recordingContext();
  const result = await (await tool('mcp__burst__burst')).execute({}, context);
  assert.deepEqual(
    context.updates.map((update) => (update.details as { progress?: number }).progress),
    [0.5, 1],
  );
  assert.deepEqual(result.content, [{ type: 'text', text: 'burst done' }]);
});

test('a line on stdout that is not a message is shown in the tail, and the server still works', () => {
  const [status] = hub.status();
  assert.equal(status!.state, 'connected');
  assert.match(status!.stderrTail, /^\[cove\] not an MCP message on stdout: burst-server: starting up$/m);
});

test('an answer written just before the server exits still counts', async () => {
  const result = await (await tool('mcp__burst__last-words')).execute({}, recordingContext());
  assert.deepEqual(result.content, [{ type: 'text', text: 'goodbye' }]);
  await waitForServer(hub, 'burst', (status) => status.state === 'restarting' || status.state === 'connected');
});
