// PreToolUse and PostToolUse hooks through `cove run`: every decision, checked on disk, in the
// model's next request and in the permission audit.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { block, reply, type RecordedRequest } from '../support/model-server';
import { cliFixture, type CliFixture } from '../support/cove-cli';
import { hookInput, hookRuns, nodeHook, writeHooks } from './hook-fixture';

const answering = (request: RecordedRequest) => JSON.stringify(request.body.messages.at(-1)!.content).includes('tool_result');

/** A model that runs `touch <name>` once, then answers. */
async function touching(name: string): Promise<CliFixture> {
  return cliFixture((request) => (answering(request) ? reply.text('done') : reply.message([block.toolUse('bash', { command: `touch ${name}` }, { id: 'toolu_touch' })])));
}

function lastToolResult(f: CliFixture): string {
  return JSON.stringify(f.server.requests.at(-1)!.body.messages.at(-1)!.content);
}

async function audit(f: CliFixture, sessionId: string): Promise<Array<{ decision: string; decidedBy: string; reason: string | null }>> {
  const listed = await f.home.run(['sessions', '--audit', sessionId, '--json']);
  assert.equal(listed.code, 0, listed.stderr);
  return listed.stdout
    .trim()
    .split('\n')
    .filter(Boolean)
    .map((line) => JSON.parse(line));
}

test('a PreToolUse hook that exits 2 blocks the call even in bypass mode; its stderr reaches the model, the audit and the transcript', async () => {
  const f = await touching('blocked.txt');
  try {
    const hooks = join(f.home.path, 'hooks');
    const command = nodeHook(hooks, 'guard', `process.stderr.write('no touching in this repo'); process.exit(2);`);
    writeHooks(join(f.home.path, 'settings.json'), { PreToolUse: [{ matcher: 'Bash', hooks: [{ type: 'command', command }] }] });
    const result = await f.home.run(['run', '--json', '--permission-mode', 'bypass', '--workspace', f.workspace, 'touch it']);
    assert.equal(result.code, 0, result.stderr);
    assert.equal(existsSync(join(f.workspace, 'blocked.txt')), false, 'the command never ran');
    assert.match(lastToolResult(f), /no touching in this repo/);
    const input = hookInput(hooks, 'guard');
    assert.equal(input.hook_event_name, 'PreToolUse');
    assert.equal(input.tool_name, 'bash');
    assert.deepEqual(input.tool_input, { command: 'touch blocked.txt' });
    assert.equal(input.cwd, f.workspace);
    const run = hookRuns(result.events)[0]!;
    assert.equal(run.decision, 'block');
    assert.equal(run.exitCode, 2);
    assert.equal(run.toolCallId, 'toolu_touch');
    assert.equal(input.session_id, run.sessionId);
    const entries = await audit(f, run.sessionId);
    assert.ok(
      entries.some((entry) => entry.decision === 'deny' && /PreToolUse hook/.test(entry.reason ?? '')),
      JSON.stringify(entries),
    );
  } finally {
    await f.close();
  }
});

test("a PreToolUse hook's JSON allow skips the prompt a headless run would deny, and the audit says so", async () => {
  const f = await touching('allowed.txt');
  try {
    const hooks = join(f.home.path, 'hooks');
    const decision = { hookSpecificOutput: { hookEventName: 'PreToolUse', permissionDecision: 'allow', permissionDecisionReason: 'touch is harmless' } };
    const command = nodeHook(hooks, 'allow', `process.stdout.write(${JSON.stringify(JSON.stringify(decision))});`);
    writeHooks(join(f.home.path, 'settings.json'), { PreToolUse: [{ matcher: 'Bash', hooks: [{ type: 'command', command }] }] });
    const result = await f.home.run(['run', '--json', '--workspace', f.workspace, 'touch it']);
    assert.equal(result.code, 0, result.stderr);
    assert.equal(existsSync(join(f.workspace, 'allowed.txt')), true, 'the hook allowed it');
    const entries = await audit(f, hookRuns(result.events)[0]!.sessionId);
    assert.ok(
      entries.some((entry) => entry.decision === 'allow' && /touch is harmless/.test(entry.reason ?? '')),
      JSON.stringify(entries),
    );
  } finally {
    await f.close();
  }
});

