import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync, writeFileSync, existsSync } from 'node:fs';
import { join } from 'node:path';
import { block, reply } from '../support/model-server';
import { cliFixture, type CliFixture } from '../support/cove-cli';

describe('cove run', () => {
  test('streams a reply as JSON lines, stores the session, and lists it', async () => {
    const f = await cliFixture([reply.text('Hello! I can help with that.', { chunks: 4 })]);
    try {
      const result = await f.home.run(['run', '--json', '--workspace', f.workspace, 'Say hello to the new repo']);
      assert.equal(result.code, 0, result.stderr);
      const types = result.events.map((e) => e.type);
      // The prompt is an event of its own, before the run it starts (SPEC §4).
      assert.deepEqual(types.slice(0, 2), ['userMessage', 'agentStart']);
      const prompt = result.events[0]!;
      assert.equal(prompt.type === 'userMessage' && prompt.text, 'Say hello to the new repo');
      assert.equal(types.at(-1), 'agentEnd');
      // The four chunks may be coalesced (at most a frame apart), never lost.
      const deltas = result.events.flatMap((e) => (e.type === 'messageUpdate' && e.delta.type === 'text' ? [e.delta.text] : []));
      assert.ok(deltas.length >= 1 && deltas.length <= 4);
      assert.equal(deltas.join(''), 'Hello! I can help with that.');
      const end = result.events.at(-1)!;
      assert.equal(end.type === 'agentEnd' && end.stopReason, 'endTurn');
      const sessionId = end.sessionId;
      assert.ok(result.events.every((e) => e.sessionId === sessionId));

      const listed = await f.home.run(['sessions', '--json']);
      assert.equal(listed.code, 0, listed.stderr);
      const rows = listed.stdout
        .trim()
        .split('\n')
        .map((line) => JSON.parse(line));
      assert.equal(rows.length, 1);
      assert.equal(rows[0].id, sessionId);
      assert.equal(rows[0].title, 'Say hello to the new repo');
      assert.deepEqual(rows[0].workspaces, [f.workspace]);
      assert.equal(rows[0].status, 'done');
      assert.equal(typeof rows[0].updatedAt, 'number');

      const found = await f.home.run(['sessions', '--search', 'hello', '--json']);
      assert.equal(JSON.parse(found.stdout.trim().split('\n')[0]!).id, sessionId);
    } finally {
      await f.close();
    }
  });

  test('prints plain text by default and runs parallel tool calls answered in one message', async () => {
    const f = await cliFixture([
      reply.message([block.text('Reading both.'), block.toolUse('read_file', { path: 'a.txt' }, { id: 'toolu_a' }), block.toolUse('read_file', { path: 'b.txt' }, { id: 'toolu_b' })]),
      reply.text('a says alpha, b says beta'),
    ]);
    try {
      writeFileSync(join(f.workspace, 'a.txt'), 'alpha\n');
      writeFileSync(join(f.workspace, 'b.txt'), 'beta\n');
      const result = await f.home.run(['run', 'what do a and b say?'], { cwd: f.workspace });
      assert.equal(result.code, 0, result.stderr);
      assert.match(result.stdout, /a says alpha, b says beta/);
      assert.match(result.stderr, /● read_file/);
      const answer = f.server.requests[1]!.body.messages.at(-1)!;
      const results = (answer.content as Array<{ type: string; tool_use_id: string; content: Array<{ text: string }> }>).filter((b) => b.type === 'tool_result');
      assert.deepEqual(
        results.map((r) => r.tool_use_id),
        ['toolu_a', 'toolu_b'],
      );
      assert.match(JSON.stringify(results[0]!.content), /alpha/);
      assert.match(JSON.stringify(results[1]!.content), /beta/);
    } finally {
      await f.close();
    }
  });

  test('survives malformed model output: bad JSON, wrong types, unknown tools', async () => {
    const f = await cliFixture([
      reply.message([
        block.rawToolUse('read_file', '{"path": "a.txt"', { id: 'toolu_json' }),
        block.toolUse('read_file', { path: 7 }, { id: 'toolu_type' }),
        block.toolUse('teleport', { to: 'mars' }, { id: 'toolu_unknown' }),
      ]),
      reply.text('sorry about that'),
    ]);
    try {
      const result = await f.home.run(['run', '--json', '--workspace', f.workspace, 'go']);
      assert.equal(result.code, 0, result.stderr);
      const ends = result.events.filter((e) => e.type === 'toolExecutionEnd');
      assert.equal(ends.length, 3);
      const texts = ends.map((e) => (e.type === 'toolExecutionEnd' ? JSON.stringify(e.result.content) : ''));
      assert.match(texts[0]!, /not valid JSON/);
      assert.match(texts[1]!, /field 'path' must be string/);
      assert.match(texts[2]!, /Tool teleport not found/);
    } finally {
      await f.close();
    }
  });
});

