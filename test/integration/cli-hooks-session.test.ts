// Session-level hooks through `cove run` (UserPromptSubmit, SessionStart, Stop, SubagentStop) and
// the bad input of SPEC §14: hangs, floods, secrets and malformed entries.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { closeSync, createReadStream, existsSync, openSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { homedir } from 'node:os';
import { join } from 'node:path';
import { block, reply, type RecordedRequest } from '../support/model-server';
import { cliFixture, collect, type CliFixture } from '../support/cove-cli';
import { hookInput, hookRuns, nodeHook, writeHooks } from './hook-fixture';

const firstPrompt = (f: CliFixture) => JSON.stringify(f.server.requests[0]!.body.messages[0]!.content);
const userSettings = (f: CliFixture) => join(f.home.path, 'settings.json');

/**
 * A hook's child that holds the write end of the FIFO `pipe` while it lives, so the test's reader
 * sees the stream end exactly when the child and everything it started are gone, without knowing
 * a pid, which a sandbox's own pid namespace would hide.
 */
function lingeringChild(pipe: string): string {
  return `import { spawn } from 'node:child_process';\nspawn('sh', ['-c', 'exec 3>${pipe}; echo up >&3; while true; do sleep 1; done'], { stdio: 'ignore' });\nsetInterval(() => {}, 1000);`;
}

/** Makes the FIFO and reads it: `started` at the child's first line, `ended` once no writer is left. */
function watchPipe(pipe: string): { started: Promise<void>; ended: Promise<void>; unblock(): void } {
  execFileSync('mkfifo', [pipe]);
  const stream = createReadStream(pipe);
  const started = new Promise<void>((resolve) => stream.once('data', () => resolve()));
  const ended = new Promise<void>((resolve) => stream.once('end', () => resolve()));
  return {
    started,
    ended,
    // Opening a FIFO read-write never blocks, and lets a reader still waiting for a writer go.
    unblock: () => closeSync(openSync(pipe, 'r+')),
  };
}

test('UserPromptSubmit and SessionStart: stdout becomes context, each hook gets its JSON', async () => {
  const f = await cliFixture([reply.text('noted')]);
  try {
    const hooks = join(f.home.path, 'hooks');
    const submit = nodeHook(
      hooks,
      'submit',
      `writeFileSync(${JSON.stringify(join(hooks, 'env.json'))}, JSON.stringify(process.env)); process.stdout.write('The build uses pnpm, not npm.');`,
    );
    const start = nodeHook(hooks, 'start', `process.stdout.write('Today the main branch is frozen.');`);
    writeHooks(userSettings(f), {
      UserPromptSubmit: [{ hooks: [{ type: 'command', command: submit }] }],
      SessionStart: [{ matcher: 'startup', hooks: [{ type: 'command', command: start }] }],
    });
    const result = await f.home.run(['run', '--json', '--workspace', f.workspace, 'how do I build?']);
    assert.equal(result.code, 0, result.stderr);
    assert.match(firstPrompt(f), /how do I build\?/);
    assert.match(firstPrompt(f), /The build uses pnpm, not npm\./);
    assert.match(firstPrompt(f), /Today the main branch is frozen\./);
    assert.equal(hookInput(hooks, 'submit').prompt, 'how do I build?');
    const env = JSON.parse(readFileSync(join(hooks, 'env.json'), 'utf8')) as Record<string, string>;
    assert.equal(env.ANTHROPIC_API_KEY, undefined, "the agent's API key is not handed to hooks");
    assert.equal(env.CLAUDE_PROJECT_DIR, f.workspace);
    assert.equal(hookInput(hooks, 'start').source, 'startup');
    assert.deepEqual(
      hookRuns(result.events)
        .map((run) => run.hookEvent)
        .sort(),
      ['SessionStart', 'UserPromptSubmit'],
    );
  } finally {
    await f.close();
  }
});

test('a UserPromptSubmit hook that exits 2 keeps the prompt from being sent, and says why', async () => {
  const f = await cliFixture([reply.text('should not be asked')]);
  try {
    const command = nodeHook(join(f.home.path, 'hooks'), 'block', `process.stderr.write('prompts may not mention the launch date'); process.exit(2);`);
    writeHooks(userSettings(f), { UserPromptSubmit: [{ hooks: [{ type: 'command', command }] }] });
    const result = await f.home.run(['run', '--workspace', f.workspace, 'when is the launch date?']);
    assert.equal(result.code, 1, result.stderr);
    assert.match(result.stderr, /UserPromptSubmit hook blocked the prompt.*prompts may not mention the launch date/);
    assert.equal(f.server.requests.length, 0, 'nothing was sent');
  } finally {
    await f.close();
  }
});

