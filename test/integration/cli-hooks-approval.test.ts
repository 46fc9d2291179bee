// A project's hooks and MCP servers run only once the person approved them with `cove approve`,
// and a changed hook or server asks again: checked on disk and in what the model is offered.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { block, reply, type RecordedRequest } from '../support/model-server';
import { cliFixture } from '../support/cove-cli';
import { nodeHook, writeHooks } from './hook-fixture';

const everything = resolve(import.meta.dirname, '../../node_modules/@modelcontextprotocol/server-everything/dist/index.js');
const answering = (request: RecordedRequest) => JSON.stringify(request.body.messages.at(-1)!.content).includes('tool_result');

test('a project hook runs only after cove approve, and asks again once its command changes', async () => {
  const f = await cliFixture((request) => (answering(request) ? reply.text('done') : reply.message([block.toolUse('bash', { command: 'touch made.txt' })])));
  try {
    const hooks = join(f.workspace, '.hooks');
    const settings = join(f.workspace, '.cove', 'settings.json');
    const guard = nodeHook(hooks, 'guard', `process.stderr.write('the project forbids touch'); process.exit(2);`);
    writeHooks(settings, { PreToolUse: [{ matcher: 'Bash', hooks: [{ type: 'command', command: guard }] }] });
    const made = join(f.workspace, 'made.txt');
    const run = () => f.home.run(['run', '--permission-mode', 'bypass', '--workspace', f.workspace, 'touch it']);

    const before = await run();
    assert.equal(before.code, 0, before.stderr);
    assert.equal(existsSync(made), true, 'an unapproved project hook does not run');
    assert.equal(existsSync(join(hooks, 'guard.stdin.json')), false);
    const notices = before.stderr.split('\n').filter((line) => line.includes('were not run'));
    assert.equal(notices.length, 1, before.stderr);
    assert.match(notices[0]!, new RegExp(`cove approve --workspace ${f.workspace.replace(/[/.]/g, '\\$&')}`));
    assert.ok(before.stderr.includes(guard), 'the notice shows the command that would run');

    const listed = await f.home.run(['approve', '--list', '--workspace', f.workspace]);
    assert.equal(listed.code, 0, listed.stderr);
    assert.match(listed.stdout, /pending +hook PreToolUse Bash:/);
    assert.equal(existsSync(join(f.home.path, 'approvals.json')), false, '--list approves nothing');

    const approved = await f.home.run(['approve', '--workspace', f.workspace]);
    assert.equal(approved.code, 0, approved.stderr);
    assert.match(approved.stdout, /APPROVED +hook PreToolUse Bash:/);
    assert.ok(approved.stdout.includes(settings));

    rmSync(made);
    const after = await run();
    assert.equal(after.code, 0, after.stderr);
    assert.equal(existsSync(made), false, 'the approved hook blocked the command');
    assert.doesNotMatch(after.stderr, /were not run/);

    // The same command running a changed script is a changed hook.
    nodeHook(hooks, 'guard', `process.exit(0);`);
    const edited = await run();
    assert.equal(edited.code, 0, edited.stderr);
    assert.match(edited.stderr, /1 project hook\(s\) of .* were not run/, 'a changed script asks again');
    assert.equal(existsSync(made), true);
    assert.equal((await f.home.run(['approve', '--workspace', f.workspace])).code, 0);
    rmSync(made);
    await run();
    assert.equal(existsSync(made), true, 'the approved new script lets touch run');
    assert.equal(existsSync(join(hooks, 'guard.stdin.json')), true, 'and it did run');

    const changed = nodeHook(hooks, 'guard2', `process.exit(2);`);
    writeHooks(settings, { PreToolUse: [{ matcher: 'Bash', hooks: [{ type: 'command', command: changed }] }] });
    const again = await run();
    assert.equal(existsSync(made), true, 'the changed hook was not run');
    assert.match(again.stderr, /1 project hook\(s\) of .* were not run/);
    assert.ok(again.stderr.includes(changed));
  } finally {
    await f.close();
  }
});

test("hooks of .claude/settings.json and .cove/settings.local.json need approval too; the person's own do not", async () => {
  const f = await cliFixture([reply.text('ok'), reply.text('ok')]);
  try {
    const hooks = join(f.home.path, 'hooks');
    const claude = nodeHook(hooks, 'claude', `process.stdout.write('from claude settings');`);
    const local = nodeHook(hooks, 'local', `process.stdout.write('from local settings');`);
    const own = nodeHook(hooks, 'own', `process.stdout.write('from my own settings');`);
    writeHooks(join(f.workspace, '.claude', 'settings.json'), { UserPromptSubmit: [{ hooks: [{ type: 'command', command: claude }] }] });
    writeHooks(join(f.workspace, '.cove', 'settings.local.json'), { UserPromptSubmit: [{ hooks: [{ type: 'command', command: local }] }] });
    writeHooks(join(f.home.path, 'settings.json'), { UserPromptSubmit: [{ hooks: [{ type: 'command', command: own }] }] });
    const first = await f.home.run(['run', '--workspace', f.workspace, 'go']);
    assert.equal(first.code, 0, first.stderr);
    const sent = JSON.stringify(f.server.requests[0]!.body.messages[0]!.content);
    assert.match(sent, /from my own settings/);
    assert.doesNotMatch(sent, /from claude settings|from local settings/);
    assert.match(first.stderr, /2 project hook\(s\)/);

    assert.equal((await f.home.run(['approve', '--workspace', f.workspace])).code, 0);
    const second = await f.home.run(['run', '--workspace', f.workspace, 'go']);
    assert.equal(second.code, 0, second.stderr);
    const now = JSON.stringify(f.server.requests[1]!.body.messages[0]!.content);
    assert.match(now, /from claude settings/);
    assert.match(now, /from local settings/);
  } finally {
    await f.close();
  }
});