describe('cove run refuses bad input before sending anything', () => {
  let f: CliFixture;
  before(async () => {
    f = await cliFixture([reply.text('should never be asked')]);
  });
  after(() => f.close());

  const cases: Array<[string, string[], Record<string, string | undefined>, RegExp]> = [
    ['no API key', ['run', 'hi'], { ANTHROPIC_API_KEY: undefined }, /ANTHROPIC_API_KEY is not set/],
    ['unknown flag', ['run', '--frobnicate', 'hi'], {}, /Unknown option '--frobnicate'/],
    ['bad mode', ['run', '--permission-mode', 'yolo', 'hi'], {}, /--permission-mode must be one of/],
    ['bad max turns', ['run', '--max-turns', 'many', 'hi'], {}, /--max-turns must be a whole number/],
    ['bad rule', ['run', '--deny', 'bash(rm', 'hi'], {}, /--deny: invalid permission rule 'bash\(rm'/],
    ['no prompt', ['run'], {}, /missing PROMPT/],
    ['missing workspace', ['run', '--workspace', '/nonexistent/cove', 'hi'], {}, /--workspace \/nonexistent\/cove: no such folder/],
    ['unknown session', ['run', '--resume', 'nosuchsession', 'hi'], {}, /--resume nosuchsession: no such session/],
  ];
  for (const [name, args, env, expected] of cases) {
    test(name, async () => {
      const result = await f.home.run(args, { env, cwd: f.workspace });
      assert.equal(result.code, 2, `${name}: ${result.stderr}`);
      const lines = result.stderr.trim().split('\n');
      assert.equal(lines.length, 1, `one line on stderr, got: ${result.stderr}`);
      assert.match(lines[0]!, expected);
      assert.equal(f.server.requests.length, 0, 'no request was sent');
    });
  }
});

describe('cove run and the provider', () => {
  test('an unreachable API ends in one line and a non-zero exit', async () => {
    const f = await cliFixture([]);
    try {
      const closed = f.server.url;
      await f.server.close();
      const result = await f.home.run(['run', '--workspace', f.workspace, 'hi'], { env: { ANTHROPIC_BASE_URL: closed, COVE_MAX_RETRIES: '1' } });
      assert.equal(result.code, 1);
      assert.equal(result.stderr.trim().split('\n').at(-1), `cove: cannot reach the API at ${closed}: ECONNREFUSED (after 2 attempts)`);
    } finally {
      await f.close();
    }
  });

  test('overloads and cut streams are retried and shown as providerRetry', async () => {
    const f = await cliFixture([reply.error(529, 'overloaded_error', 'Overloaded'), reply.cut({ afterEvents: 3 }), reply.text('made it')]);
    try {
      const result = await f.home.run(['run', '--json', '--workspace', f.workspace, 'hi']);
      assert.equal(result.code, 0, result.stderr);
      assert.equal(result.events.filter((e) => e.type === 'providerRetry').length, 2);
    } finally {
      await f.close();
    }
  });
});

