import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { snippetSegments } from '../../renderer/features/sessions/snippet';
import { pendingCounts, waitingSessions } from '../../renderer/features/sessions/sorted-sessions';
import { actionForKey } from '../../renderer/features/permissions/permission-keys';
import { createBatcher } from '../../renderer/store/event-batcher';
import { diffLines, diffStats } from '../../renderer/features/tools/diff-lines';
import { toolSummary } from '../../renderer/features/tools/tool-summary';
import type { SessionSummary } from '../../shared/contract';
import type { PermissionRequestEvent } from '../../shared/events';

function session(id: string, fields: Partial<SessionSummary> = {}): SessionSummary {
  return {
    id,
    title: id,
    workspaces: ['/w'],
    model: 'm',
    permissionMode: 'default',
    status: 'done',
    createdAt: 0,
    updatedAt: 0,
    usage: { input: 0, output: 0, cacheRead: 0, cacheWrite: 0 },
    costUsd: 0,
    pendingPermissions: 0,
    lastError: null,
    persona: null,
    ...fields,
  };
}

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
    const request: PermissionRequestEvent = { type: 'permissionRequest', sessionId: 'b', requestId: 'r', toolCallId: 't', toolName: 'bash', args: {}, sensitivity: 'mutating', reasons: [], suggestedRule: null };
    const counts = pendingCounts(sessions, { r: request });
    assert.deepEqual(counts, { a: 0, b: 1, c: 0 });
    assert.deepEqual(waitingSessions(sessions, counts, null).map((entry) => entry.id), ['b', 'a']);
    assert.deepEqual(waitingSessions(sessions, counts, 'b').map((entry) => entry.id), ['a']);
  });

  test('permission keys', () => {
    assert.deepEqual(['y', 'Y', 'Enter', 's', 'A', 'n', 'Escape', 'x'].map(actionForKey), ['once', 'once', 'once', 'session', 'always', 'deny', 'deny', null]);
  });

  test('the batcher hands over one batch per scheduled tick, in order', () => {
    const ticks: (() => void)[] = [];
    const batches: number[][] = [];
    const push = createBatcher<number>((items) => batches.push(items), (run) => ticks.push(run));
    push(1);
    push(2);
    push(3);
    assert.equal(ticks.length, 1, 'one tick scheduled for a burst');
    ticks.shift()!();
    push(4);
    ticks.shift()!();
    assert.deepEqual(batches, [[1, 2, 3], [4]]);
  });

  test('diff lines are classified, headers are not counted as changes', () => {
    const lines = diffLines('--- a/x\n+++ b/x\n@@ -1 +1 @@\n-old\n+new\n same\n');
    assert.deepEqual(lines.map((line) => line.kind), ['header', 'header', 'hunk', 'removed', 'added', 'context']);
    assert.deepEqual(diffStats(lines), { added: 1, removed: 1 });
  });

  test('tool summaries name what a call acts on', () => {
    assert.equal(toolSummary('bash', { command: 'npm   test\n--watch' }), 'npm test --watch');
    assert.equal(toolSummary('search', { pattern: 'TODO', path: 'src' }), 'TODO in src');
    assert.equal(toolSummary('hashline_edit', { patch: '[src/a.ts#AB12]\nreplace 3: x\n[src/b.ts#CD34]\ndelete 4' }), 'src/a.ts, src/b.ts');
    assert.equal(toolSummary('mcp__github__create_issue', { title: 'Bug' }), 'Bug');
    assert.equal(toolSummary('bash', null), '');
  });
});
