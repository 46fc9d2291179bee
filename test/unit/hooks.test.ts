// Hooks below the CLI: matchers and Claude Code's names, the sandbox seam of the runner, the
// interactive "ask" and Notification through a real session manager and permission gate, and
// PreCompact before a real compaction.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, realpathSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Anthropic from '@anthropic-ai/sdk';
import type { CoveEvent, HookRunEvent } from '../../shared/events';
import { compileMatcher } from '../../electron/core/hooks/tool-names';
import { runHookProcess } from '../../electron/core/hooks/hook-runner';
import { SessionHooks } from '../../electron/core/hooks/session-hooks';
import { hostHooks } from '../../electron/core/hooks/host-hooks';
import { NO_SECRETS } from '../../electron/core/agent/types';
import { createSessionGate } from '../../electron/core/permissions';
import { SessionManager } from '../../electron/core/sessions/session-manager';
import { openStore } from '../../electron/core/store';
import { block, reply, startModelServer } from '../support/model-server';
import { startEngine, testTool } from '../support/engine';
import { EMPTY_TRANSCRIPT, foldEvents } from '../../renderer/features/transcript/model';

function tempDir(prefix: string): string {
  return realpathSync(mkdtempSync(join(tmpdir(), prefix)));
}

function userHooks(home: string, hooks: unknown): void {
  mkdirSync(home, { recursive: true });
  writeFileSync(join(home, 'settings.json'), JSON.stringify({ hooks }));
}

test("matchers are whole-name regular expressions that also know Claude Code's tool names", () => {
  const edit = compileMatcher('Edit');
  assert.ok(edit('edit_file') && edit('hashline_edit'));
  assert.ok(!edit('write_file') && !edit('NotebookEdit'), 'a plain name matches that name only');
  const editOrWrite = compileMatcher('Edit|Write');
  assert.ok(editOrWrite('write_file') && editOrWrite('edit_file') && !editOrWrite('bash'));
  assert.ok(compileMatcher('Bash')('bash') && compileMatcher('bash')('bash'));
  assert.ok(compileMatcher('Read')('read_file') && !compileMatcher('Read')('list_files'));
  assert.ok(compileMatcher('Glob')('list_files') && compileMatcher('Grep')('search') && compileMatcher('WebFetch')('web_fetch'));
  assert.ok(compileMatcher('mcp__docs__.*')('mcp__docs__search') && !compileMatcher('mcp__docs__.*')('mcp__other__search'));
  assert.ok(compileMatcher('')('anything') && compileMatcher('*')('anything'));
  assert.throws(() => compileMatcher('('), /Invalid regular expression/);
});

test("a host's wrapper decides how the hook's shell starts (the sandbox seam), and stdin carries the JSON", async () => {
  const cwd = tempDir('cove-hook-run-');
  try {
    const seen: string[] = [];
    let released = 0;
    const result = await runHookProcess(
      'cat; printf " in $PWD as $WRAPPED"',
      { hello: 'hook' },
      {
        cwd,
        env: { PATH: process.env.PATH },
        timeoutMs: 10_000,
        redactor: NO_SECRETS,
        wrap: (launch, where) => {
          seen.push(where);
          return { file: '/usr/bin/env', args: ['WRAPPED=yes', launch.file, ...launch.args], release: () => released++ };
        },
      },
    );
    assert.deepEqual(seen, [cwd]);
    assert.equal(released, 1, 'what the sandbox set up is released once the hook exited');
    const refused = await runHookProcess(`touch '${join(cwd, 'ran')}'`, {}, { cwd, env: {}, timeoutMs: 10_000, redactor: NO_SECRETS, wrap: () => ({ refused: 'no sandbox can run here' }) });
    assert.equal(refused.exitCode, null);
    assert.equal(refused.failure, 'was not run: no sandbox can run here');
    assert.equal(existsSync(join(cwd, 'ran')), false, 'a hook the sandbox cannot hold does not run');
    assert.equal(result.exitCode, 0);
    assert.equal(result.stdout, `{"hello":"hook"}\n in ${cwd} as yes`);
  } finally {
    rmSync(cwd, { recursive: true, force: true });
  }
});