test("a hook's allow never beats a deny rule", async () => {
  const f = await touching('denied.txt');
  try {
    const hooks = join(f.home.path, 'hooks');
    const command = nodeHook(hooks, 'allow', `process.stdout.write(JSON.stringify({ hookSpecificOutput: { permissionDecision: 'allow' } }));`);
    writeHooks(join(f.home.path, 'settings.json'), { PreToolUse: [{ matcher: 'bash', hooks: [{ type: 'command', command }] }] });
    const result = await f.home.run(['run', '--json', '--deny', 'bash(touch:*)', '--workspace', f.workspace, 'touch it']);
    assert.equal(result.code, 0, result.stderr);
    assert.equal(existsSync(join(f.workspace, 'denied.txt')), false);
    assert.equal(hookRuns(result.events)[0]!.decision, 'allow', 'the hook did run and allow');
    assert.match(lastToolResult(f), /deny rule bash\(touch:\*\)/);
  } finally {
    await f.close();
  }
});

test("a hook's allow does not lift an ask rule, and its ask does not lift a deny rule", async () => {
  const f = await touching('ruled.txt');
  try {
    const hooks = join(f.home.path, 'hooks');
    const verdict = join(hooks, 'verdict.txt');
    const command = nodeHook(
      hooks,
      'verdict',
      `import { readFileSync } from 'node:fs';\nprocess.stdout.write(JSON.stringify({ hookSpecificOutput: { permissionDecision: readFileSync(${JSON.stringify(verdict)}, 'utf8') } }));`,
    );
    writeHooks(join(f.home.path, 'settings.json'), { PreToolUse: [{ matcher: 'Bash', hooks: [{ type: 'command', command }] }] });
    writeFileSync(verdict, 'allow');
    const asked = await f.home.run(['run', '--json', '--ask', 'bash(touch:*)', '--workspace', f.workspace, 'touch it']);
    assert.equal(asked.code, 0, asked.stderr);
    assert.equal(existsSync(join(f.workspace, 'ruled.txt')), false, 'the ask rule still asks, so headless denies');
    assert.match(lastToolResult(f), /ask rule bash\(touch:\*\)/);
    writeFileSync(verdict, 'ask');
    const denied = await f.home.run(['run', '--json', '--deny', 'bash(touch:*)', '--workspace', f.workspace, 'touch it']);
    assert.equal(denied.code, 0, denied.stderr);
    assert.equal(existsSync(join(f.workspace, 'ruled.txt')), false);
    assert.match(lastToolResult(f), /deny rule bash\(touch:\*\)/);
  } finally {
    await f.close();
  }
});

test('a hook that asks is denied headless even where an allow rule covers the call', async () => {
  const f = await touching('asked.txt');
  try {
    const hooks = join(f.home.path, 'hooks');
    const command = nodeHook(hooks, 'ask', `process.stdout.write(JSON.stringify({ hookSpecificOutput: { permissionDecision: 'ask', permissionDecisionReason: 'touch needs a human' } }));`);
    writeHooks(join(f.home.path, 'settings.json'), { PreToolUse: [{ matcher: 'Bash', hooks: [{ type: 'command', command }] }] });
    // acceptEdits and the rule together allow this write; only the hook's ask stops it.
    const result = await f.home.run(['run', '--json', '--permission-mode', 'acceptEdits', '--allow', 'bash(touch:*)', '--workspace', f.workspace, 'touch it']);
    assert.equal(result.code, 0, result.stderr);
    assert.equal(existsSync(join(f.workspace, 'asked.txt')), false);
    assert.match(lastToolResult(f), /touch needs a human.*no one to ask/);
  } finally {
    await f.close();
  }
});

