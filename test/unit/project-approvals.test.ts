import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdirSync, mkdtempSync, realpathSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { approvalHandlers } from '../../electron/core/hooks/approval-handlers';
import { approvedConfig } from '../../electron/core/mcp/mcp-registry';

// The project approval notice shows what `approval:list` answers as not approved; the MCP
// registry starts what `approvedConfig` keeps. Both must agree on what the person approved.
function setUp(servers: string[], settings?: Record<string, unknown>) {
  const root = realpathSync(mkdtempSync(join(tmpdir(), 'cove-approvals-')));
  const home = join(root, 'home');
  const workspace = join(root, 'workspace');
  mkdirSync(home);
  mkdirSync(workspace);
  const entries = Object.fromEntries(servers.map((name) => [name, { command: process.execPath, args: ['-e', `/* ${name} */`] }]));
  writeFileSync(join(workspace, '.mcp.json'), JSON.stringify({ mcpServers: entries }));
  if (settings) writeFileSync(join(home, 'settings.json'), JSON.stringify(settings));
  const handlers = approvalHandlers({ dataDir: home });
  const pending = async () => (await handlers['approval:list']({ workspace }, {})).items.filter((item) => !item.approved).map((item) => item.name);
  const started = () => approvedConfig(workspace, home, {}).servers.map((server) => server.name);
  return { home, workspace, handlers, pending, started, [Symbol.dispose]: () => rmSync(root, { recursive: true, force: true }) };
}

test('servers named in enabledMcpjsonServers of the person’s settings.json are not listed as waiting for approval', async () => {
  using f = setUp(['approved', 'other'], { enabledMcpjsonServers: ['approved'] });
  assert.deepEqual(await f.pending(), ['other']);
  assert.deepEqual(f.started(), ['approved']);
});

test('enableAllProjectMcpServers leaves nothing waiting, and the registry starts every server', async () => {
  using f = setUp(['one', 'two'], { enableAllProjectMcpServers: true });
  assert.deepEqual(await f.pending(), []);
  assert.deepEqual(f.started().sort(), ['one', 'two']);
});

test('Approve answers the notice: the approve reply and every list after it (a reload) hold nothing pending', async () => {
  using f = setUp(['one', 'two']);
  assert.deepEqual((await f.pending()).sort(), ['one', 'two']);
  assert.deepEqual(f.started(), []);
  const ids = (await f.handlers['approval:list']({ workspace: f.workspace }, {})).items.map((item) => item.id);
  const answer = await f.handlers['approval:approve']({ workspace: f.workspace, ids }, {});
  assert.deepEqual(
    answer.items.filter((item) => !item.approved),
    [],
  );
  assert.deepEqual(await f.pending(), []);
  assert.deepEqual(f.started().sort(), ['one', 'two']);
});

test('a malformed settings.json approves nothing and the servers stay listed', async () => {
  using f = setUp(['one']);
  writeFileSync(join(f.home, 'settings.json'), '{ "enabledMcpjsonServers": ');
  assert.deepEqual(await f.pending(), ['one']);
  assert.deepEqual(f.started(), []);
});
