// Fuzzes the dispatcher with ~200 inputs per request: wrong types, missing and extra fields,
// huge strings, NUL bytes, deep nesting, prototype-pollution keys. Every input must come back
// as a Response; every input the schema refuses must be `invalidInput` naming the field, and
// must leave the store, the prompts and the data folder exactly as they were. Seeded, so a
// failure replays.
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, readdirSync, readFileSync, realpathSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { REQUEST_NAMES, requests, type ErrorCode, type RequestInput, type RequestName } from '../../shared/contract';
import { FileKeyVault } from '../../electron/core/api/api-key';
import { createHost, type Host } from '../../electron/core/api/host';

const INPUTS_PER_REQUEST = 200;
const ERROR_CODES: ErrorCode[] = ['invalidInput', 'unknownRequest', 'notFound', 'conflict', 'failed', 'unauthorized'];
/** Requests whose valid inputs change nothing, so the fuzzer may send them too. */
const READ_ONLY = new Set<RequestName>([
  'app:info',
  'session:list',
  'session:open',
  'session:events',
  'session:search',
  'workspace:check',
  'workspace:complete',
  'permission:pending',
  'settings:get',
  'persona:list',
  'approval:list',
  'session:attachment',
  'command:list',
  'mention:complete',
]);

function random(seed: number) {
  let state = seed >>> 0;
  const next = () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
  const int = (below: number) => Math.floor(next() * below);
  const pick = <T>(items: readonly T[]): T => items[int(items.length)]!;
  return { next, int, pick };
}

/** Sets a key as an own property, `__proto__` included (as JSON.parse does). */
function own(target: Record<string, unknown>, key: string, value: unknown) {
  Object.defineProperty(target, key, { value, enumerable: true, writable: true, configurable: true });
}

function fuzzer(seed: number, fieldNames: string[]) {
  const { next, int, pick } = random(seed);
  const keys = [...fieldNames, '__proto__', 'constructor', 'prototype', 'toString', 'extra', 'input', 'type', 'id'];
  const text = (): string =>
    pick([
      () => '',
      () => ' ',
      () => 'a',
      () => '\0',
      () => `abc\0def`,
      () => 'x'.repeat(600_000),
      () => '🙂'.repeat(int(300)),
      () => '../../etc/passwd',
      () => '/definitely/not/here',
      () => 'id with spaces',
      () => '__proto__',
      () => 'constructor',
      () => String(int(1e6)),
      () => Array.from({ length: int(40) }, () => String.fromCharCode(32 + int(95))).join(''),
    ])();
  const value = (depth = 0): unknown =>
    pick([
      () => null,
      () => undefined,
      () => next() < 0.5,
      () => int(2000) - 1000,
      () => pick([0, -0, 1.5, -1, 1e308, Number.MAX_SAFE_INTEGER + 2, NaN, Infinity, -Infinity]),
      text,
      text,
      () => (depth > 3 ? [] : Array.from({ length: int(4) }, () => value(depth + 1))),
      () => (depth > 3 ? {} : object(depth + 1)),
      () => nested(20 + int(200)),
    ])();
  const object = (depth: number): Record<string, unknown> => {
    const result: Record<string, unknown> = {};
    for (let count = int(4); count > 0; count--) own(result, pick(keys), value(depth));
    return result;
  };
  const nested = (levels: number): unknown => {
    let inner: unknown = 'bottom';
    for (let level = 0; level < levels; level++) inner = level % 2 ? [inner] : { a: inner };
    return inner;
  };
  /** A mutation of a valid input, or something random altogether. */
  const input = (template: Record<string, unknown>): unknown => {
    const copy: Record<string, unknown> = {};
    for (const [key, field] of Object.entries(template)) own(copy, key, field);
    const present = Object.keys(copy);
    switch (int(7)) {
      case 0:
        return value();
      case 1:
      case 2:
        own(copy, present.length > 0 && next() < 0.8 ? pick(present) : pick(fieldNames.length > 0 ? fieldNames : keys), value());
        return copy;
      case 3:
        if (present.length > 0) delete copy[pick(present)];
        else own(copy, pick(keys), value());
        return copy;
      case 4:
        own(copy, pick(keys.filter((key) => !fieldNames.includes(key))), value());
        return copy;
      case 5:
        return JSON.parse(`{"__proto__":{"polluted":true},"constructor":{"prototype":{"polluted":true}},${JSON.stringify(copy).slice(1)}`.replace(/,}$/, '}'));
      default:
        own(copy, present.length > 0 ? pick(present) : pick(keys), nested(100 + int(400)));
        return copy;
    }
  };
  return { input, value };
}

