import { test, describe, before } from 'node:test';
import assert from 'node:assert/strict';
import type { ToolCallRequest } from '../../electron/core/agent/types';
import { loadShellParser } from '../../electron/core/permissions/shell-parser';
import { bash, callId, engineFor, never, person, tool, workspace } from '../support/permission-engine';

before(() => loadShellParser());

describe('headless, modes and the audit', () => {
  test('headless denies what needs a person with the reason and the rule that would allow it', async (t) => {
    const { root, home } = workspace(t);
    const { engine, audit } = engineFor(root, home);
    const outcome = await engine.check(bash('npm run build'), never);
    assert.equal(outcome.decision, 'deny');
    assert.match(outcome.reason, /`npm run build` is not covered by an allow rule; cove run has no one to ask/);
    assert.match(outcome.reason, /--allow 'bash\(npm run build\)'/);
    assert.deepEqual(
      audit.map((entry) => [entry.decision, entry.decidedBy]),
      [['deny', 'headless']],
    );

    const gated = engineFor(root, home, { extraRules: { allow: ['bash(git:*)'], ask: ['bash(git push:*)'] } }).engine;
    assert.match((await gated.check(bash('git push'), never)).reason, /remove the ask rule bash\(git push:\*\)/);
    const unreadable = await engine.check(bash("echo it's"), never);
    assert.match(unreadable.reason, /cannot parse the command.*bypass would allow it/);
  });

  test('every decision is audited: rules, modes, people', async (t) => {
    const { root, home } = workspace(t);
    const someone = person();
    const { engine, audit } = engineFor(root, home, {
      ask: someone.ask,
      extraRules: { allow: ['bash(npm test)'], deny: ['bash(rm:*)'] },
      now: () => 42,
    });
    await engine.check(bash('npm test'), never);
    await engine.check(bash('ls; rm -rf x'), never);
    await engine.check(tool('read_file', { path: 'src/a.ts' }, 'readOnly'), never);
    const asked = engine.check(tool('write_file', { path: 'src/a.ts', content: 'x' }), never);
    (await someone.next()).answer({ decision: 'allow', scope: 'session' });
    await asked;
    assert.deepEqual(
      audit.map(({ toolName, decision, decidedBy, rule, scope, at, sessionId }) => [toolName, decision, decidedBy, rule, scope, at, sessionId]),
      [
        ['bash', 'allow', 'rule', 'bash(npm test)', null, 42, 'session-1'],
        ['bash', 'deny', 'rule', 'bash(rm:*)', null, 42, 'session-1'],
        ['read_file', 'allow', 'mode', null, null, 42, 'session-1'],
        ['write_file', 'allow', 'person', 'write_file(src/a.ts)', 'session', 42, 'session-1'],
      ],
    );
    assert.match(audit[1]!.reason!, /forbids `rm -rf x`/);
  });

  test('setMode changes the decisions that follow', (t) => {
    const { root, home } = workspace(t);
    const { engine } = engineFor(root, home);
    const edit = () => engine.decide(tool('edit_file', { path: 'src/a.ts' })).outcome;
    assert.equal(edit(), 'ask');
    engine.setMode('acceptEdits');
    assert.equal(engine.mode, 'acceptEdits');
    assert.equal(edit(), 'allow');
    engine.setMode('plan');
    assert.equal(edit(), 'deny');
  });

  test('a symlink inside the workspace that points out is outside', (t) => {
    const { root, home, outside } = workspace(t);
    const { engine } = engineFor(root, home, { mode: 'acceptEdits', extraRules: { allow: ['bash(cat:*)'], deny: [`read_file(/${outside}/**)`] } });
    assert.equal(engine.decide(tool('write_file', { path: 'escape/new.txt', content: '' })).outcome, 'ask');
    assert.equal(engine.decide(tool('write_file', { path: 'src/new.txt', content: '' })).outcome, 'allow');
    const viaLink = engine.decide(bash('cat escape/secret.txt'));
    assert.equal(viaLink.outcome, 'ask');
    assert.match(viaLink.outcome === 'ask' ? viaLink.reasons.join() : '', /`escape\/secret\.txt` leads outside the workspace through a symbolic link/);
    assert.equal(engine.decide(tool('read_file', { path: 'escape/secret.txt' }, 'readOnly')).outcome, 'deny');
  });

  test("as middleware it answers allow or deny with the reason, using the call's roots", async (t) => {
    const { root, home } = workspace(t);
    const { engine } = engineFor(root, home, { workspaceRoots: [], extraRules: { allow: ['edit_file(src/**)'] } });
    const middleware = engine.middleware();
    const request = (toolName: string, args: unknown): ToolCallRequest => ({
      sessionId: 'session-1',
      toolCallId: callId(),
      toolName,
      args,
      sensitivity: 'mutating',
      workspaceRoots: [root],
      signal: never,
      messages: [],
      runPrompts: [],
      userRequest: () => undefined,
    });
    assert.deepEqual(await middleware.beforeTool(request('edit_file', { path: `${root}/src/a.ts` })), { action: 'allow' });
    const denied = await middleware.beforeTool(request('edit_file', { path: 'lib/a.ts' }));
    assert.equal(denied.action, 'deny');
    assert.match(denied.action === 'deny' ? denied.reason : '', /--allow 'edit_file\(lib\/a\.ts\)'/);
  });
});
