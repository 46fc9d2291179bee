// Settings' editing requests: rules added, edited and deleted in the person's, the project's and
// the local file on disk (every other key kept, a malformed file left alone), the syntax check
// that runs as a rule is typed, a key checked against the scripted API, and what a Retry goes on from.
import { after, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { checkRuleText, createRuleProvider } from '../../electron/core/permissions/rule-provider';
import { checkApiKey } from '../../electron/core/api/api-key-check';
import { promptToResume } from '../../electron/core/sessions/resume-prompt';
import type { ConversationMessage } from '../../electron/core/agent/types';
import { reply, startModelServer } from '../support/model-server';

function world(t: { after(fn: () => void): void }) {
  const base = mkdtempSync(join(tmpdir(), 'cove-settings-edit-'));
  t.after(() => rmSync(base, { recursive: true, force: true }));
  const coveHome = join(base, 'home');
  const workspace = join(base, 'workspace');
  mkdirSync(workspace);
  let changes = 0;
  const rules = createRuleProvider(coveHome, () => changes++);
  const json = (path: string) => JSON.parse(readFileSync(path, 'utf8'));
  return { coveHome, workspace, rules, json, changes: () => changes };
}

describe('editing rules from Settings', () => {
  test('adds to each editable file, edits in place keeping the position, deletes; the permission engine is told each time', (t) => {
    const { coveHome, workspace, rules, json, changes } = world(t);
    mkdirSync(coveHome, { recursive: true });
    writeFileSync(join(coveHome, 'settings.json'), JSON.stringify({ model: 'claude-opus-4-1', permissions: { allow: ['read_file'] }, hooks: { Stop: [] } }));

    rules.save({ file: 'user', list: 'allow', rule: ' bash(npm test) ' });
    rules.save({ file: 'local', workspace, list: 'ask', rule: 'bash(git push:*)' });
    rules.save({ file: 'project', workspace, list: 'deny', rule: 'web_fetch' });
    rules.save({ file: 'user', list: 'allow', rule: 'list_files' });
    const user = json(join(coveHome, 'settings.json'));
    assert.deepEqual(user.permissions.allow, ['read_file', 'bash(npm test)', 'list_files'], 'trimmed, appended in order');
    assert.equal(user.model, 'claude-opus-4-1', 'other keys stay');
    assert.deepEqual(user.hooks, { Stop: [] });
    assert.deepEqual(json(join(workspace, '.cove', 'settings.local.json')).permissions.ask, ['bash(git push:*)']);
    assert.deepEqual(json(join(workspace, '.cove', 'settings.json')).permissions.deny, ['web_fetch']);

    rules.save({ file: 'user', list: 'allow', rule: 'bash(npm run test:*)', replaces: 'bash(npm test)' });
    assert.deepEqual(json(join(coveHome, 'settings.json')).permissions.allow, ['read_file', 'bash(npm run test:*)', 'list_files'], 'an edit keeps its place');
    rules.remove({ file: 'user', list: 'allow', rule: 'read_file' });
    assert.deepEqual(json(join(coveHome, 'settings.json')).permissions.allow, ['bash(npm run test:*)', 'list_files']);
    assert.equal(changes(), 6);

    const kinds = rules.sources(workspace).sources.map((source) => [source.kind, source.editable]);
    assert.deepEqual(kinds, [
      ['user', true],
      ['project', true],
      ['local', true],
    ]);
  });

  test('refuses an invalid rule, an edit of a rule that is gone and a malformed file, naming each, and writes nothing', (t) => {
    const { coveHome, workspace, rules } = world(t);
    assert.throws(() => rules.save({ file: 'user', list: 'allow', rule: 'bash(npm test' }), /invalid permission rule 'bash\(npm test': unbalanced/);
    assert.throws(() => rules.save({ file: 'user', list: 'allow', rule: 'Bash(ls)' }), /Bash/);
    rules.save({ file: 'local', workspace, list: 'allow', rule: 'read_file' });
    assert.throws(() => rules.save({ file: 'local', workspace, list: 'allow', rule: 'list_files', replaces: 'search' }), /search is no longer in .*settings\.local\.json/);
    const project = join(workspace, '.cove', 'settings.json');
    writeFileSync(project, '{ "permissions": ');
    assert.throws(
      () => rules.save({ file: 'project', workspace, list: 'allow', rule: 'read_file' }),
      (error: Error) => error.message.includes(project),
    );
    assert.equal(readFileSync(project, 'utf8'), '{ "permissions": ', 'a malformed file is never overwritten');
    assert.throws(() => rules.save({ file: 'local', list: 'allow', rule: 'read_file' }), /needs the workspace/);
    assert.deepEqual(JSON.parse(readFileSync(join(workspace, '.cove', 'settings.local.json'), 'utf8')).permissions.allow, ['read_file']);
    assert.equal(rules.sources(undefined).sources.length, 0, `nothing was written to ${coveHome}`);
  });

  test('the as-you-type check answers the normalized rule or what is wrong with it', () => {
    assert.deepEqual(checkRuleText('  bash(npm test)  '), { valid: true, rule: 'bash(npm test)' });
    for (const [text, fragment] of [
      ['', 'empty'],
      ['bash(npm test', 'unbalanced'],
      ['no_such_tool', 'no_such_tool'],
      ['read_file()', 'empty specifier'],
      ['mcp__server__tool(x)', 'MCP rules take no specifier'],
    ] as const) {
      const check = checkRuleText(text);
      assert.equal(check.valid, false, text);
      if (!check.valid) assert.match(check.message, new RegExp(fragment.replace(/[()]/g, '\\$&')), text);
    }
  });
});

describe('checking an API key before it is saved', () => {
  const servers: Array<{ close(): Promise<void> }> = [];
  after(async () => {
    for (const server of servers) await server.close();
  });

  test('valid where the API lists models for it, rejected on 401, unchecked without a Models API or a server', async () => {
    const api = await startModelServer([reply.text('unused')], { validApiKeys: ['sk-good'], models: { kind: 'list', data: [{ id: 'claude-sonnet-4-5' }] } });
    const gateway = await startModelServer([reply.text('unused')]);
    servers.push(api, gateway);
    assert.equal((await checkApiKey('sk-good', api.url)).verdict, 'valid');
    const rejected = await checkApiKey('sk-wrong', api.url);
    assert.equal(rejected.verdict, 'rejected');
    assert.match(rejected.message, /401 authentication_error: invalid x-api-key/);
    const noModels = await checkApiKey('sk-any', gateway.url);
    assert.deepEqual([noModels.verdict, noModels.message.includes('has no Models API')], ['unchecked', true]);

    const closed = await new Promise<number>((resolve) => {
      const probe = createServer().listen(0, '127.0.0.1', () => {
        const { port } = probe.address() as { port: number };
        probe.close(() => resolve(port));
      });
    });
    const unreachable = await checkApiKey('sk-any', `http://127.0.0.1:${closed}`);
    assert.equal(unreachable.verdict, 'unchecked');
    assert.match(unreachable.message, /could not be checked: cannot reach the API/);
  });
});

describe('what Retry and Resume go on from', () => {
  const user = (text: string): ConversationMessage => ({ role: 'user', content: [{ type: 'text', text }] });
  const toolCall: ConversationMessage = { role: 'assistant', content: [{ type: 'tool_use', id: 'call-1', name: 'bash', input: { command: 'ls' } }] };
  const toolResult: ConversationMessage = { role: 'user', content: [{ type: 'tool_result', tool_use_id: 'call-1', content: [{ type: 'text', text: 'a b' }] }] };

  test('a history ending with the person, tool results or unanswered calls goes on; one ending with a reply does not', () => {
    assert.equal(promptToResume([user('Explain the build')]), 'Explain the build');
    assert.equal(promptToResume([user('Refactor'), toolCall]), 'Refactor', 'unanswered calls: the agent answers them as interrupted');
    assert.equal(promptToResume([user('Refactor'), toolCall, toolResult]), 'Refactor', 'tool results are not a prompt; the one before is');
    assert.equal(promptToResume([user('Hi'), { role: 'assistant', content: [{ type: 'text', text: 'Hello' }] }]), undefined);
    assert.equal(promptToResume([]), undefined);
  });
});
