/**
 * Events are redacted once, where they are published: a secret planted in any string field of
 * any event type is gone from what listeners get; a secret streamed over several deltas is
 * replaced once its shape is whole.
 */
import { test, describe } from 'node:test';
import assert from 'node:assert/strict';
import { EVENT_TYPES, type CoveEvent, type CoveEventType } from '../../shared/events';
import { SecretSet } from '../../electron/core/secrets';
import { EventRedaction, redactEvent } from '../../electron/core/secrets/redact-event';

const usage = { input: 1, output: 2, cacheRead: 0, cacheWrite: 0 };
const base = { sessionId: 's-1', subagentId: 'sub-1' };

/** One event of every type with every optional field filled: the compiler keeps it complete. */
const EXAMPLES: { [T in CoveEventType]: Extract<CoveEvent, { type: T }> } = {
  agentStart: { type: 'agentStart', ...base, model: 'claude', prompt: 'p' },
  agentEnd: { type: 'agentEnd', ...base, stopReason: 'error', usage, cost: null, error: 'e' },
  turnStart: { type: 'turnStart', ...base, turn: 1 },
  turnEnd: { type: 'turnEnd', ...base, turn: 1, usage, cost: null },
  messageStart: { type: 'messageStart', ...base, messageId: 'm', role: 'assistant' },
  messageUpdate: { type: 'messageUpdate', ...base, messageId: 'm', delta: { type: 'toolCallDelta', index: 0, toolCallId: 't', toolName: 'bash', partialJson: '{"command":"x"}' } },
  messageEnd: {
    type: 'messageEnd',
    ...base,
    messageId: 'm',
    content: [
      { type: 'text', text: 't' },
      { type: 'thinking', thinking: 'th', signature: 'sig' },
      { type: 'tool_use', id: 'tu', name: 'bash', input: { command: 'c', env: ['a', { nested: 'n' }] } },
      { type: 'server_tool_use', id: 'st', name: 'web_search', input: { query: 'q' } },
      { type: 'web_search_tool_result', tool_use_id: 'st', content: [{ title: 'r' }] },
    ],
    providerStopReason: 'tool_use',
    usage,
  },
  toolExecutionStart: { type: 'toolExecutionStart', ...base, toolCallId: 't', toolName: 'bash', args: { command: 'c', cwd: 'd' }, sensitivity: 'dangerous' },
  toolExecutionUpdate: { type: 'toolExecutionUpdate', ...base, toolCallId: 't', partialResult: { content: [{ type: 'text', text: 'o' }], details: { stdout: 's' }, diff: 'd' } },
  toolExecutionEnd: {
    type: 'toolExecutionEnd',
    ...base,
    toolCallId: 't',
    toolName: 'bash',
    result: { content: [{ type: 'text', text: 'o' }], details: { lines: ['l'] }, diff: 'd', errorKind: 'failed' },
    isError: true,
  },
  progressMessage: { type: 'progressMessage', ...base, toolCallId: 't', text: 'x' },
  permissionRequest: {
    type: 'permissionRequest',
    ...base,
    requestId: 'r',
    toolCallId: 't',
    toolName: 'bash',
    args: { command: 'c' },
    sensitivity: 'dangerous',
    reasons: ['why'],
    suggestedRule: 'bash(c)',
  },
  permissionDecision: { type: 'permissionDecision', ...base, requestId: 'r', decision: 'deny', scope: 'once', rule: 'bash(c)', reason: 'no' },
  providerRetry: { type: 'providerRetry', ...base, attempt: 1, maxAttempts: 3, error: 'e', delayMs: 5 },
  loopDetected: { type: 'loopDetected', ...base, toolName: 'bash', count: 3, action: 'nudge' },
  contextCompacted: { type: 'contextCompacted', ...base, removedMessages: 3, tokensBefore: 100, summarized: true },
  subagentStart: { type: 'subagentStart', ...base, displayName: 'n', parentToolCallId: 't', task: 'do' },
  subagentEnd: { type: 'subagentEnd', ...base, status: 'done' },
  hookRun: {
    type: 'hookRun',
    ...base,
    hookEvent: 'PreToolUse',
    command: 'c',
    file: 'f',
    toolCallId: 't',
    exitCode: 0,
    decision: 'allow',
    output: 'o',
    durationMs: 1,
    timedOut: false,
    truncated: false,
  },
  todoUpdate: { type: 'todoUpdate', ...base, todos: [{ content: 'c', status: 'pending' }] },
  checkpoint: { type: 'checkpoint', ...base, checkpointId: 'c', toolCallId: 't', moment: 'beforeTool', roots: [{ root: 'r', commit: 'h' }], problems: ['p'] },
  rewind: { type: 'rewind', ...base, toPrompt: 1, checkpointId: 'c', roots: [{ root: 'r', before: 'b', after: 'a' }], restored: ['x'], removed: ['y'], kept: ['z'] },
  revert: { type: 'revert', ...base, scope: 'hunk', prompt: 1, paths: ['x'], hunk: '@@ -1 +1 @@', roots: [{ root: 'r', before: 'b', after: 'a' }] },
  userMessage: { type: 'userMessage', ...base, text: 't', steered: false, command: 'c', attachments: [{ kind: 'file', path: 'p', error: 'e' }], answer: 'a' },
};

/** Paths to every string of a value, except discriminators (`type`), which name no data. */
function stringPaths(value: unknown, path: (string | number)[] = []): (string | number)[][] {
  if (typeof value === 'string') return [path];
  if (Array.isArray(value)) return value.flatMap((item, index) => stringPaths(item, [...path, index]));
  if (value && typeof value === 'object') return Object.entries(value).flatMap(([key, item]) => (key === 'type' ? [] : stringPaths(item, [...path, key])));
  return [];
}