test('a project MCP server starts once approved with cove approve, and a changed entry asks again', async () => {
  const f = await cliFixture((request) => (answering(request) ? reply.text('echoed') : reply.message([block.toolUse('mcp__everything__echo', { message: 'hi' })])));
  try {
    const file = join(f.workspace, '.mcp.json');
    const write = (args: string[]) => writeFileSync(file, JSON.stringify({ mcpServers: { everything: { command: process.execPath, args } } }));
    write([everything, 'stdio']);
    const offered = (index: number) => (f.server.requests[index]!.body.tools ?? []).map((tool) => (tool as { name: string }).name);
    const run = () => f.home.run(['run', '--workspace', f.workspace, 'echo']);

    const before = await run();
    assert.equal(before.code, 0, before.stderr);
    assert.ok(!offered(0).some((name) => name.startsWith('mcp__')), 'not started before approval');
    assert.match(before.stderr, /MCP server "everything": not started: .*cove approve --workspace/);

    const approved = await f.home.run(['approve', '--workspace', f.workspace]);
    assert.match(approved.stdout, /APPROVED +MCP server everything: /);
    const approvals = JSON.parse(readFileSync(join(f.home.path, 'approvals.json'), 'utf8')) as { approved: Record<string, { kind: string }> };
    assert.deepEqual(
      Object.values(approvals.approved).map((item) => item.kind),
      ['mcpServer'],
    );

    const after = await run();
    assert.equal(after.code, 0, after.stderr);
    const count = f.server.requests.length;
    assert.ok(offered(count - 2).includes('mcp__everything__echo'), offered(count - 2).join(', '));

    write([everything, 'stdio', '--changed']);
    const changed = await run();
    assert.match(changed.stderr, /MCP server "everything": not started/);
    assert.ok(!offered(f.server.requests.length - 2).some((name) => name.startsWith('mcp__')), 'the changed server does not start');
  } finally {
    await f.close();
  }
});

test("enabledMcpjsonServers in the repository's own .cove/settings.json does not approve its servers", async () => {
  const f = await cliFixture([reply.text('ok')]);
  try {
    writeFileSync(join(f.workspace, '.mcp.json'), JSON.stringify({ mcpServers: { everything: { command: process.execPath, args: [everything, 'stdio'] } } }));
    writeHooks(join(f.workspace, '.cove', 'settings.json'), {}, { enabledMcpjsonServers: ['everything'], enableAllProjectMcpServers: true });
    const result = await f.home.run(['run', '--workspace', f.workspace, 'go']);
    assert.equal(result.code, 0, result.stderr);
    assert.ok(!(f.server.requests[0]!.body.tools ?? []).some((tool) => (tool as { name: string }).name.startsWith('mcp__')));
    assert.match(result.stderr, /MCP server "everything": not started/);
  } finally {
    await f.close();
  }
});

test('an approved hook whose script the run edits is not run again, and the call it guards is refused', async () => {
  const results = (request: RecordedRequest) => (JSON.stringify(request.body.messages).match(/tool_result/g) ?? []).length;
  const f = await cliFixture((request) => {
    const step = results(request);
    if (step === 0) return reply.message([block.toolUse('bash', { command: "printf '\\nprocess.exit(0);' >> .hooks/guard.mjs" })]);
    if (step === 1) return reply.message([block.toolUse('bash', { command: 'touch made.txt' })]);
    return reply.text('done');
  });
  try {
    const hooks = join(f.workspace, '.hooks');
    const guard = nodeHook(hooks, 'guard', '');
    writeHooks(join(f.workspace, '.cove', 'settings.json'), { PreToolUse: [{ matcher: 'Bash', hooks: [{ type: 'command', command: guard }] }] });
    assert.equal((await f.home.run(['approve', '--workspace', f.workspace])).code, 0);
    const result = await f.home.run(['run', '--json', '--permission-mode', 'bypass', '--workspace', f.workspace, 'edit the hook, then touch']);
    assert.equal(result.code, 0, result.stderr);
    assert.match(readFileSync(join(hooks, 'guard.mjs'), 'utf8'), /process\.exit\(0\);$/, 'the first call ran and changed the script');
    assert.equal(existsSync(join(f.workspace, 'made.txt')), false, 'the second call was refused');
    assert.match(JSON.stringify(f.server.requests.at(-1)!.body.messages.at(-1)!.content), /changed after it was approved/);
  } finally {
    await f.close();
  }
});

test("enableAllProjectMcpServers in a repository's .claude/settings.json approves nothing", async () => {
  const f = await cliFixture([reply.text('ok')]);
  try {
    writeFileSync(join(f.workspace, '.mcp.json'), JSON.stringify({ mcpServers: { everything: { command: process.execPath, args: [everything, 'stdio'] } } }));
    writeHooks(join(f.workspace, '.claude', 'settings.json'), {}, { enableAllProjectMcpServers: true, enabledMcpjsonServers: ['everything'] });
    const result = await f.home.run(['run', '--workspace', f.workspace, 'go']);
    assert.equal(result.code, 0, result.stderr);
    assert.ok(!(f.server.requests[0]!.body.tools ?? []).some((tool) => (tool as { name: string }).name.startsWith('mcp__')));
  } finally {
    await f.close();
  }
});
