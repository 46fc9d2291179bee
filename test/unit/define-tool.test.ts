/**
 * One declaration per tool: a tool defined only in the test suite gets its rules, its permission
 * paths, its label and its summary from that declaration; the built-ins' declarations give the
 * schema the model sees, the argument checks and the summaries the UI shows.
 */
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdirSync, mkdtempSync, realpathSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Anthropic from '@anthropic-ai/sdk';
import { z } from 'zod';
import type { CoveEvent, PermissionRequestEvent, ToolExecutionEndEvent, ToolExecutionStartEvent } from '../../shared/events';
import { checkArguments } from '../../electron/core/agent/validate';
import { summarize } from '../../electron/core/agent/tool-facts';
import { createSessionGate, PermissionEngine, parseRule, type PermissionAsk } from '../../electron/core/permissions';
import { compileRule } from '../../electron/core/permissions/rule-match';
import { callPaths } from '../../electron/core/permissions/tool-paths';
import { SessionManager } from '../../electron/core/sessions/session-manager';
import { openStore } from '../../electron/core/store';
import { defineTool, toolPaths } from '../../electron/core/tools/define-tool';
import { builtinTools, knownTool } from '../../electron/core/tools/registry';
import { block, reply, startModelServer } from '../support/model-server';
import { wordCountTool } from '../support/word-count-tool';

function workspace(): string {
  const dir = realpathSync(mkdtempSync(join(tmpdir(), 'cove-define-tool-')));
  mkdirSync(join(dir, 'notes'));
  mkdirSync(join(dir, 'private'));
  writeFileSync(join(dir, 'notes', 'a.txt'), 'one two two three');
  writeFileSync(join(dir, 'private', 'b.txt'), 'secret words');
  return dir;
}