function planted(event: CoveEvent, path: (string | number)[], secret: string): CoveEvent {
  const copy = structuredClone(event) as unknown as Record<string | number, unknown>;
  let node = copy;
  for (const key of path.slice(0, -1)) node = node[key] as Record<string | number, unknown>;
  node[path.at(-1)!] = `before ${secret} after`;
  return copy as unknown as CoveEvent;
}

const secrets = new SecretSet({ values: [{ value: 'file-value-horse-battery-42', label: 'env' }] });
const SECRETS = ['ghp_0123456789abcdefABCDEFghijklmnopqrST', 'file-value-horse-battery-42'];

describe('redactEvent', () => {
  test('the examples cover every event type', () => {
    assert.deepEqual(Object.keys(EXAMPLES).sort(), [...EVENT_TYPES].sort());
  });

  for (const type of EVENT_TYPES) {
    test(`${type}: a secret in any string field is replaced, the rest is kept`, () => {
      const example = EXAMPLES[type];
      assert.equal(redactEvent(example, secrets), example, 'an event without secrets is passed on as it is');
      const paths = stringPaths(example);
      assert.ok(paths.length >= 2, `${type} has string fields`);
      for (const path of paths) {
        for (const secret of SECRETS) {
          const event = planted(example, path, secret);
          const before = JSON.stringify(event);
          const redacted = redactEvent(event, secrets);
          const text = JSON.stringify(redacted);
          assert.ok(!text.includes(secret), `${type}.${path.join('.')} still holds the secret: ${text}`);
          assert.match(text, /before \[REDACTED:[a-z-]+\] after/, `${type}.${path.join('.')}`);
          assert.equal(JSON.stringify(event), before, 'the published event is not changed in place');
          assert.equal(text.replace(/\[REDACTED:[a-z-]+\]/, secret), before);
        }
      }
    });
  }

  test('image data stays byte-exact', () => {
    const image = { type: 'image' as const, mediaType: 'image/png' as const, data: SECRETS[0]! };
    const event: CoveEvent = { type: 'toolExecutionEnd', sessionId: 's', toolCallId: 't', toolName: 'read_file', isError: false, result: { content: [image] } };
    assert.equal(redactEvent(event, secrets), event);
  });
});

describe('deltas', () => {
  const delta = (index: number, partialJson: string): CoveEvent => ({
    type: 'messageUpdate',
    sessionId: 's',
    messageId: 'm1',
    delta: { type: 'toolCallDelta', index, toolCallId: 't', toolName: 'bash', partialJson },
  });
  const textOf = (event: CoveEvent) => (event.type === 'messageUpdate' && event.delta.type === 'toolCallDelta' ? event.delta.partialJson : '');

  test('a secret split over deltas never goes out whole; text around it is kept', () => {
    const redaction = new EventRedaction();
    const json = JSON.stringify({ command: `curl -H "Authorization: token ${SECRETS[0]}" https://api.github.com/user && echo ok` });
    const sizes = [3, 7, 5];
    const pieces: string[] = [];
    for (let at = 0, step = 0; at < json.length; step++) pieces.push(json.slice(at, (at += sizes[step % sizes.length]!)));
    const sent = pieces.map((piece) => textOf(redaction.redact(delta(0, piece), secrets))).join('');
    assert.ok(!sent.includes(SECRETS[0]!), sent);
    assert.ok(!sent.includes(SECRETS[0]!.slice(-20)), `the secret's tail is replaced: ${sent}`);
    assert.match(sent, /\[REDACTED:github-[a-z]+\]/);
    assert.ok(sent.endsWith('https://api.github.com/user && echo ok"}'), sent);
  });

  test('a merged delta longer than the window goes out whole, a secret at its start or split into it still redacted', () => {
    // The sequencer joins a frame's deltas before they are redacted, so one delta can be far
    // longer than the 2 KB window; it used to go out as its last 2 KB only.
    const redaction = new EventRedaction();
    const head = `{"command":"curl -H 'Authorization: token ${SECRETS[0]!.slice(0, 12)}`;
    const long = `${SECRETS[0]!.slice(12)}' ${'x'.repeat(10_000)} ${SECRETS[1]} ${'y'.repeat(5_000)}"}`;
    const sent = [head, long, 'tail'].map((piece) => textOf(redaction.redact(delta(0, piece), secrets))).join('');
    const whole = head + long + 'tail';
    assert.ok(!sent.includes(SECRETS[0]!.slice(12)), "the split secret's tail is replaced");
    assert.ok(!sent.includes(SECRETS[1]!), 'the secret inside the long delta is replaced');
    assert.equal(sent.replace(/\[REDACTED:[a-z-]+\]/g, '').length, whole.length - SECRETS[0]!.slice(12).length - SECRETS[1]!.length, sent.slice(0, 200));
    assert.ok(sent.includes('x'.repeat(10_000)) && sent.endsWith(`${'y'.repeat(5_000)}"}tail`), 'everything around the secrets is kept');
  });

  test('a long block in deltas of every size arrives whole when it holds no secret', () => {
    const redaction = new EventRedaction();
    const sizes = [1, 4_000, 7, 2_048, 2_049, 30_000, 3];
    const pieces = sizes.map((size, n) => String.fromCharCode(97 + n).repeat(size));
    const sent = pieces.map((piece) => textOf(redaction.redact(delta(0, piece), secrets))).join('');
    assert.equal(sent, pieces.join(''));
  });

  test('deltas without secrets pass unchanged, block by block', () => {
    const redaction = new EventRedaction();
    const pieces = ['{"path":', '"src/a.ts",', '"content":"export const x = 1;\\n"}'];
    for (const piece of pieces) {
      const event = delta(1, piece);
      assert.equal(redaction.redact(event, secrets), event);
    }
  });
});
