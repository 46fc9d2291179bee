import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { snippetSegments } from '../../renderer/features/sessions/snippet';
import { pendingCounts, waitingSessions } from '../../renderer/features/sessions/sorted-sessions';
import { actionForKey } from '../../renderer/features/permissions/permission-keys';
import { createBatcher } from '../../renderer/store/event-batcher';
import { diffLines, diffStats } from '../../renderer/features/tools/diff-lines';
import { inlineResult, toolLabel, toolSummary } from '../../renderer/features/tools/tool-summary';
import { mcpStateLabel, STDERR_SHOWN_CHARACTERS, stderrShown } from '../../renderer/features/settings/mcp-display';
import { sessionSummary } from './helpers/session-summary';
import type { PermissionRequestEvent } from '../../shared/events';

const session = sessionSummary;

describe('renderer helpers', () => {
  test('search snippets: «…» marks become highlighted segments', () => {
    assert.deepEqual(snippetSegments('why does «npm» «test» fail'), [
      { text: 'why does ', match: false },
      { text: 'npm', match: true },
      { text: ' ', match: false },
      { text: 'test', match: true },
      { text: ' fail', match: false },
    ]);
    assert.deepEqual(snippetSegments('no marks «unclosed'), [{ text: 'no marks «unclosed', match: false }]);
  });

  test('waiting sessions: from status or prompts, never the open one, newest first', () => {
    const sessions = {
      a: session('a', { status: 'waiting', updatedAt: 1 }),
      b: session('b', { status: 'running', updatedAt: 3 }),
      c: session('c', { status: 'running', updatedAt: 2 }),
    };
    const request: PermissionRequestEvent = {
      type: 'permissionRequest',
      sessionId: 'b',
      requestId: 'r',
      toolCallId: 't',
      toolName: 'bash',
      args: {},
      sensitivity: 'mutating',
      reasons: [],
      suggestedRule: null,
    };
    const counts = pendingCounts(sessions, { r: request });
    assert.deepEqual(counts, { a: 0, b: 1, c: 0 });
    assert.deepEqual(
      waitingSessions(sessions, counts, null).map((entry) => entry.id),
      ['b', 'a'],
    );
    assert.deepEqual(
      waitingSessions(sessions, counts, 'b').map((entry) => entry.id),
      ['a'],
    );
  });

  test('permission keys', () => {
    assert.deepEqual(['y', 'Y', 'Enter', 's', 'A', 'n', 'Escape', 'x'].map(actionForKey), ['once', 'once', 'once', 'session', 'always', 'deny', 'deny', null]);
  });

  test('the batcher hands over one batch per scheduled tick, in order', () => {
    const ticks: (() => void)[] = [];
    const batches: number[][] = [];
    const { push } = createBatcher<number>(
      (items) => batches.push(items),
      (run) => ticks.push(run),
    );
    push(1);
    push(2);
    push(3);
    assert.equal(ticks.length, 1, 'one tick scheduled for a burst');
    ticks.shift()!();
    push(4);
    ticks.shift()!();
    assert.deepEqual(batches, [[1, 2, 3], [4]]);
  });

  test('the batcher hands over what is queued at once on flush; the pending tick takes what comes after', () => {
    const ticks: (() => void)[] = [];
    const batches: number[][] = [];
    const { push, flush } = createBatcher<number>(
      (items) => batches.push(items),
      (run) => ticks.push(run),
    );
    push(1);
    flush();
    assert.deepEqual(batches, [[1]]);
    push(2);
    assert.equal(ticks.length, 1, 'no second tick while one is pending');
    ticks.shift()!();
    flush();
    assert.deepEqual(batches, [[1], [2]], 'nothing is handed over twice, and an empty flush hands over nothing');
  });

  test('diff lines are classified, headers are not counted as changes', () => {
    const lines = diffLines('--- a/x\n+++ b/x\n@@ -1 +1 @@\n-old\n+new\n same\n');
    assert.deepEqual(
      lines.map((line) => line.kind),
      ['header', 'header', 'hunk', 'removed', 'added', 'context'],
    );
    assert.deepEqual(diffStats(lines), { added: 1, removed: 1 });
  });

  test('a card shows the summary core sent, on one line; older events fall back to the first text argument', () => {
    assert.equal(toolSummary('npm   test\n--watch', { command: 'ignored' }), 'npm test --watch');
    assert.equal(toolSummary('', { command: 'not shown' }), '', 'an empty summary sent is kept');
    assert.equal(toolSummary(undefined, { title: 'Bug', n: 1 }), 'Bug');
    assert.equal(toolSummary(undefined, null), '');
    assert.equal(toolSummary('x'.repeat(200), {}).length, 160);
    assert.equal(toolLabel('bash', 'Run Command'), 'Run Command');
    assert.equal(toolLabel('mcp__github__create_issue'), 'github › create_issue');
  });

  test('a one-line result shows in the card; anything longer stays behind Show output', () => {
    assert.equal(inlineResult([{ type: 'text', text: 'Wrote hello.txt (16 bytes)\n' }]), 'Wrote hello.txt (16 bytes)');
    assert.equal(inlineResult([{ type: 'text', text: 'line one\nline two' }]), null);
    assert.equal(inlineResult([{ type: 'text', text: 'x'.repeat(161) }]), null);
    assert.equal(inlineResult([{ type: 'text', text: 'ok' }, { type: 'image' }]), null);
    assert.equal(inlineResult([{ type: 'text', text: '  ' }]), null);
    assert.equal(inlineResult([]), null);
  });

  test('MCP states read as words; a project server waiting for approval reads "Not started"', () => {
    assert.equal(mcpStateLabel({ state: 'connected' }).label, 'Connected');
    assert.equal(mcpStateLabel({ state: 'restarting', error: 'exited' }).label, 'Restarting…');
    const waiting =
      '/w/.mcp.json: MCP server "x": not started: project MCP servers run commands from the repository; approve it by adding "x" to enabledMcpjsonServers in /w/.cove/settings.local.json';
    assert.deepEqual(mcpStateLabel({ state: 'failed', error: waiting }).label, 'Not started');
    assert.equal(mcpStateLabel({ state: 'failed', error: 'spawn nope ENOENT' }).label, 'Failed');
    assert.equal(mcpStateLabel({ state: 'failed', error: 'the server said it has not started: yet' }).label, 'Failed', 'only the phrase at a field start counts');
  });

  test('the stderr shown is the end of the tail, bounded and cut at a line start', () => {
    assert.equal(stderrShown('ready\n\n'), 'ready');
    const lines = Array.from({ length: 2000 }, (_, index) => `line ${index}`).join('\n');
    const shown = stderrShown(lines);
    assert.ok(shown.length <= STDERR_SHOWN_CHARACTERS + 2, `shown ${shown.length} characters`);
    assert.ok(shown.startsWith('…\nline '), 'starts at a whole line');
    assert.ok(shown.endsWith('line 1999'));
  });
});
