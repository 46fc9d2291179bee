import { test, describe, before } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { loadShellParser } from '../../electron/core/permissions/shell-parser';
import { loadPermissionSettings, PermissionEngine } from '../../electron/core/permissions';
import { bash, engineFor, never, person, settle, tool, workspace } from '../support/permission-engine';

before(() => loadShellParser());

describe('answers and grants', () => {
  test('"always" saves the exact command, applies at once, and survives a restart', async (t) => {
    const { root, home, coveHome } = workspace(t);
    const someone = person();
    const { engine, answers } = engineFor(root, home, { ask: someone.ask });

    const first = engine.check(bash('npm run build'), never);
    const prompt = await someone.next();
    assert.equal(prompt.request.suggestedRule, 'bash(npm run build)');
    assert.equal(prompt.request.alternativeRule, 'bash(npm run build:*)');
    prompt.answer({ decision: 'allow', scope: 'always' });
    assert.equal((await first).decision, 'allow');
    assert.deepEqual(
      answers.map(({ decision, scope, rule }) => [decision, scope, rule]),
      [['allow', 'always', 'bash(npm run build)']],
    );

    const saved = JSON.parse(readFileSync(join(root, '.cove', 'settings.local.json'), 'utf8'));
    assert.deepEqual(saved, { permissions: { allow: ['bash(npm run build)'] } });
    assert.equal((await engine.check(bash('npm  run build'), never)).decision, 'allow');
    assert.equal(someone.asked, 1);

    // A new process: the rule comes back from the workspace's settings, no one is asked.
    const restarted = new PermissionEngine({
      mode: 'default',
      workspaceRoots: [root],
      home,
      settings: loadPermissionSettings({ workspaceRoots: [root], coveHome }).sources,
      ask: () => assert.fail('asked again after a restart'),
    });
    assert.equal((await restarted.check(bash('npm run build'), never)).decision, 'allow');
    assert.equal(restarted.decide(bash('npm run build --prod')).outcome, 'ask');
  });

  test('"always" keeps exactly the rule the person edited', async (t) => {
    const { root, home } = workspace(t);
    const someone = person();
    const { engine } = engineFor(root, home, { ask: someone.ask });
    const result = engine.check(bash('npm run build -- --prod'), never);
    (await someone.next()).answer({ decision: 'allow', scope: 'always', rule: 'bash(npm run build:*)' });
    assert.equal((await result).decision, 'allow');
    assert.deepEqual(JSON.parse(readFileSync(join(root, '.cove', 'settings.local.json'), 'utf8')).permissions.allow, ['bash(npm run build:*)']);
    assert.equal(engine.decide(bash('npm run build')).outcome, 'allow');
    assert.equal(engine.decide(bash('npm run lint')).outcome, 'ask');
  });

  test('a compound command is granted as one exact rule, never a rule per part', async (t) => {
    const { root, home } = workspace(t);
    const someone = person();
    const { engine } = engineFor(root, home, { ask: someone.ask });
    const result = engine.check(bash('npm ci && npm test'), never);
    const prompt = await someone.next();
    assert.deepEqual([prompt.request.suggestedRule, prompt.request.alternativeRule], ['bash(npm ci && npm test)', null]);
    prompt.answer({ decision: 'allow', scope: 'always' });
    await result;
    assert.deepEqual(JSON.parse(readFileSync(join(root, '.cove', 'settings.local.json'), 'utf8')).permissions.allow, ['bash(npm ci && npm test)']);
    assert.equal(engine.decide(bash('npm ci')).outcome, 'ask');
    assert.equal(engine.decide(bash('npm test')).outcome, 'ask');
  });

  test('"this session" covers later equal calls in this engine only; "once" covers nothing more', async (t) => {
    const { root, home } = workspace(t);
    const someone = person();
    const { engine } = engineFor(root, home, { ask: someone.ask });

    const once = engine.check(tool('edit_file', { path: 'src/a.ts' }), never);
    (await someone.next()).answer({ decision: 'allow', scope: 'once' });
    assert.equal((await once).decision, 'allow');
    assert.equal(engine.decide(tool('edit_file', { path: 'src/a.ts' })).outcome, 'ask');

    const session = engine.check(tool('edit_file', { path: 'src/a.ts' }), never);
    const prompt = await someone.next();
    assert.equal(prompt.request.suggestedRule, 'edit_file(src/a.ts)');
    prompt.answer({ decision: 'allow', scope: 'session' });
    await session;
    assert.deepEqual(engine.sessionGrants, ['edit_file(src/a.ts)']);
    assert.equal(engine.decide(tool('edit_file', { path: './src/a.ts' })).outcome, 'allow');
    assert.equal(engine.decide(tool('edit_file', { path: 'src/b.ts' })).outcome, 'ask');
    assert.equal(existsSync(join(root, '.cove')), false);
    assert.equal(engineFor(root, home).engine.decide(tool('edit_file', { path: 'src/a.ts' })).outcome, 'ask');
  });

  test("a deny answer denies with the person's reason", async (t) => {
    const { root, home } = workspace(t);
    const someone = person();
    const { engine, answers } = engineFor(root, home, { ask: someone.ask });
    const result = engine.check(bash('make deploy'), never);
    (await someone.next()).answer({ decision: 'deny', reason: 'not on a Friday' });
    assert.deepEqual(await result, { decision: 'deny', reason: 'the person denied it: not on a Friday' });
    assert.deepEqual(
      answers.map(({ decision, scope }) => [decision, scope]),
      [['deny', null]],
    );
  });

  test('a command with a * is offered no rule that would read as a glob, but the person may write one', async (t) => {
    const { root, home } = workspace(t);
    const someone = person();
    const { engine } = engineFor(root, home, { ask: someone.ask });
    const result = engine.check(bash('ls *.ts'), never);
    const prompt = await someone.next();
    assert.deepEqual([prompt.request.suggestedRule, prompt.request.alternativeRule, prompt.request.grantable], [null, 'bash(ls:*)', true]);
    prompt.answer({ decision: 'allow', scope: 'session', rule: 'bash(ls:*)' });
    assert.equal((await result).decision, 'allow');
    assert.deepEqual(engine.sessionGrants, ['bash(ls:*)']);
  });

  test('an edited rule that does not cover the call is not kept', async (t) => {
    const { root, home } = workspace(t);
    const someone = person();
    const { engine, audit } = engineFor(root, home, { ask: someone.ask });
    const result = engine.check(bash('make deploy'), never);
    (await someone.next()).answer({ decision: 'allow', scope: 'always', rule: 'bash(make build)' });
    assert.equal((await result).decision, 'allow');
    assert.equal(existsSync(join(root, '.cove', 'settings.local.json')), false);
    assert.deepEqual(engine.sessionGrants, []);
    assert.match(audit.at(-1)!.reason!, /does not cover this call/);
    assert.equal(audit.at(-1)!.scope, 'once');
  });

  test('an invalid edited rule is reported and the call allowed once', async (t) => {
    const { root, home } = workspace(t);
    const someone = person();
    const { engine, audit } = engineFor(root, home, { ask: someone.ask });
    const result = engine.check(bash('make deploy'), never);
    (await someone.next()).answer({ decision: 'allow', scope: 'session', rule: 'bash(make deploy' });
    assert.equal((await result).decision, 'allow');
    assert.match(audit.at(-1)!.reason!, /unbalanced/);
    assert.deepEqual(engine.sessionGrants, []);
  });

  test('under an ask rule only "once" can apply', async (t) => {
    const { root, home } = workspace(t);
    const someone = person();
    const { engine } = engineFor(root, home, { ask: someone.ask, extraRules: { ask: ['bash(git push:*)'], allow: ['bash(git:*)'] } });
    const result = engine.check(bash('git push'), never);
    const prompt = await someone.next();
    assert.deepEqual([prompt.request.grantable, prompt.request.suggestedRule], [false, null]);
    assert.match(prompt.request.reasons[0]!, /the ask rule bash\(git push:\*\) \(command line\) asks every time/);
    prompt.answer({ decision: 'allow', scope: 'always', rule: 'bash(git push)' });
    assert.equal((await result).decision, 'allow');
    assert.equal(existsSync(join(root, '.cove')), false);
    assert.equal(engine.decide(bash('git push')).outcome, 'ask');
  });

  test('when "always" cannot be saved the grant holds for the session and says why', async (t) => {
    const { root, home } = workspace(t);
    writeFileSync(join(root, '.cove'), 'a file where the folder should be');
    const someone = person();
    const { engine, audit, answers } = engineFor(root, home, { ask: someone.ask });
    const result = engine.check(bash('make'), never);
    (await someone.next()).answer({ decision: 'allow', scope: 'always' });
    assert.equal((await result).decision, 'allow');
    assert.equal(audit.at(-1)!.scope, 'session');
    assert.match(audit.at(-1)!.reason!, /settings\.local\.json/);
    assert.equal(answers.at(-1)!.scope, 'session');
    assert.deepEqual(engine.sessionGrants, ['bash(make)']);
  });
});