describe('contract fuzz', () => {
  let dataDir: string;
  let workspace: string;
  let host: Host;
  let sessionIds: string[];
  const savedEnv = { ...process.env };

  before(async () => {
    // No key and no reachable API: nothing the fuzzer sends can start a real run.
    delete process.env.ANTHROPIC_API_KEY;
    delete process.env.ANTHROPIC_AUTH_TOKEN;
    process.env.ANTHROPIC_BASE_URL = 'http://127.0.0.1:9';
    dataDir = mkdtempSync(join(tmpdir(), 'cove-fuzz-'));
    workspace = realpathSync(mkdtempSync(join(tmpdir(), 'cove-fuzz-ws-')));
    host = createHost({ dataDir, host: 'browser', version: '0.0.0-test', vault: new FileKeyVault(dataDir), log: () => {} });
    sessionIds = [];
    for (const title of ['First', 'Second']) {
      const created = await host.dispatch('session:create', { workspaces: [workspace], title });
      assert.ok(created.ok, JSON.stringify(created));
      sessionIds.push((created.value as { id: string }).id);
    }
  });

  after(async () => {
    await host.close();
    process.env = savedEnv;
    rmSync(dataDir, { recursive: true, force: true });
    rmSync(workspace, { recursive: true, force: true });
  });

  /** Everything a request could change: sessions, their logs, prompts, files in the data folder. */
  const snapshot = () =>
    JSON.stringify({
      sessions: host.store.listSessions({ limit: 1000 }),
      events: sessionIds.map((id) => host.store.loadEvents(id)),
      pending: host.manager.pendingPermissions(),
      files: readdirSync(dataDir)
        .filter((name) => !name.startsWith('cove.db') && !name.endsWith('.db') && !name.includes('.db-'))
        .sort()
        .map((name) => [name, readFileSync(join(dataDir, name), 'utf8')]),
    });

  const templates = (): { [K in RequestName]: RequestInput<K> } => {
    const sessionId = sessionIds[0]!;
    return {
      'app:info': {},
      'models:list': {},
      'session:list': { limit: 10 },
      'session:create': { workspaces: [workspace], title: 'Fuzzed', model: 'claude-sonnet-4-5', permissionMode: 'default' },
      'session:open': { sessionId },
      'session:events': { sessionId, afterSeq: 0 },
      'session:send': { sessionId, text: 'hello' },
      'session:retry': { sessionId },
      'session:stop': { sessionId },
      'session:rename': { sessionId, title: 'Renamed' },
      'session:delete': { sessionId },
      'session:search': { text: 'First' },
      'session:addWorkspace': { sessionId, path: workspace },
      'session:setMode': { sessionId, permissionMode: 'plan' },
      'session:rewind': { sessionId, toPrompt: 1, dryRun: true },
      'session:changes': { sessionId },
      'session:revertHunk': { sessionId, prompt: 1, root: workspace, path: 'a.txt', hunk: 0 },
      'session:undoRevert': { sessionId, seq: 1 },

      'session:worktree': { sessionId },
      'session:mergeWorktree': { sessionId },
      'session:discardWorktree': { sessionId },
      'workspace:worktreeSupport': { path: workspace },
      'workspace:check': { path: workspace },
      'workspace:reveal': { sessionId, path: workspace },
      'workspace:complete': { prefix: `${workspace}/` },
      'permission:answer': { sessionId, requestId: 'request-1', decision: 'allow', scope: 'once' },
      'permission:pending': {},
      'settings:get': { workspace },
      'settings:update': { model: 'claude-sonnet-4-5', permissionMode: 'acceptEdits' },
      'settings:setApiKey': { apiKey: 'sk-not-a-real-key' },
      'settings:removeRule': { workspace, list: 'allow', rule: 'Bash(ls)' },
      'settings:saveRule': { workspace, file: 'local', list: 'allow', rule: 'bash(ls)' },
      'settings:checkRule': { rule: 'bash(ls)' },
      'settings:checkApiKey': { apiKey: 'sk-not-a-real-key' },
      'mcp:status': { workspace },
      'approval:list': { workspace },
      'approval:approve': { workspace, ids: ['0'.repeat(64)] },
      'persona:list': { sessionId },
      'session:setPersona': { sessionId, persona: 'reviewer' },
      'subagent:cancel': { sessionId, subagentId: 'agent-1' },
      'session:addImage': { sessionId, name: 'shot.png', data: 'iVBORw0KGgo=' },
      'session:attachment': { sessionId, attachmentId: `${'0'.repeat(32)}.png` },
      'command:list': { sessionId },
      'mention:complete': { sessionId, prefix: 'src/' },
    };
  };

  test('every malformed input is refused by name, changes nothing, and nothing throws', { timeout: 300_000 }, async () => {
    const prototypeKeys = Object.getOwnPropertyNames(Object.prototype).sort();
    const all = templates();
    let refused = 0;
    let skipped = 0;
    for (const [index, name] of REQUEST_NAMES.entries()) {
      const schema = requests[name].input;
      const fieldNames = Object.keys(schema.shape);
      const generate = fuzzer(1000 + index, fieldNames);
      for (let round = 0; round < INPUTS_PER_REQUEST; round++) {
        const input = generate.input(all[name] as Record<string, unknown>);
        const parsed = schema.safeParse(input ?? {});
        if (parsed.success && !READ_ONLY.has(name)) {
          skipped++;
          continue;
        }
        const label = `${name} round ${round}`;
        const before = snapshot();
        const response = await host.dispatch(name, input);
        assert.equal(typeof response.ok, 'boolean', label);
        if (!response.ok) assert.ok(ERROR_CODES.includes(response.error.code) && typeof response.error.message === 'string', label);
        if (parsed.success) continue;
        refused++;
        assert.equal(response.ok, false, `${label}: accepted an input its schema refuses`);
        if (response.ok) continue;
        assert.equal(response.error.code, 'invalidInput', `${label}: ${response.error.message}`);
        const issue = parsed.error.issues[0]!;
        const field = issue.path.length > 0 ? issue.path.join('.') : issue.code === 'unrecognized_keys' ? issue.keys[0]! : 'input';
        assert.ok(response.error.message.startsWith(`${name}: `), label);
        assert.ok(response.error.message.includes(field), `${label}: "${response.error.message.slice(0, 200)}" does not name ${field}`);
        assert.ok(response.error.message.length < 2000, `${label}: the message echoes the input`);
        assert.equal(snapshot(), before, `${label}: a refused input changed state`);
      }
    }
    assert.ok(refused > REQUEST_NAMES.length * INPUTS_PER_REQUEST * 0.6, `only ${refused} inputs were malformed (${skipped} valid ones skipped)`);
    assert.deepEqual(Object.getOwnPropertyNames(Object.prototype).sort(), prototypeKeys);
    assert.equal(({} as Record<string, unknown>).polluted, undefined);
  });

  test('random request names are unknown requests, whatever the input', async () => {
    const generate = fuzzer(7, []);
    const before = snapshot();
    for (let round = 0; round < INPUTS_PER_REQUEST; round++) {
      const name = generate.value();
      if (typeof name === 'string' && (REQUEST_NAMES as string[]).includes(name)) continue;
      const response = await host.dispatch(name, generate.value());
      assert.equal(!response.ok && response.error.code, 'unknownRequest', `round ${round}`);
      assert.ok(!response.ok && response.error.message.length < 200);
    }
    assert.equal(snapshot(), before);
  });
});
