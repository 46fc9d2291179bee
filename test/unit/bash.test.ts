import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, readFileSync, realpathSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ToolError, type ToolContext, type ToolResult } from '../../electron/core/agent/types';
import { bashTool, createBashTool, type BashDetails } from '../../electron/core/tools/bash';
import { UI_BATCH_LIMIT, UPDATE_INTERVAL_MS, type UiUpdate } from '../../electron/core/tools/bash-output';
import { runningWith } from '../support/processes';
import { makeContext } from './helpers/tool-context';

let root: string;
before(() => {
  root = realpathSync(mkdtempSync(join(tmpdir(), 'cove-bash-')));
});
after(() => rmSync(root, { recursive: true, force: true }));

interface Recorded {
  ctx: ToolContext;
  updates: ToolResult[];
  controller: AbortController;
  /** Resolves with the first update whose chunk matches. */
  waitForOutput(pattern: RegExp): Promise<string>;
}

function context(): Recorded {
  const controller = new AbortController();
  const updates: ToolResult[] = [];
  const waiters: Array<{ pattern: RegExp; resolve: (text: string) => void }> = [];
  let seen = '';
  const ctx: ToolContext = {
    ...makeContext([root]),
    toolName: 'bash',
    signal: controller.signal,
    onUpdate: (partial) => {
      updates.push(partial);
      seen += (partial.details as UiUpdate).chunk;
      for (const waiter of [...waiters]) {
        const match = waiter.pattern.exec(seen);
        if (match) {
          waiters.splice(waiters.indexOf(waiter), 1);
          waiter.resolve(match[0]);
        }
      }
    },
  };
  return {
    ctx,
    updates,
    controller,
    waitForOutput: (pattern) =>
      new Promise((resolve) => {
        const match = pattern.exec(seen);
        if (match) resolve(match[0]);
        else waiters.push({ pattern, resolve });
      }),
  };
}

function textOf(result: ToolResult): string {
  return result.content.map((block) => (block.type === 'text' ? block.text : '')).join('');
}

function details(result: ToolResult): BashDetails {
  return result.details as BashDetails;
}

let markers = 0;
/** A sleep duration no other process uses, to find the test's own sleeps. */
function uniqueSleep(): string {
  markers++;
  return `1000.${process.pid}${markers}`;
}

async function rejection(promise: Promise<unknown>): Promise<ToolError> {
  try {
    await promise;
  } catch (error) {
    assert.ok(error instanceof ToolError, `expected a ToolError, got ${String(error)}`);
    return error;
  }
  assert.fail('expected the call to fail');
}

