/**
 * A bash call's terminal redrawn from the store equals what the live view ended with, for a
 * flood whose later updates are live-only; sessions stored before the chunk travelled once still
 * redraw each chunk once.
 */
import { after, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, realpathSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { makeEvent, type CoveEvent } from '../../shared/events';
import { MemorySnapshotStore, NO_SECRETS, type ToolResult } from '../../electron/core/agent/types';
import { bashTool } from '../../electron/core/tools/bash';
import { UI_STORED_LIMIT } from '../../electron/core/tools/bash-output';
import { isLiveOnly } from '../../electron/core/sessions/live-only';
import { EMPTY_TRANSCRIPT, foldEvents } from '../../renderer/features/transcript/model';
import type { ToolItem } from '../../renderer/features/transcript/model-types';
import { terminalText } from '../../renderer/features/tools/terminal-buffer';

const sessionId = 's1';
const toolCallId = 't1';
const workspace = realpathSync(mkdtempSync(join(tmpdir(), 'cove-redraw-')));
after(() => rmSync(workspace, { recursive: true, force: true }));

function terminalOf(events: CoveEvent[]): string {
  const item = foldEvents(EMPTY_TRANSCRIPT, events, 0).items.find((entry): entry is ToolItem => entry.kind === 'tool');
  assert.ok(item?.terminal, 'the call has a terminal');
  return terminalText(item.terminal);
}

async function bashEvents(command: string): Promise<CoveEvent[]> {
  const updates: ToolResult[] = [];
  const result = await bashTool.execute(
    { command },
    {
      toolCallId,
      toolName: 'bash',
      signal: new AbortController().signal,
      onUpdate: (partial) => updates.push(partial),
      onProgress: () => {},
      workspaceRoots: [workspace],
      secrets: NO_SECRETS,
      sessionId,
      cwd: workspace,
      snapshots: new MemorySnapshotStore(),
    },
  );
  return [
    makeEvent('toolExecutionStart', { sessionId, toolCallId, toolName: 'bash', args: { command }, sensitivity: 'mutating' }),
    ...updates.map((partialResult) => makeEvent('toolExecutionUpdate', { sessionId, toolCallId, partialResult })),
    makeEvent('toolExecutionEnd', { sessionId, toolCallId, toolName: 'bash', result: result, isError: false }),
  ];
}

describe('bash terminal redraw', () => {
  test('a flood: the store keeps a bounded copy, and its redraw ends as the live view did', async () => {
    // A flood that lasts: 60 bursts of 10,000 lines, so the updates outgrow what the store keeps.
    const events = await bashEvents('for i in $(seq 1 60); do seq $((i * 10000)) $((i * 10000 + 9999)); sleep 0.05; done');
    const stored = events.filter((event) => !isLiveOnly(event));
    assert.ok(stored.length < events.length, 'some updates were live-only');
    const storedChunks = stored.flatMap((event) => (event.type === 'toolExecutionUpdate' ? [(event.partialResult.details as { chunk: string }).chunk] : []));
    const storedChars = storedChunks.join('').length;
    assert.ok(storedChars < UI_STORED_LIMIT + 64 * 1024, `the store kept ${storedChars} characters of chunks`);
    const live = terminalOf(events);
    assert.equal(terminalOf(stored), live);
    assert.match(live, /\n609998\n609999\n$/, 'the last line shows');
    assert.match(live, /characters not shown here/, 'what is left out is marked');
  });

  test('a short output is stored whole and has no tail', async () => {
    const events = await bashEvents('seq 1 1000');
    assert.ok(events.every((event) => !isLiveOnly(event)));
    assert.equal(terminalOf(events), Array.from({ length: 1000 }, (_, i) => `${i + 1}\n`).join(''));
    const end = events.at(-1)!;
    assert.ok(end.type === 'toolExecutionEnd' && !('uiTail' in (end.result.details as object)));
  });

  test('a session stored with the chunk both as text and in details redraws it once', () => {
    const chunk = 'one\r\ntwo\r\n';
    const events = [
      makeEvent('toolExecutionStart', { sessionId, toolCallId, toolName: 'bash', args: { command: 'x' }, sensitivity: 'mutating' }),
      makeEvent('toolExecutionUpdate', { sessionId, toolCallId, partialResult: { content: [{ type: 'text', text: chunk }], details: { chunk, bytes: 10, elapsedMs: 1 } } }),
      makeEvent('toolExecutionEnd', {
        sessionId,
        toolCallId,
        toolName: 'bash',
        result: { content: [{ type: 'text', text: 'one\ntwo\n[exit code 0]' }], details: { exitCode: 0 } },
        isError: false,
      }),
    ];
    assert.equal(terminalOf(events), 'one\ntwo\n');
  });
});