describe('a tool declared only in the test suite', () => {
  test('rules naming it parse, with its specifier read as a path; a misspelt name is refused by name', () => {
    assert.equal(parseRule('count_words(notes/**)').tool, 'count_words');
    assert.notEqual(compileRule('count_words(notes/**)', 'allow', 'test', '/home/x').path, null);
    assert.throws(() => parseRule('count_word(notes/**)'), /unknown tool 'count_word'.*count_words/);
    assert.throws(() => parseRule('todo_write(x)'), /todo_write takes no specifier/);
    assert.doesNotThrow(() => parseRule('mcp__github__create_issue'));
  });

  test('the permission engine asks the tool for its paths', () => {
    const dir = workspace();
    try {
      symlinkSync(join(dir, 'private'), join(dir, 'notes', 'link'));
      const engine = new PermissionEngine({
        mode: 'default',
        workspaceRoots: [dir],
        extraRules: { allow: ['count_words(notes/**)'], deny: ['count_words(private/**)'] },
      });
      const decide = (file: string) => engine.decide({ sessionId: 's', toolCallId: 't', toolName: 'count_words', args: { file }, sensitivity: 'mutating' });
      assert.equal(decide('notes/a.txt').outcome, 'allow');
      assert.equal(decide('private/b.txt').outcome, 'deny');
      // The path is followed where it really leads, as for every path tool.
      assert.equal(decide('notes/link/b.txt').outcome, 'deny');
      assert.equal(decide('elsewhere.txt').outcome, 'ask');
      assert.deepEqual(
        callPaths({ args: { file: 'notes/a.txt' }, tool: wordCountTool }, [dir])?.map((path) => path.relative),
        ['notes/a.txt'],
      );
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  test('a prompt about it carries its label and the call summary', async () => {
    const dir = workspace();
    try {
      const asked: PermissionAsk[] = [];
      const engine = new PermissionEngine({
        mode: 'default',
        workspaceRoots: [dir],
        ask: async (request) => {
          asked.push(request);
          return { decision: 'allow', scope: 'once' };
        },
      });
      const outcome = await engine.check(
        { sessionId: 's', toolCallId: 't', toolName: 'count_words', args: { file: 'notes/a.txt', unique: true }, sensitivity: 'mutating' },
        new AbortController().signal,
      );
      assert.equal(outcome.decision, 'allow');
      assert.equal(asked[0]?.label, 'Count words');
      assert.equal(asked[0]?.summary, 'notes/a.txt (unique words)');
      assert.equal(asked[0]?.suggestedRule, 'count_words(notes/a.txt)');
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  test('a session run publishes its label, summary and kind, and the gate decides by its paths', async () => {
    const dir = workspace();
    const server = await startModelServer([
      reply.message([block.toolUse('count_words', { file: 'notes/a.txt', unique: true }), block.toolUse('count_words', { file: 'private/b.txt' })]),
      reply.text('Done.'),
    ]);
    const store = openStore(join(dir, 'store'));
    const gate = new PermissionEngine({ mode: 'default', workspaceRoots: [dir], extraRules: { allow: ['count_words(notes/**)'] } });
    const manager = new SessionManager({
      store,
      createClient: () => new Anthropic({ apiKey: 'k', baseURL: server.url, maxRetries: 0 }),
      tools: () => [wordCountTool],
      permissionGate: () => gate.middleware(),
      retry: { baseDelayMs: 1 },
    });
    try {
      const session = manager.createSession({ workspaces: [dir], model: 'claude-sonnet-5', permissionMode: 'default' });
      const events: CoveEvent[] = [];
      manager.subscribe((event) => events.push(event));
      await manager.run(session.id, 'count them');
      // The two calls may run side by side: ordered by their arguments, not by which started first.
      const starts = events.filter((event): event is ToolExecutionStartEvent => event.type === 'toolExecutionStart').sort((a, b) => (a.summary ?? '').localeCompare(b.summary ?? ''));
      assert.deepEqual(
        starts.map(({ label, summary, kind }) => ({ label, summary, kind })),
        [
          { label: 'Count words', summary: 'notes/a.txt (unique words)', kind: 'read' },
          { label: 'Count words', summary: 'private/b.txt', kind: 'read' },
        ],
      );
      const ends = starts.map((start) => events.find((event): event is ToolExecutionEndEvent => event.type === 'toolExecutionEnd' && event.toolCallId === start.toolCallId));
      const text = (end: ToolExecutionEndEvent | undefined) => end?.result.content.map((part) => (part.type === 'text' ? part.text : '')).join('');
      assert.equal(text(ends[0]), 'notes/a.txt: 3 words');
      assert.equal(ends[1]?.result.errorKind, 'denied');
      assert.match(text(ends[1]) ?? '', /count_words\(private\/b\.txt\)/, 'headless denial names the rule that would allow the path the tool reported');
      const stored = store.loadEvents(session.id).find((event) => event.type === 'toolExecutionStart');
      assert.equal(stored?.type === 'toolExecutionStart' ? stored.summary : undefined, 'notes/a.txt (unique words)', 'the summary is stored with the event, so a reload shows it');
    } finally {
      await manager.stopAll();
      store.close();
      await server.close();
      rmSync(dir, { recursive: true, force: true });
    }
  });
});

test('the session gate publishes a permissionRequest with the label and summary of the tool asked about', async () => {
  const dir = workspace();
  const home = join(dir, 'home');
  mkdirSync(home);
  const server = await startModelServer([reply.message([block.toolUse('count_words', { file: 'private/b.txt' })]), reply.text('Done.')]);
  const store = openStore(join(dir, 'store'));
  const manager = new SessionManager({
    store,
    createClient: () => new Anthropic({ apiKey: 'k', baseURL: server.url, maxRetries: 0 }),
    tools: () => [wordCountTool],
    permissionGate: (session, prompter) => createSessionGate({ workspaces: session.workspaces, mode: 'default', coveHome: home, store, prompter }),
  });
  try {
    const requests: PermissionRequestEvent[] = [];
    manager.subscribe((event) => {
      if (event.type !== 'permissionRequest') return;
      requests.push(event);
      manager.answerPermission(event.sessionId, event.requestId, { decision: 'allow', scope: 'once' });
    });
    const session = manager.createSession({ workspaces: [dir], model: 'claude-sonnet-5', permissionMode: 'default' });
    await manager.run(session.id, 'count it');
    assert.deepEqual(
      requests.map(({ toolName, label, summary, suggestedRule }) => ({ toolName, label, summary, suggestedRule })),
      [{ toolName: 'count_words', label: 'Count words', summary: 'private/b.txt', suggestedRule: 'count_words(private/b.txt)' }],
    );
  } finally {
    await manager.stopAll();
    store.close();
    await server.close();
    rmSync(dir, { recursive: true, force: true });
  }
});

test('a declared tool of kind edit is a file edit: acceptEdits lets it through inside the workspace, protected files still ask', () => {
  const appendLine = defineTool({
    name: 'append_line',
    label: 'Append a line',
    description: 'Appends a line to a file.',
    schema: z.strictObject({ target: z.string(), line: z.string() }),
    sensitivity: 'mutating',
    kind: 'edit',
    permission: { paths: (args) => [args.target] },
    execute: async () => ({ content: [] }),
  });
  const dir = workspace();
  try {
    const engine = new PermissionEngine({ mode: 'acceptEdits', workspaceRoots: [dir], home: join(dir, 'home') });
    const decide = (target: string) => engine.decide({ sessionId: 's', toolCallId: 't', toolName: appendLine.name, args: { target, line: 'x' }, sensitivity: 'mutating' });
    assert.equal(decide('notes/a.txt').outcome, 'allow');
    assert.equal(decide('/etc/hosts').outcome, 'ask');
    const guarded = decide('.cove/settings.json');
    assert.equal(guarded.outcome, 'ask');
    assert.match(guarded.outcome === 'ask' ? guarded.reasons.join('; ') : '', /protected/);
    assert.equal(compileRule('append_line(notes/**)', 'allow', 'test', dir).path !== null, true);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

describe('built-in declarations', () => {
  const tools = new Map(builtinTools().map((tool) => [tool.name, tool]));
  const tool = (name: string) => tools.get(name)!;

  test('the schema the model sees is the JSON schema of SPEC §5, without zod extras', () => {
    const read = tool('read_file').parameters as { $schema?: unknown; required: string[]; properties: Record<string, Record<string, unknown>>; additionalProperties: boolean };
    assert.equal(read.$schema, undefined);
    assert.deepEqual(read.required, ['path']);
    assert.equal(read.additionalProperties, false);
    assert.deepEqual(read.properties.offset, { type: 'integer', minimum: 1, description: 'First line to show (1-based). Default 1.' });
    const bash = tool('bash').parameters as { properties: Record<string, Record<string, unknown>> };
    assert.equal(bash.properties.timeout?.maximum, 600);
    assert.equal(bash.properties.timeout?.exclusiveMinimum, 0);
    for (const each of tools.values()) assert.ok(knownTool(each.name), `${each.name} is registered for rules`);
  });

  test('arguments are checked by the declaration, naming each field that is wrong', async () => {
    assert.equal(await checkArguments(tool('read_file'), { path: 'a', offset: 2 }), null);
    assert.equal(
      await checkArguments(tool('read_file'), { offset: 1.5, other: 1 }),
      "Invalid arguments for read_file: missing required field 'path'; field 'offset' must be integer; unknown field 'other'",
    );
    assert.match(
      (await checkArguments(tool('todo_write'), { todos: [{ content: 'x', status: 'doing' }] }))!,
      /field 'todos\.0\.status' must be one of "pending", "in_progress", "completed"/,
    );
    assert.match((await checkArguments(tool('bash'), { command: 'ls', timeout: 601 }))!, /field 'timeout'/);
    assert.match((await checkArguments(tool('list_files'), 'src'))!, /field 'arguments' must be object/);
  });

  test('a deny rule of any file-edit tool covers the same path written by bash', async () => {
    const dir = workspace();
    try {
      for (const rule of ['edit_file(private/**)', 'write_file(private/**)', 'hashline_edit(private/**)']) {
        const engine = new PermissionEngine({ mode: 'acceptEdits', workspaceRoots: [dir], extraRules: { deny: [rule] } });
        await engine.ready();
        const decision = engine.decide({ sessionId: 's', toolCallId: 't', toolName: 'bash', args: { command: 'echo x > private/c.txt' }, sensitivity: 'mutating' });
        assert.equal(decision.outcome, 'deny', rule);
      }
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  test('a bare tool object named like a declared tool is judged by the declaration', async () => {
    const engine = new PermissionEngine({ mode: 'default', workspaceRoots: [tmpdir()], extraRules: { deny: ['bash(rm:*)'] } });
    await engine.ready();
    const bare = { name: 'bash', label: 'bash', kind: undefined, permission: undefined, summary: undefined };
    const decision = engine.decide({ sessionId: 's', toolCallId: 't', toolName: 'bash', args: { command: 'ls && rm -rf x' }, sensitivity: 'mutating', tool: bare });
    assert.equal(decision.outcome, 'deny');
  });

  test('each tool names its own paths and summary', () => {
    const patch = '[src/a.ts#AB12]\nreplace 3\n|x\n[src/b.ts#CD34]\ndelete 4\n[src/a.ts#AB12]\ndelete 5';
    assert.deepEqual(toolPaths(tool('hashline_edit'), { patch }), ['src/a.ts', 'src/b.ts']);
    assert.deepEqual(toolPaths(tool('list_files'), {}), ['.']);
    assert.deepEqual(toolPaths(tool('search'), { pattern: 'x', path: 'src' }), ['src']);
    assert.equal(toolPaths(tool('bash'), { command: 'ls' }), null);
    assert.equal(summarize(tool('bash'), { command: 'npm   test\n--watch' }), 'npm test --watch');
    assert.equal(summarize(tool('search'), { pattern: 'TODO', path: 'src' }), 'TODO in src');
    assert.equal(summarize(tool('hashline_edit'), { patch }), 'src/a.ts, src/b.ts');
    assert.equal(summarize(tool('todo_write'), { todos: [{ content: 'Write tests', status: 'in_progress' }] }), 'Write tests');
    // Arguments that fail the schema still get a line, never an exception.
    assert.equal(summarize(tool('read_file'), { path: 42, note: 'fallback' }), 'fallback');
    assert.equal(summarize(tool('hashline_edit'), { patch: null }), '');
  });
});