test('a Stop hook that blocks sends its reason back once; the second time it sees stop_hook_active and lets the run end', async () => {
  const f = await cliFixture([reply.text('first answer'), reply.text('tests run, all green')]);
  try {
    const hooks = join(f.home.path, 'hooks');
    const command = nodeHook(hooks, 'stop', `if (!input.stop_hook_active) { process.stdout.write(JSON.stringify({ decision: 'block', reason: 'run the tests before you stop' })); }`);
    writeHooks(userSettings(f), { Stop: [{ hooks: [{ type: 'command', command }] }] });
    const result = await f.home.run(['run', '--workspace', f.workspace, 'fix it']);
    assert.equal(result.code, 0, result.stderr);
    assert.equal(f.server.requests.length, 2);
    assert.match(JSON.stringify(f.server.requests[1]!.body.messages.at(-1)!.content), /run the tests before you stop/);
    assert.equal(hookInput(hooks, 'stop').stop_hook_active, true, 'the last Stop hook run knew it had already blocked');
    assert.match(result.stdout, /tests run, all green/);
  } finally {
    await f.close();
  }
});

test('SubagentStop runs when a subagent ends, with its id', async () => {
  const isChild = (request: RecordedRequest) => JSON.stringify(request.body.messages[0]!.content).includes('count the files');
  const f = await cliFixture((request) => {
    if (isChild(request)) return reply.text('there are none');
    if (JSON.stringify(request.body.messages.at(-1)!.content).includes('tool_result')) return reply.text('the subagent says none');
    return reply.message([block.toolUse('subagent', { task: 'count the files' })]);
  });
  try {
    const hooks = join(f.home.path, 'hooks');
    const command = nodeHook(hooks, 'substop', '');
    writeHooks(userSettings(f), { SubagentStop: [{ hooks: [{ type: 'command', command }] }] });
    const result = await f.home.run(['run', '--json', '--workspace', f.workspace, 'delegate it']);
    assert.equal(result.code, 0, result.stderr);
    const started = result.events.find((event) => event.type === 'subagentStart');
    assert.ok(started?.type === 'subagentStart');
    assert.equal(hookInput(hooks, 'substop').subagent_id, started.subagentId);
    assert.equal(hookInput(hooks, 'substop').hook_event_name, 'SubagentStop');
  } finally {
    await f.close();
  }
});

test('a hook that hangs is killed with everything it started at its timeout, reported, and the run goes on', { timeout: 60_000 }, async () => {
  let unblock = () => {};
  const f = await cliFixture([reply.text('went on')]);
  try {
    const hooks = join(f.home.path, 'hooks');
    const command = nodeHook(hooks, 'hang', lingeringChild(join(hooks, 'pipe')));
    const pipe = watchPipe(join(hooks, 'pipe'));
    unblock = pipe.unblock;
    writeHooks(userSettings(f), { UserPromptSubmit: [{ hooks: [{ type: 'command', command, timeout: 1 }] }] });
    const result = await f.home.run(['run', '--json', '--workspace', f.workspace, 'go']);
    assert.equal(result.code, 0, result.stderr);
    const run = hookRuns(result.events)[0]!;
    assert.equal(run.timedOut, true);
    assert.equal(run.decision, 'error');
    assert.equal(run.exitCode, null);
    assert.match(run.output, /timed out after 1 s and was killed/);
    await pipe.started;
    await pipe.ended;
    assert.equal(f.server.requests.length, 1, 'the prompt was still sent');
  } finally {
    unblock();
    await f.close();
  }
});

test('Ctrl-C while a hook runs stops the hook with its group and ends the run as stopped', { timeout: 60_000 }, async () => {
  let unblock = () => {};
  const f = await cliFixture([reply.text('should not be asked')]);
  try {
    const hooks = join(f.home.path, 'hooks');
    const command = nodeHook(hooks, 'slow', lingeringChild(join(hooks, 'pipe')));
    const pipe = watchPipe(join(hooks, 'pipe'));
    unblock = pipe.unblock;
    writeHooks(userSettings(f), { UserPromptSubmit: [{ hooks: [{ type: 'command', command }] }] });
    const child = f.home.spawn(['run', '--workspace', f.workspace, 'go']);
    const done = collect(child);
    await pipe.started;
    child.kill('SIGINT');
    const result = await done;
    assert.equal(result.code, 130, result.stderr);
    await pipe.ended;
    assert.equal(f.server.requests.length, 0);
  } finally {
    unblock();
    await f.close();
  }
});