test("a JSON deny gives the model the hook's reason; a hook for another tool does not run", async () => {
  const f = await touching('json-denied.txt');
  try {
    const hooks = join(f.home.path, 'hooks');
    const deny = nodeHook(hooks, 'deny', `process.stdout.write(JSON.stringify({ hookSpecificOutput: { permissionDecision: 'deny', permissionDecisionReason: 'use the Makefile' } }));`);
    const other = nodeHook(hooks, 'other', `process.exit(2);`);
    writeHooks(join(f.home.path, 'settings.json'), {
      PreToolUse: [
        { matcher: 'Edit|Write', hooks: [{ type: 'command', command: other }] },
        { matcher: 'Bash', hooks: [{ type: 'command', command: deny }] },
      ],
    });
    const result = await f.home.run(['run', '--json', '--permission-mode', 'bypass', '--workspace', f.workspace, 'touch it']);
    assert.equal(result.code, 0, result.stderr);
    assert.equal(existsSync(join(f.workspace, 'json-denied.txt')), false);
    assert.match(lastToolResult(f), /use the Makefile/);
    assert.deepEqual(
      hookRuns(result.events).map((run) => run.command),
      [deny],
    );
    assert.equal(existsSync(join(hooks, 'other.stdin.json')), false, 'the Edit|Write hook never ran for bash');
  } finally {
    await f.close();
  }
});

test("a PreToolUse hook's updatedInput replaces the arguments, and the rules judge the new ones", async () => {
  const f = await touching('asked-for.txt');
  try {
    const hooks = join(f.home.path, 'hooks');
    const rewrite = { hookSpecificOutput: { permissionDecision: 'allow', updatedInput: { command: 'touch rewritten.txt' } } };
    const command = nodeHook(hooks, 'rewrite', `process.stdout.write(${JSON.stringify(JSON.stringify(rewrite))});`);
    writeHooks(join(f.home.path, 'settings.json'), { PreToolUse: [{ matcher: 'Bash', hooks: [{ type: 'command', command }] }] });
    const result = await f.home.run(['run', '--json', '--workspace', f.workspace, 'touch it']);
    assert.equal(result.code, 0, result.stderr);
    assert.equal(existsSync(join(f.workspace, 'asked-for.txt')), false);
    assert.equal(existsSync(join(f.workspace, 'rewritten.txt')), true);
    const started = result.events.find((event) => event.type === 'toolExecutionStart');
    assert.deepEqual(started?.type === 'toolExecutionStart' && started.args, { command: 'touch rewritten.txt' });

    rmSync(join(f.workspace, 'rewritten.txt'));
    const denied = await f.home.run(['run', '--json', '--deny', 'bash(touch rewritten.txt)', '--workspace', f.workspace, 'touch it']);
    assert.equal(denied.code, 0, denied.stderr);
    assert.equal(existsSync(join(f.workspace, 'rewritten.txt')), false, 'a deny rule covering the rewritten call still wins');
  } finally {
    await f.close();
  }
});

test("a PostToolUse hook sees the tool's response, and what it blocks with reaches the model with the result", async () => {
  const f = await touching('linted.txt');
  try {
    const hooks = join(f.home.path, 'hooks');
    const command = nodeHook(hooks, 'lint', `process.stderr.write('lint failed: trailing whitespace'); process.exit(2);`);
    writeHooks(join(f.home.path, 'settings.json'), { PostToolUse: [{ matcher: 'Bash', hooks: [{ type: 'command', command }] }] });
    const result = await f.home.run(['run', '--json', '--permission-mode', 'bypass', '--workspace', f.workspace, 'touch it']);
    assert.equal(result.code, 0, result.stderr);
    assert.equal(existsSync(join(f.workspace, 'linted.txt')), true, 'PostToolUse runs after the tool');
    assert.match(lastToolResult(f), /PostToolUse hook: lint failed: trailing whitespace/);
    const input = hookInput(hooks, 'lint');
    assert.equal(input.hook_event_name, 'PostToolUse');
    assert.ok(input.tool_response && typeof input.tool_response === 'object', 'the tool response is on stdin');
  } finally {
    await f.close();
  }
});