describe('prompts', () => {
  test('parallel calls are asked one at a time, and a grant to the first covers an equal second', async (t) => {
    const { root, home } = workspace(t);
    const someone = person();
    const { engine } = engineFor(root, home, { ask: someone.ask });
    const first = engine.check(bash('make build'), never);
    const second = engine.check(bash('make  build'), never);
    const third = engine.check(bash('make test'), never);
    const prompt = await someone.next();
    await settle();
    assert.equal(someone.pending.length, 0, 'a second card was shown while the first was open');
    prompt.answer({ decision: 'allow', scope: 'session' });
    const next = await someone.next();
    assert.equal((next.request.args as { command: string }).command, 'make test');
    next.answer({ decision: 'deny' });
    assert.deepEqual(await Promise.all([first, second, third]).then((all) => all.map((outcome) => outcome.decision)), ['allow', 'allow', 'deny']);
    assert.equal(someone.asked, 2);
  });

  test('cancelling a pending ask denies the call, and a queued call waits for the open card', async (t) => {
    const { root, home } = workspace(t);
    const someone = person();
    const { engine, audit, answers } = engineFor(root, home, { ask: someone.ask });
    const running = new AbortController();
    const waiting = new AbortController();
    const open = engine.check(bash('make one'), running.signal);
    const prompt = await someone.next();
    const queued = engine.check(bash('make two'), waiting.signal);
    const last = engine.check(bash('make three'), never);

    waiting.abort();
    assert.deepEqual(await queued, { decision: 'deny', reason: 'the permission request was cancelled before anyone answered' });
    await settle();
    assert.equal(someone.pending.length, 0, 'the cancelled waiter let the next card open early');

    assert.equal(prompt.signal, running.signal);
    running.abort();
    assert.equal((await open).decision, 'deny');
    assert.deepEqual(
      answers.map(({ requestId, decision }) => [requestId, decision]),
      [[prompt.request.requestId, 'deny']],
    );
    (await someone.next()).answer({ decision: 'allow', scope: 'once' });
    assert.equal((await last).decision, 'allow');
    assert.deepEqual(
      audit.map((entry) => [(entry.args as { command: string }).command, entry.decision, entry.decidedBy]),
      [
        ['make two', 'deny', 'person'],
        ['make one', 'deny', 'person'],
        ['make three', 'allow', 'person'],
      ],
    );
  });

  test('the request carries the reasons, the urgency and redacted arguments', async (t) => {
    const { root, home } = workspace(t);
    const someone = person();
    const redact = (value: unknown) => JSON.parse(JSON.stringify(value).replaceAll('hunter2', '[REDACTED]'));
    const { engine, audit } = engineFor(root, home, { ask: someone.ask, redact });
    const result = engine.check(bash('curl -u admin:hunter2 https://example.com'), never);
    const prompt = await someone.next();
    assert.deepEqual(prompt.request.args, { command: 'curl -u admin:[REDACTED] https://example.com' });
    assert.equal(prompt.request.suggestedRule, null, 'a rule holding a secret is never offered');
    assert.deepEqual(prompt.request.reasons, ['`curl -u admin:[REDACTED] https://example.com` is not covered by an allow rule']);
    prompt.answer({ decision: 'allow', scope: 'once' });
    await result;
    assert.deepEqual(audit[0]!.args, { command: 'curl -u admin:[REDACTED] https://example.com' });
    const headless = await engineFor(root, home, { redact }).engine.check(bash('curl -u admin:hunter2 https://example.com'), never);
    assert.ok(!headless.reason.includes('hunter2'), headless.reason);

    const dangerous = engine.check(tool('mcp__ops__drop_database', {}, 'dangerous'), never);
    const urgent = await someone.next();
    assert.deepEqual([urgent.request.urgency, urgent.request.sensitivity, urgent.request.suggestedRule], ['high', 'dangerous', 'mcp__ops__drop_database']);
    urgent.answer({ decision: 'deny' });
    await dangerous;
  });
});
