import { test, describe, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { loadMcpConfig, McpConfigError, type McpConfig } from '../../electron/core/mcp/mcp-config';

let root: string;
before(() => {
  root = mkdtempSync(join(tmpdir(), 'cove-mcp-config-'));
});
after(() => rmSync(root, { recursive: true, force: true }));

let counter = 0;
/** A fresh workspace and data dir holding the given files (objects are written as JSON). */
function load(files: { workspace?: unknown; user?: unknown }, environment: NodeJS.ProcessEnv = {}): McpConfig & { workspace: string; dataDir: string } {
  const base = join(root, String(counter++));
  const workspace = join(base, 'project');
  const dataDir = join(base, 'cove-home');
  mkdirSync(workspace, { recursive: true });
  mkdirSync(dataDir, { recursive: true });
  const write = (path: string, value: unknown) => writeFileSync(path, typeof value === 'string' ? value : JSON.stringify(value));
  if (files.workspace !== undefined) write(join(workspace, '.mcp.json'), files.workspace);
  if (files.user !== undefined) write(join(dataDir, 'mcp.json'), files.user);
  return { ...loadMcpConfig({ workspace, dataDir, environment }), workspace, dataDir };
}

describe('MCP configuration', () => {
  test('reads stdio and HTTP servers from both files, with defaults filled in', () => {
    const config = load({
      workspace: { mcpServers: { files: { command: 'node', args: ['server.js'], env: { LEVEL: 'debug' } }, remote: { type: 'http', url: 'https://mcp.example.com/mcp' } } },
      user: { mcpServers: { notes: { type: 'stdio', command: 'notes-server' }, api: { type: 'streamable-http', url: 'http://127.0.0.1:9000/mcp', headers: { Authorization: 'Bearer x' } } } },
    });
    assert.deepEqual(config.problems, []);
    assert.deepEqual(
      config.servers.map((server) => server.name),
      ['api', 'files', 'notes', 'remote'],
    );
    const byName = Object.fromEntries(config.servers.map((server) => [server.name, server]));
    assert.deepEqual(byName.files, { name: 'files', transport: 'stdio', command: 'node', args: ['server.js'], env: { LEVEL: 'debug' }, file: join(config.workspace, '.mcp.json') });
    assert.deepEqual(byName.notes, { name: 'notes', transport: 'stdio', command: 'notes-server', args: [], env: {}, file: join(config.dataDir, 'mcp.json') });
    assert.deepEqual(byName.remote, { name: 'remote', transport: 'http', url: 'https://mcp.example.com/mcp', headers: {}, file: join(config.workspace, '.mcp.json') });
    assert.equal(byName.api!.transport, 'http');
  });

  test('an entry with a url and no command or type is an HTTP server', () => {
    const config = load({ workspace: { mcpServers: { remote: { url: 'http://localhost:3001/mcp' } } } });
    assert.equal(config.servers[0]!.transport, 'http');
  });

  test('the workspace file wins over the user file for the same name', () => {
    const config = load({
      workspace: { mcpServers: { shared: { command: 'workspace-server' } } },
      user: { mcpServers: { shared: { command: 'user-server' }, other: { command: 'other-server' } } },
    });
    assert.deepEqual(
      config.servers.map((server) => [server.name, server.transport === 'stdio' ? server.command : server.url]),
      [
        ['other', 'other-server'],
        ['shared', 'workspace-server'],
      ],
    );
  });

  test('a malformed workspace entry still shadows the user entry of that name, and is reported', () => {
    const config = load({ workspace: { mcpServers: { shared: { command: 7 } } }, user: { mcpServers: { shared: { command: 'user-server' } } } });
    assert.deepEqual(config.servers, []);
    assert.equal(config.problems.length, 1);
    assert.equal(config.problems[0]!.server, 'shared');
    assert.equal(config.problems[0]!.file, join(config.workspace, '.mcp.json'));
  });

  test('a relative cwd is resolved against the folder of the file that declares it', () => {
    const config = load({ workspace: { mcpServers: { tool: { command: 'x', cwd: 'tools/server' } } } });
    const server = config.servers[0]!;
    assert.equal(server.transport === 'stdio' ? server.cwd : undefined, join(config.workspace, 'tools/server'));
  });

  test('malformed entries are reported with file, server and reason; the others still load', () => {
    const config = load({
      workspace: {
        mcpServers: {
          good: { command: 'good-server' },
          'bad name': { command: 'x' },
          numeric: { command: 42 },
          commandless: { args: ['x'] },
          empty: { command: '  ' },
          listless: { command: 'x', args: 'one two' },
          envy: { command: 'x', env: { PORT: 8080 } },
          sse: { type: 'sse', url: 'http://localhost/sse' },
          ftp: { type: 'http', url: 'ftp://example.com/mcp' },
          nothing: 'npx server',
        },
      },
    });
    assert.deepEqual(
      config.servers.map((server) => server.name),
      ['good'],
    );
    const file = join(config.workspace, '.mcp.json');
    const reasons = Object.fromEntries(config.problems.map((problem) => [problem.server, problem.reason]));
    for (const problem of config.problems) {
      assert.ok(problem instanceof McpConfigError);
      assert.equal(problem.file, file);
      assert.ok(problem.message.includes(file) && problem.message.includes(`"${problem.server}"`), problem.message);
    }
    assert.match(reasons['bad name']!, /letters, digits/);
    assert.match(reasons.numeric!, /command must be a string/);
    assert.match(reasons.empty!, /command must not be empty/);
    assert.match(reasons.listless!, /args must be an array/);
    assert.match(reasons.envy!, /env\.PORT: every value must be a string/);
    assert.equal(reasons.commandless, 'command is required');
    assert.match(reasons.sse!, /type "sse" is not supported/);
    assert.match(reasons.ftp!, /is not an http\(s\) URL/);
    assert.match(reasons.nothing!, /must be an object/);
    assert.equal(config.problems.find((problem) => problem.server === 'ftp')!.transport, 'http');
  });

  test('a file that is not JSON is reported by path, and the other file still loads', () => {
    const config = load({ workspace: '{"mcpServers": {', user: { mcpServers: { notes: { command: 'notes' } } } });
    assert.deepEqual(
      config.servers.map((server) => server.name),
      ['notes'],
    );
    assert.equal(config.problems.length, 1);
    assert.equal(config.problems[0]!.server, undefined);
    assert.match(config.problems[0]!.message, new RegExp(`^${join(config.workspace, '.mcp.json').replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}: is not valid JSON`));
  });

  test('a file without an mcpServers object is reported', () => {
    const config = load({ user: { servers: {} } });
    assert.equal(config.problems.length, 1);
    assert.match(config.problems[0]!.reason, /"mcpServers" object/);
  });

  test('missing files declare nothing and are not problems', () => {
    assert.deepEqual({ ...load({}), workspace: '', dataDir: '' }, { servers: [], problems: [], workspace: '', dataDir: '' });
  });

  test('${VAR} and ${VAR:-default} are expanded from the environment in command, args, env, url and headers', () => {
    const config = load(
      {
        workspace: {
          mcpServers: {
            local: { command: '${TOOLS}/server', args: ['--root', '${ROOT:-/srv}'], env: { TOKEN: '${SECRET}', MODE: 'fixed' } },
            remote: { type: 'http', url: 'https://${HOST}/mcp', headers: { Authorization: 'Bearer ${SECRET}' } },
          },
        },
      },
      { TOOLS: '/opt/tools', SECRET: 's3cret', HOST: 'mcp.example.com' },
    );
    assert.deepEqual(config.problems, []);
    const [local, remote] = config.servers;
    assert.ok(local?.transport === 'stdio' && remote?.transport === 'http');
    assert.equal(local.command, '/opt/tools/server');
    assert.deepEqual(local.args, ['--root', '/srv']);
    assert.deepEqual(local.env, { TOKEN: 's3cret', MODE: 'fixed' });
    assert.equal(remote.url, 'https://mcp.example.com/mcp');
    assert.deepEqual(remote.headers, { Authorization: 'Bearer s3cret' });
  });

  test('an unset variable without a default makes the entry malformed, naming the field and the variable', () => {
    const config = load({ workspace: { mcpServers: { remote: { type: 'http', url: 'https://x/mcp', headers: { Authorization: 'Bearer ${MISSING_TOKEN}' } } } } });
    assert.deepEqual(config.servers, []);
    assert.equal(config.problems[0]!.server, 'remote');
    assert.match(config.problems[0]!.reason, /headers\.Authorization refers to \$\{MISSING_TOKEN\}, which is not set/);
  });
});