test('a hook that prints megabytes is cut; a secret it prints is redacted everywhere', async () => {
  const f = await cliFixture([reply.text('ok')]);
  try {
    const secret = `ghp_${'A1b2C3d4'.repeat(5)}`;
    const command = nodeHook(join(f.home.path, 'hooks'), 'flood', `process.stdout.write('token ${secret} ' + 'x'.repeat(5 * 1024 * 1024));`);
    writeHooks(userSettings(f), { UserPromptSubmit: [{ hooks: [{ type: 'command', command }] }] });
    const result = await f.home.run(['run', '--json', '--workspace', f.workspace, 'go']);
    assert.equal(result.code, 0, result.stderr);
    const run = hookRuns(result.events)[0]!;
    assert.equal(run.truncated, true);
    const prompt = firstPrompt(f);
    assert.ok(prompt.length < 80 * 1024, `the context sent is bounded (${prompt.length} characters)`);
    assert.ok(!prompt.includes(secret), 'the secret never reaches the model');
    assert.ok(!result.stdout.includes(secret), 'nor the events');
    assert.ok(!readFileSync(join(f.home.path, 'cove.db')).includes(secret), 'nor the store');
  } finally {
    await f.close();
  }
});

test('a malformed hooks entry stops the run before anything is sent, naming its file and entry', async () => {
  const f = await cliFixture([reply.text('should not be asked')]);
  try {
    const cases: Array<[unknown, RegExp]> = [
      [{ PreToolUse: [{ matcher: 'Bash', hooks: [{ type: 'command' }] }] }, /hooks\.PreToolUse\[0\]\.hooks\[0\]\.command must be a non-empty string/],
      [{ PreToolUse: [{ matcher: '(', hooks: [{ type: 'command', command: 'true' }] }] }, /hooks\.PreToolUse\[0\]\.matcher "\(" is not a valid regular expression/],
      [{ BeforeEverything: [] }, /hooks\.BeforeEverything is not a hook event/],
      [{ Stop: [{ hooks: [{ type: 'command', command: 'true', timeout: 'soon' }] }] }, /hooks\.Stop\[0\]\.hooks\[0\]\.timeout must be a number/],
    ];
    for (const [hooks, problem] of cases) {
      const file = join(f.workspace, '.cove', 'settings.json');
      writeHooks(file, {});
      writeFileSync(file, JSON.stringify({ hooks }));
      const result = await f.home.run(['run', '--workspace', f.workspace, 'go']);
      assert.equal(result.code, 2, result.stderr);
      assert.ok(result.stderr.includes(file), result.stderr);
      assert.match(result.stderr, problem);
    }
    assert.equal(f.server.requests.length, 0);
    assert.equal(existsSync(join(f.home.path, 'approvals.json')), false);
  } finally {
    await f.close();
  }
});

test('hooks run in the bash sandbox: a write outside the roots and temp fails, and runs once the sandbox is off', async () => {
  const f = await cliFixture([reply.text('ok'), reply.text('ok')]);
  const outside = join(homedir(), `.cove-hook-escape-${process.pid}-${Date.now()}`);
  try {
    const command = `touch '${outside}'`;
    writeHooks(userSettings(f), { UserPromptSubmit: [{ hooks: [{ type: 'command', command }] }] });
    const sandboxed = await f.home.run(['run', '--json', '--workspace', f.workspace, 'go']);
    assert.equal(sandboxed.code, 0, sandboxed.stderr);
    assert.equal(existsSync(outside), false, 'the sandbox kept the hook from writing outside');
    assert.equal(hookRuns(sandboxed.events)[0]!.decision, 'error');

    writeHooks(userSettings(f), { UserPromptSubmit: [{ hooks: [{ type: 'command', command }] }] }, { sandbox: { enabled: false } });
    const bare = await f.home.run(['run', '--json', '--workspace', f.workspace, 'go']);
    assert.equal(bare.code, 0, bare.stderr);
    assert.equal(existsSync(outside), true, 'without the sandbox the same hook writes there');
  } finally {
    rmSync(outside, { force: true });
    await f.close();
  }
});

test('Claude Code events and hook types Cove lacks are named on stderr and skipped; the rest still run', async () => {
  const f = await cliFixture([reply.text('ok')]);
  try {
    const hooks = join(f.home.path, 'hooks');
    const submit = nodeHook(hooks, 'submit', `process.stdout.write('still ran');`);
    const file = join(f.workspace, '.claude', 'settings.json');
    writeHooks(file, {
      SessionEnd: [{ hooks: [{ type: 'command', command: 'true' }] }],
      Stop: [{ hooks: [{ type: 'prompt', command: 'is the work done?' }] }],
    });
    writeHooks(userSettings(f), { UserPromptSubmit: [{ hooks: [{ type: 'command', command: submit }] }] });
    const result = await f.home.run(['run', '--workspace', f.workspace, 'go']);
    assert.equal(result.code, 0, result.stderr);
    assert.ok(result.stderr.includes(`${file}: hooks.SessionEnd is a Claude Code event Cove does not have`), result.stderr);
    assert.ok(result.stderr.includes(`${file}: hooks.Stop[0].hooks[0] is a Claude Code "prompt" hook`), result.stderr);
    assert.match(firstPrompt(f), /still ran/);
  } finally {
    await f.close();
  }
});
