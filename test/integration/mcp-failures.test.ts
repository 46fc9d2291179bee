// Servers that cannot be used: malformed configuration, a missing command, a server that never
// answers, one that exits at once, one that keeps dying. Each is reported with its name and
// reason while the good servers keep serving; closing the hub leaves no process behind.
import { test, describe, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ToolError } from '../../electron/core/agent/types';
import { McpHub } from '../../electron/core/mcp/mcp-hub';
import { EVERYTHING, FAST, fixture, groupMembers, isAlive, recordingContext, stdioServer, waitForServer, waitUntilGone } from '../fixtures/mcp/support';

describe('MCP servers that fail', () => {
  let root: string;
  let hub: McpHub;
  const logs: string[] = [];

  before(async () => {
    root = mkdtempSync(join(tmpdir(), 'cove-mcp-failures-'));
    const workspace = join(root, 'project');
    const dataDir = join(root, 'home');
    mkdirSync(workspace);
    mkdirSync(dataDir);
    writeFileSync(
      join(workspace, '.mcp.json'),
      JSON.stringify({
        mcpServers: {
          everything: { command: process.execPath, args: [EVERYTHING, 'stdio'] },
          missing: { command: 'cove-no-such-command-4242' },
          hang: { command: process.execPath, args: [fixture('hang-server.mjs'), join(root, 'hang.pid')] },
          exits: { command: process.execPath, args: [fixture('exit-server.mjs')] },
          malformed: { command: 42 },
        },
      }),
    );
    writeFileSync(join(dataDir, 'mcp.json'), '{ "mcpServers": { "notes": ');
    hub = new McpHub({ workspace, dataDir, ...FAST, startTimeoutMs: 6_000, log: (message) => logs.push(message) });
    await hub.start();
  });

  after(async () => {
    await hub.close();
    rmSync(root, { recursive: true, force: true });
  });

  test('each unusable server is reported by name with its reason', () => {
    const byName = Object.fromEntries(hub.status().map((status) => [status.name, status]));
    assert.deepEqual(Object.keys(byName).sort(), ['everything', 'exits', 'hang', 'malformed', 'missing']);
    assert.equal(byName.everything!.state, 'connected');
    assert.deepEqual(Object.fromEntries(['missing', 'hang', 'exits', 'malformed'].map((name) => [name, byName[name]!.state])), {
      missing: 'failed',
      hang: 'failed',
      exits: 'failed',
      malformed: 'failed',
    });
    assert.equal(byName.missing!.error, 'command not found: cove-no-such-command-4242 (check "command" and PATH)');
    assert.equal(byName.hang!.error, 'did not answer within 6 s');
    assert.equal(byName.exits!.error, 'the process exited with code 3 before it answered (stderr: exit-server: MISSING_TOKEN is not set)');
    assert.match(byName.malformed!.error!, /project\/\.mcp\.json: MCP server "malformed": command must be a string$/);
    assert.match(byName.hang!.stderrTail, /hang-server: listening and never answering/);
  });

  test('a configuration file that does not parse is reported with its path', () => {
    const fileProblems = hub.problems().filter((problem) => problem.server === undefined);
    assert.equal(fileProblems.length, 1);
    assert.match(fileProblems[0]!.message, /home\/mcp\.json: is not valid JSON/);
    assert.ok(logs.some((line) => line.includes('home/mcp.json: is not valid JSON')));
    assert.ok(logs.some((line) => line.includes('MCP server hang failed to start: did not answer within 6 s')));
  });

  test('a server that never answers is killed, even though it ignores SIGTERM', async () => {
    const pid = Number(readFileSync(join(root, 'hang.pid'), 'utf8'));
    assert.ok(await waitUntilGone(pid), `hang-server ${pid} is still running`);
  });

  test('the good server still serves', async () => {
    const tools = await hub.toolSource().tools(new AbortController().signal);
    assert.ok(tools.length > 0);
    assert.ok(tools.every((tool) => tool.name.startsWith('mcp__everything__')));
    const echo = tools.find((tool) => tool.name === 'mcp__everything__echo')!;
    assert.deepEqual((await echo.execute({ message: 'fine' }, recordingContext())).content, [{ type: 'text', text: 'Echo: fine' }]);
  });
});