describe('cove run permissions, in every mode', () => {
  const writeCall = () => [reply.message([block.toolUse('write_file', { path: 'out.txt', content: 'written\n' })]), reply.text('done')];
  const modes: Array<[string, string[], boolean, RegExp | null]> = [
    ['default denies a mutating tool, naming the rule that would allow it', [], false, /--allow 'write_file\(out\.txt\)'/],
    ['plan denies it with a reason', ['--permission-mode', 'plan'], false, /plan mode/],
    ['acceptEdits allows file edits inside the workspace', ['--permission-mode', 'acceptEdits'], true, null],
    ['--allow with a path rule allows the tool', ['--allow', 'write_file(out.txt)'], true, null],
    ['--allow with another path does not', ['--allow', 'write_file(docs/**)'], false, /cove run has no one to ask/],
    ['bypass allows it', ['--permission-mode', 'bypass'], true, null],
    ['a deny rule wins even in bypass', ['--permission-mode', 'bypass', '--deny', 'write_file'], false, /deny/],
    ['an ask rule is a denial headless', ['--allow', 'write_file', '--ask', 'write_file'], false, /ask rule/],
  ];
  for (const [name, flags, writes, reason] of modes) {
    test(name, async () => {
      const f = await cliFixture(writeCall());
      try {
        const result = await f.home.run(['run', '--json', '--workspace', f.workspace, ...flags, 'write out.txt']);
        assert.equal(result.code, 0, result.stderr);
        assert.equal(existsSync(join(f.workspace, 'out.txt')), writes);
        const end = result.events.find((e) => e.type === 'toolExecutionEnd');
        assert.ok(end && end.type === 'toolExecutionEnd');
        assert.equal(end.isError, !writes);
        if (reason) assert.match(JSON.stringify(end.result.content), reason);
        else assert.equal(readFileSync(join(f.workspace, 'out.txt'), 'utf8'), 'written\n');
      } finally {
        await f.close();
      }
    });
  }

  test('a compound command with one denied part is denied whole, and the audit lists every decision', async () => {
    const f = await cliFixture([
      reply.message([block.toolUse('bash', { command: 'ls; rm -rf build' }, { id: 'toolu_compound' }), block.toolUse('bash', { command: 'ls' }, { id: 'toolu_ls' })]),
      reply.text('ok'),
    ]);
    try {
      const result = await f.home.run(['run', '--json', '--workspace', f.workspace, '--allow', 'bash(ls:*)', '--deny', 'bash(rm:*)', 'clean up']);
      assert.equal(result.code, 0, result.stderr);
      const ends = new Map(result.events.flatMap((e) => (e.type === 'toolExecutionEnd' ? [[e.toolCallId, e]] : [])));
      assert.equal(ends.get('toolu_compound')!.isError, true);
      assert.match(JSON.stringify(ends.get('toolu_compound')!.result.content), /bash\(rm:\*\)/);
      assert.equal(ends.get('toolu_ls')!.isError, false);
      const sessionId = result.events[0]!.sessionId;
      const audit = await f.home.run(['sessions', '--audit', sessionId, '--json']);
      assert.equal(audit.code, 0, audit.stderr);
      const entries = audit.stdout
        .trim()
        .split('\n')
        .map((line) => JSON.parse(line));
      assert.deepEqual(entries.map((e) => [e.toolCallId, e.decision]).sort(), [
        ['toolu_compound', 'deny'],
        ['toolu_ls', 'allow'],
      ]);
      assert.ok(entries.every((e) => e.sessionId === sessionId && e.toolName === 'bash' && typeof e.at === 'number'));
    } finally {
      await f.close();
    }
  });

  test('rules come from the workspace settings files, and a malformed one stops the run naming the file', async () => {
    const f = await cliFixture([reply.message([block.toolUse('write_file', { path: 'out.txt', content: 'from settings\n' })]), reply.text('done')]);
    try {
      const { mkdirSync } = await import('node:fs');
      mkdirSync(join(f.workspace, '.cove'));
      writeFileSync(join(f.workspace, '.cove', 'settings.json'), JSON.stringify({ permissions: { allow: ['write_file(out.txt)'] } }));
      const allowed = await f.home.run(['run', '--json', '--workspace', f.workspace, 'write']);
      assert.equal(allowed.code, 0, allowed.stderr);
      assert.equal(readFileSync(join(f.workspace, 'out.txt'), 'utf8'), 'from settings\n');

      writeFileSync(join(f.workspace, '.cove', 'settings.local.json'), '{ "permissions": { "allow": [ }');
      const broken = await f.home.run(['run', '--workspace', f.workspace, 'write again']);
      assert.equal(broken.code, 2);
      const lines = broken.stderr.trim().split('\n');
      assert.equal(lines.length, 1, broken.stderr);
      assert.ok(lines[0]!.includes(join(f.workspace, '.cove', 'settings.local.json')), lines[0]);
      assert.equal(f.server.requests.length, 2, 'nothing was sent for the broken run');
    } finally {
      await f.close();
    }
  });
});

describe('cove run and secrets', () => {
  test('values of .env files and known key formats never reach the model, the events or the store', async () => {
    const envValue = 'hunter2-very-private-value';
    const githubToken = `ghp_${'a1B2c3D4e5'.repeat(4).slice(0, 36)}`;
    const f = await cliFixture([reply.message([block.toolUse('read_file', { path: 'config.txt' }), block.toolUse('bash', { command: 'cat config.txt' })]), reply.text('done')]);
    try {
      writeFileSync(join(f.workspace, '.env'), `DATABASE_PASSWORD=${envValue}\n`);
      writeFileSync(join(f.workspace, 'config.txt'), `password: ${envValue}\ntoken: ${githubToken}\n`);
      const result = await f.home.run(['run', '--json', '--permission-mode', 'bypass', '--workspace', f.workspace, 'show me the config']);
      assert.equal(result.code, 0, result.stderr);
      const toModel = f.server.requests[1]!.rawBody;
      for (const secret of [envValue, githubToken]) {
        assert.ok(!toModel.includes(secret), 'the model never sees the secret');
        assert.ok(!result.stdout.includes(secret), 'no event carries the secret');
      }
      assert.match(toModel, /REDACTED/);
      const ends = result.events.filter((e) => e.type === 'toolExecutionEnd');
      assert.ok(
        ends.every((e) => e.type === 'toolExecutionEnd' && (e.result.redactions ?? 0) >= 2),
        JSON.stringify(ends),
      );
      const { readdirSync } = await import('node:fs');
      for (const name of readdirSync(f.home.path).filter((n) => n.startsWith('cove.db'))) {
        assert.ok(!readFileSync(join(f.home.path, name)).includes(envValue), `${name} holds no secret`);
      }
    } finally {
      await f.close();
    }
  });
});