test('a hook that asks puts the question to the person even where the rules allow (echo only reads); Notification runs while the prompt waits', { timeout: 60_000 }, async () => {
  const server = await startModelServer((request) =>
    JSON.stringify(request.body.messages.at(-1)!.content).includes('tool_result') ? reply.text('done') : reply.message([block.toolUse('echo', { value: 'x' })]),
  );
  const home = tempDir('cove-hook-home-');
  const workspace = tempDir('cove-hook-ws-');
  const store = openStore(home);
  const notified = join(home, 'notified.json');
  userHooks(home, {
    PreToolUse: [{ matcher: 'echo', hooks: [{ type: 'command', command: `echo '{"hookSpecificOutput":{"permissionDecision":"ask","permissionDecisionReason":"echo is loud"}}'` }] }],
    Notification: [{ hooks: [{ type: 'command', command: `cat > '${notified}'` }] }],
  });
  const events: CoveEvent[] = [];
  const manager: SessionManager = new SessionManager({
    store,
    createClient: () => new Anthropic({ apiKey: 'k', baseURL: server.url, maxRetries: 0 }),
    tools: () => [testTool('echo')],
    hooks: hostHooks({ coveHome: home, secrets: async () => NO_SECRETS }),
    permissionGate: (session, prompter) => createSessionGate({ workspaces: session.workspaces, mode: 'default', coveHome: home, store, prompter, hooks: manager.hooksFor(session) }),
  });
  try {
    // The prompt is answered only once the Notification hook has run: it can only have run while the prompt waited.
    let asking: { sessionId: string; requestId: string } | undefined;
    manager.subscribe((event) => {
      events.push(event);
      if (event.type === 'permissionRequest') asking = { sessionId: event.sessionId, requestId: event.requestId };
      if (event.type === 'hookRun' && event.hookEvent === 'Notification' && asking) manager.answerPermission(asking.sessionId, asking.requestId, { decision: 'deny', reason: 'not now' });
    });
    const session = manager.createSession({ workspaces: [workspace], model: 'claude-sonnet-5', permissionMode: 'default' });
    const outcome = await manager.run(session.id, 'echo it');
    assert.equal(outcome.stopReason, 'endTurn');
    const request = events.find((event) => event.type === 'permissionRequest');
    assert.ok(request?.type === 'permissionRequest', 'the person was asked although the mode allows a read-only tool');
    assert.match(request.reasons.join(' '), /echo is loud/);
    const end = events.find((event) => event.type === 'toolExecutionEnd');
    assert.ok(end?.type === 'toolExecutionEnd' && end.isError && /the person denied it: not now/.test(JSON.stringify(end.result)));
    const notification = JSON.parse(readFileSync(notified, 'utf8')) as Record<string, unknown>;
    assert.equal(notification.hook_event_name, 'Notification');
    assert.match(String(notification.message), /permission to use echo/);
    const audit = store.listPermissions(session.id);
    assert.ok(
      audit.some((entry) => entry.decidedBy === 'person' && entry.decision === 'deny'),
      JSON.stringify(audit),
    );
  } finally {
    await manager.stopAll();
    store.close();
    await server.close();
    rmSync(home, { recursive: true, force: true });
    rmSync(workspace, { recursive: true, force: true });
  }
});

test('PreCompact runs before the history is compacted, with its trigger', async () => {
  const home = tempDir('cove-hook-compact-');
  const marker = join(home, 'precompact.json');
  userHooks(home, { PreCompact: [{ matcher: 'auto', hooks: [{ type: 'command', command: `cat > '${marker}'` }] }] });
  const runs: HookRunEvent[] = [];
  let compactedBeforeHook = false;
  const hooks = new SessionHooks({
    sessionId: 'session-test',
    workspaces: [home],
    coveHome: home,
    secrets: () => NO_SECRETS,
    emit: (event) => {
      if (event.type === 'hookRun') runs.push(event);
    },
  });
  hooks.reload();
  const big = 'x'.repeat(4000);
  let call = 0;
  const engine = await startEngine(
    (request) => {
      if (JSON.stringify(request.body.system ?? '').includes('You summarize the earlier part')) return reply.text('SUMMARY');
      call++;
      return call <= 4 ? reply.message([block.toolUse('echo', { value: `${call}-${big}` })]) : reply.text('all done');
    },
    {
      tools: [testTool('echo')],
      contextWindow: 6000,
      compactAt: 0.8,
      beforeCompact: async (signal) => {
        compactedBeforeHook ||= engine.events.some((event) => event.type === 'contextCompacted');
        await hooks.preCompact('auto', signal);
      },
    },
  );
  try {
    await engine.agent.run('read the four files');
    assert.ok(engine.ofType('contextCompacted').length >= 1);
    assert.ok(runs.length >= 1 && runs.every((run) => run.hookEvent === 'PreCompact'));
    assert.equal(compactedBeforeHook, false, 'the hook ran before the first compaction');
    assert.ok(existsSync(marker));
    assert.equal((JSON.parse(readFileSync(marker, 'utf8')) as { trigger: string }).trigger, 'auto');
  } finally {
    await engine.close();
    rmSync(home, { recursive: true, force: true });
  }
});