describe('MCP restart budget', () => {
  test('a server that keeps dying is restarted a few times, then failed; restartServer tries again', async () => {
    const root = mkdtempSync(join(tmpdir(), 'cove-mcp-budget-'));
    const listFile = join(root, 'tools.json');
    writeFileSync(listFile, JSON.stringify({ tools: ['alpha'] }));
    const hub = new McpHub({
      workspace: root,
      dataDir: root,
      config: { servers: [stdioServer('fragile', [fixture('tools-server.mjs'), listFile])], problems: [] },
      ...FAST,
      restart: { initialDelayMs: 20, maxDelayMs: 80, maxAttempts: 3, stableAfterMs: 60_000 },
    });
    try {
      await hub.start();
      const crash = (await hub.toolSource().tools(new AbortController().signal)).find((tool) => tool.name === 'mcp__fragile__crash')!;
      rmSync(listFile);
      await assert.rejects(crash.execute({}, recordingContext()), /MCP server fragile stopped while the call was running: the process exited with code 7/);
      const failed = await waitForServer(hub, 'fragile', (status) => status.state === 'failed');
      assert.equal(failed.error, `stopped 4 times in a row; last: the process exited with code 4 before it answered (stderr: tools-server: list file ${listFile} is missing)`);
      assert.equal((failed.stderrTail.match(/\[cove\] restarting/g) ?? []).length, 3);
      await assert.rejects(crash.execute({}, recordingContext()), (error: unknown) => error instanceof ToolError && /MCP server fragile is not running: stopped 4 times/.test(error.message));

      writeFileSync(listFile, JSON.stringify({ tools: ['alpha'] }));
      await hub.restartServer('fragile');
      assert.equal(hub.status()[0]!.state, 'connected');
    } finally {
      await hub.close();
      rmSync(root, { recursive: true, force: true });
    }
  });
});

describe('closing the hub', () => {
  test('leaves no server process behind, grandchildren included', async () => {
    const root = mkdtempSync(join(tmpdir(), 'cove-mcp-close-'));
    const listFile = join(root, 'tools.json');
    writeFileSync(listFile, JSON.stringify({ tools: [] }));
    // `; :` keeps sh from exec-ing node, so the server is sh's child: Cove's grandchild.
    const wrapped = { ...stdioServer('wrapped', []), command: 'sh', args: ['-c', `"${process.execPath}" "${EVERYTHING}" stdio; :`] };
    const hub = new McpHub({
      workspace: root,
      dataDir: root,
      config: { servers: [stdioServer('fixture', [fixture('tools-server.mjs'), listFile]), wrapped], problems: [] },
      ...FAST,
    });
    try {
      await hub.start();
      assert.deepEqual(
        hub.status().map((status) => status.state),
        ['connected', 'connected'],
      );
      const leaders = ['fixture', 'wrapped'].map((name) => hub.server(name)!.pid!);
      const processes = leaders.flatMap((leader) => groupMembers(leader));
      assert.ok(processes.length >= 3, `expected sh, its node child and the fixture, got ${processes.join(', ')}`);
      await hub.close();
      for (const pid of processes) assert.ok(await waitUntilGone(pid), `process ${pid} survived hub.close()`);
      for (const leader of leaders) assert.deepEqual(groupMembers(leader), []);
      assert.deepEqual(await hub.toolSource().tools(new AbortController().signal), []);
      assert.equal(isAlive(leaders[0]!), false);
    } finally {
      await hub.close();
      rmSync(root, { recursive: true, force: true });
    }
  });

  test('a Cove process that exits without closing its hub takes its servers with it', async () => {
    const root = mkdtempSync(join(tmpdir(), 'cove-mcp-exit-'));
    const listFile = join(root, 'tools.json');
    writeFileSync(listFile, JSON.stringify({ tools: [] }));
    try {
      const output = execFileSync(process.execPath, ['--import', 'tsx', fixture('exit-without-close.ts'), listFile], { encoding: 'utf8' });
      const pid = Number(output.trim());
      assert.ok(pid > 0, output);
      assert.ok(await waitUntilGone(pid, 2_000), `server ${pid} outlived the process that started it`);
    } finally {
      rmSync(root, { recursive: true, force: true });
    }
  });
});