describe('bash tool', () => {
  test('returns output and exit code, in the workspace root', async () => {
    const { ctx } = context();
    const result = await bashTool.execute({ command: 'echo hello; pwd' }, ctx);
    assert.equal(textOf(result), `hello\n${root}\n[exit code 0]`);
    assert.equal(details(result).exitCode, 0);
    assert.equal(details(result).timedOut, false);
    assert.equal(bashTool.sensitivity, 'mutating');
  });

  test('a non-zero exit is a normal result', async () => {
    const { ctx } = context();
    const result = await bashTool.execute({ command: 'echo failing >&2; exit 3' }, ctx);
    assert.equal(textOf(result), 'failing\n[exit code 3]');
    assert.equal(details(result).exitCode, 3);
  });

  test('stdin is empty, so a command waiting for input does not hang', async () => {
    const { ctx } = context();
    const result = await bashTool.execute({ command: 'cat; read line || echo "no input"' }, ctx);
    assert.equal(textOf(result), 'no input\n[exit code 0]');
  });

  test('the model gets text without ANSI; the UI gets the raw stream', async () => {
    const { ctx, updates } = context();
    const result = await bashTool.execute({ command: String.raw`printf '\033[31mred\033[0m\n'` }, ctx);
    assert.equal(textOf(result), 'red\n[exit code 0]');
    const streamed = updates.map((update) => (update.details as UiUpdate).chunk).join('');
    assert.ok(streamed.includes('\x1b[31mred\x1b[0m'), JSON.stringify(streamed));
    assert.deepEqual(updates[0]!.content, [], 'the chunk travels once, in details.chunk');
  });

  test('streamed output is coalesced into a few updates carrying only new output', async () => {
    const { ctx, updates } = context();
    // One process printing a line every 5 ms: about a second of output.
    const script = 'let i = 0; const t = setInterval(() => { console.log(`line ${++i}`); if (i === 200) clearInterval(t); }, 5);';
    const command = `'${process.execPath}' -e '${script}'`;
    const result = await bashTool.execute({ command }, ctx);
    assert.equal(details(result).exitCode, 0);
    // At most one update per interval (plus the first and the final flush), whatever the machine's speed.
    const allowed = Math.ceil(details(result).durationMs / UPDATE_INTERVAL_MS) + 2;
    assert.ok(updates.length >= 1 && updates.length <= allowed, `${updates.length} updates in ${details(result).durationMs} ms`);
    assert.ok(updates.length <= 50, `${updates.length} updates for 200 lines`);
    const streamed = updates.map((update) => (update.details as UiUpdate).chunk).join('');
    const expected = Array.from({ length: 200 }, (_, i) => `line ${i + 1}\r\n`).join('');
    assert.equal(streamed, expected);
    assert.equal((updates.at(-1)!.details as UiUpdate).bytes, details(result).bytes);
  });

  test('long output keeps head and tail with a marker', async () => {
    const { ctx } = context();
    const result = await bashTool.execute({ command: 'seq 1 2000000' }, ctx);
    const text = textOf(result);
    assert.equal(details(result).truncated, true);
    assert.ok(text.length < 31_000, `${text.length} characters`);
    assert.ok(text.startsWith('1\n2\n3\n'));
    assert.ok(text.endsWith('1999999\n2000000\n[exit code 0]'));
    assert.match(text, /\n\[… [\d,]+ characters \([\d,]+ lines\) omitted …\]\n/);
    assert.ok(details(result).bytes > 14_000_000);
  });

  test('a 100 MB output completes with bounded memory and a capped result', async () => {
    // Updates are counted, not kept: what the tool itself holds is measured.
    let largest = 0;
    const ctx: ToolContext = { ...context().ctx, onUpdate: (partial) => (largest = Math.max(largest, (partial.details as UiUpdate).chunk.length)) };
    const baseline = process.memoryUsage().rss;
    let peak = baseline;
    const sampler = setInterval(() => (peak = Math.max(peak, process.memoryUsage().rss)), 20);
    const result = await bashTool.execute({ command: 'yes | head -c 100000000' }, ctx);
    assert.ok(largest > 0 && largest <= UI_BATCH_LIMIT + 100, `an update carried ${largest} characters`);
    clearInterval(sampler);
    assert.equal(details(result).exitCode, 0);
    assert.ok(textOf(result).length < 31_000);
    assert.ok(details(result).bytes >= 100_000_000);
    assert.equal(details(result).truncatedForUi, true);
    assert.ok(peak - baseline < 80 * 1024 * 1024, `rss grew by ${Math.round((peak - baseline) / 1e6)} MB`);
  });

  test('a timeout kills the whole process group and keeps the partial output', async () => {
    const { ctx } = context();
    const started = Date.now();
    const sleep = uniqueSleep();
    const error = await rejection(bashTool.execute({ command: `sleep ${sleep} & echo "bg $!"; sleep ${sleep}`, timeout: 1 }, ctx));
    assert.equal(error.kind, 'failed');
    assert.match(error.message, /timed out after 1 s/);
    assert.match(error.message, /bg \d+/);
    assert.deepEqual(runningWith(sleep), []);
    assert.equal((error.details as BashDetails).timedOut, true);
    assert.equal((error.details as BashDetails).exitCode, null);
    assert.ok(Date.now() - started < 10_000);
  });

  test('cancelling through the signal stops every process of the command', async () => {
    const { ctx, controller, waitForOutput } = context();
    const sleep = uniqueSleep();
    const command = `sleep ${sleep} & echo "first $!"; sleep ${sleep} & echo "second $!"; wait`;
    const running = bashTool.execute({ command }, ctx);
    await waitForOutput(/second \d+/);
    // A forked child shows its new command line only once it has exec'd sleep.
    while (runningWith(sleep).length < 2) await new Promise((resolve) => setTimeout(resolve, 20));
    controller.abort();
    const error = await rejection(running);
    assert.equal(error.kind, 'cancelled');
    assert.deepEqual(runningWith(sleep), []);
  });

  test('a group that ignores SIGTERM is killed after the grace period', async () => {
    const { ctx, controller, waitForOutput } = context();
    const sleep = uniqueSleep();
    const running = bashTool.execute({ command: `trap '' TERM; sleep ${sleep} & echo "child $!"; wait` }, ctx);
    await waitForOutput(/child \d+/);
    while (runningWith(sleep).length < 1) await new Promise((resolve) => setTimeout(resolve, 20));
    controller.abort();
    await rejection(running);
    assert.deepEqual(runningWith(sleep), []);
  });

  test('an already-aborted signal runs nothing', async () => {
    const { ctx, controller } = context();
    controller.abort();
    const error = await rejection(bashTool.execute({ command: `touch ${join(root, 'should-not-exist')}` }, ctx));
    assert.equal(error.kind, 'cancelled');
    assert.throws(() => readFileSync(join(root, 'should-not-exist')));
  });

  test('only allowlisted environment variables reach the command, never the API key', async () => {
    const tool = createBashTool({
      envAllowlist: ['COVE_TEST_ALLOWED', 'ANTHROPIC_API_KEY'],
      environment: {
        PATH: process.env.PATH,
        HOME: '/home/tester',
        COVE_TEST_ALLOWED: 'visible',
        COVE_TEST_SECRET: 'hidden-value',
        ANTHROPIC_API_KEY: 'sk-ant-secret',
      },
    });
    const { ctx } = context();
    const result = await tool.execute({ command: 'env' }, ctx);
    const variables = new Map(
      textOf(result)
        .split('\n')
        .filter((line) => line.includes('='))
        .map((line) => [line.slice(0, line.indexOf('=')), line.slice(line.indexOf('=') + 1)]),
    );
    assert.equal(variables.get('PATH'), process.env.PATH);
    assert.equal(variables.get('HOME'), '/home/tester');
    assert.equal(variables.get('COVE_TEST_ALLOWED'), 'visible');
    assert.equal(variables.get('TERM'), 'xterm-256color');
    assert.equal(variables.get('PWD'), root);
    assert.equal(variables.has('COVE_TEST_SECRET'), false);
    assert.equal(variables.has('ANTHROPIC_API_KEY'), false);
    assert.ok(!textOf(result).includes('sk-ant-secret') && !textOf(result).includes('hidden-value'));
  });

  test('the process environment is filtered by default', async () => {
    process.env.COVE_TEST_SECRET = 'process-secret';
    try {
      const { ctx } = context();
      const result = await bashTool.execute({ command: 'echo "[$COVE_TEST_SECRET]" "[${PATH:+has-path}]"' }, ctx);
      assert.equal(textOf(result), '[] [has-path]\n[exit code 0]');
    } finally {
      delete process.env.COVE_TEST_SECRET;
    }
  });

  test('deny patterns refuse without running anything', async () => {
    const { ctx } = context();
    const marker = join(root, 'ran');
    const tool = createBashTool({ denyPatterns: ['git push --force'] });
    for (const command of [`touch ${marker}; rm -rf /`, `touch ${marker}; git push --force`]) {
      const error = await rejection(tool.execute({ command }, ctx));
      assert.equal(error.kind, 'failed');
      assert.match(error.message, /deny pattern "(rm -rf \/|git push --force)"/);
    }
    assert.throws(() => readFileSync(marker));
  });

  test('arguments are checked', async () => {
    const { ctx } = context();
    assert.equal((await rejection(bashTool.execute({ command: '  ' }, ctx))).kind, 'invalidArgs');
    assert.equal((await rejection(bashTool.execute({ command: 'true', timeout: 0 }, ctx))).kind, 'invalidArgs');
    assert.equal((await rejection(bashTool.execute({ command: 'true', timeout: 601 }, ctx))).kind, 'invalidArgs');
  });
});