test('a hookRun event becomes one transcript line with what the hook decided', () => {
  const run: HookRunEvent = {
    type: 'hookRun',
    sessionId: 's',
    hookEvent: 'PreToolUse',
    command: './guard.sh',
    file: '/w/.cove/settings.json',
    toolCallId: 'toolu_1',
    exitCode: 2,
    decision: 'block',
    output: 'no',
    durationMs: 12,
    timedOut: false,
    truncated: false,
  };
  const state = foldEvents(EMPTY_TRANSCRIPT, [run, { ...run, decision: null, exitCode: 0 }], 0);
  assert.deepEqual(
    state.items.map((item) => (item.kind === 'hook' ? [item.hookEvent, item.decision, item.exitCode] : item.kind)),
    [
      ['PreToolUse', 'block', 2],
      ['PreToolUse', null, 0],
    ],
  );
});

test('a message steered into a busy run passes UserPromptSubmit: a blocked one never reaches the model', async () => {
  let release!: () => void;
  const held = new Promise<void>((resolve) => (release = resolve));
  const server = await startModelServer((request) =>
    JSON.stringify(request.body.messages.at(-1)!.content).includes('tool_result') ? reply.text('done') : reply.message([block.toolUse('wait', { value: 'x' })]),
  );
  const home = tempDir('cove-hook-steer-');
  const store = openStore(home);
  userHooks(home, { UserPromptSubmit: [{ hooks: [{ type: 'command', command: `grep -q forbidden && { echo 'not that' >&2; exit 2; }; echo 'checked by the hook'` }] }] });
  const manager = new SessionManager({
    store,
    createClient: () => new Anthropic({ apiKey: 'k', baseURL: server.url, maxRetries: 0 }),
    tools: () => [testTool('wait', async () => (await held, { content: [{ type: 'text', text: 'waited' }] }))],
    hooks: hostHooks({ coveHome: home, secrets: async () => NO_SECRETS }),
  });
  try {
    const runs: HookRunEvent[] = [];
    let started!: () => void;
    const toolStarted = new Promise<void>((resolve) => (started = resolve));
    manager.subscribe((event) => {
      if (event.type === 'hookRun') runs.push(event);
      if (event.type === 'toolExecutionStart') started();
    });
    const session = manager.createSession({ workspaces: [home], model: 'claude-sonnet-5', permissionMode: 'default' });
    const run = manager.run(session.id, 'wait for it');
    await toolStarted;
    assert.equal(manager.send(session.id, 'a forbidden aside').steered, true);
    assert.equal(manager.send(session.id, 'a fine aside').steered, true);
    while (runs.length < 3) await new Promise((resolve) => setTimeout(resolve, 20));
    release();
    assert.equal((await run).stopReason, 'endTurn');
    const last = JSON.stringify(server.requests.at(-1)!.body.messages.at(-1)!.content);
    assert.match(last, /a fine aside/);
    assert.match(last, /checked by the hook/);
    assert.doesNotMatch(JSON.stringify(server.requests.map((request) => request.body.messages)), /a forbidden aside/);
    assert.deepEqual(runs.map((event) => event.decision).sort(), ['block', null, null].sort());
  } finally {
    await manager.stopAll();
    store.close();
    await server.close();
    rmSync(home, { recursive: true, force: true });
  }
});
