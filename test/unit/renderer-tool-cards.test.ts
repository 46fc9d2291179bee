import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { makeEvent, ZERO_USAGE, type CoveEvent, type Sensitivity, type ToolKind, type ToolResultPayload } from '../../shared/events';
import { EMPTY_TRANSCRIPT, foldEvents } from '../../renderer/features/transcript/model';
import type { ToolItem, TranscriptItem } from '../../renderer/features/transcript/model-types';
import { groupOutcome, groupSummary, groupToolCalls, type ToolGroupRow } from '../../renderer/features/tools/tool-groups';
import { callOutcome } from '../../renderer/features/tools/tool-outcome';
import { parseNumberedFile, stripMarkers } from '../../renderer/features/tools/tool-markers';
import { describeArguments, editDiff } from '../../renderer/features/tools/tool-arguments';

const sessionId = 's1';

interface Call {
  id: string;
  name: string;
  label: string;
  kind: ToolKind;
  sensitivity: Sensitivity;
  args?: unknown;
  result?: ToolResultPayload;
  isError?: boolean;
}

function callEvents(call: Call): CoveEvent[] {
  const events: CoveEvent[] = [
    makeEvent('toolExecutionStart', {
      sessionId,
      toolCallId: call.id,
      toolName: call.name,
      args: call.args ?? {},
      sensitivity: call.sensitivity,
      label: call.label,
      summary: call.id,
      kind: call.kind,
    }),
  ];
  if (call.result) events.push(makeEvent('toolExecutionEnd', { sessionId, toolCallId: call.id, toolName: call.name, result: call.result, isError: call.isError ?? false }));
  return events;
}

const ok: ToolResultPayload = { content: [{ type: 'text', text: 'fine' }] };
const read = (id: string, result: ToolResultPayload | undefined = ok): Call => ({
  id,
  name: 'read_file',
  label: 'Read file',
  kind: 'read',
  sensitivity: 'readOnly',
  args: { path: `${id}.ts` },
  result,
});
const search = (id: string): Call => ({ id, name: 'search', label: 'Search', kind: 'search', sensitivity: 'readOnly', result: ok });
const list = (id: string): Call => ({ id, name: 'list_files', label: 'List files', kind: 'read', sensitivity: 'readOnly', result: ok });
const bash = (id: string, exitCode: number | null, extra: Record<string, unknown> = {}): Call => ({
  id,
  name: 'bash',
  label: 'Run Command',
  kind: 'execute',
  sensitivity: 'dangerous',
  args: { command: 'npm test' },
  result: { content: [{ type: 'text', text: `boom\n[exit code ${exitCode}]` }], details: { exitCode, timedOut: false, durationMs: 20, ...extra } },
});
const write = (id: string): Call => ({ id, name: 'write_file', label: 'Write file', kind: 'edit', sensitivity: 'mutating', result: ok });

function messageWithOnlyCalls(messageId: string): CoveEvent[] {
  return [
    makeEvent('messageStart', { sessionId, messageId, role: 'assistant' }),
    makeEvent('messageEnd', { sessionId, messageId, content: [{ type: 'tool_use', id: 'x', name: 'read_file', input: {} }], providerStopReason: 'tool_use', usage: ZERO_USAGE }),
  ];
}

function reply(messageId: string, text: string): CoveEvent[] {
  return [
    makeEvent('messageStart', { sessionId, messageId, role: 'assistant' }),
    makeEvent('messageEnd', { sessionId, messageId, content: [{ type: 'text', text }], providerStopReason: 'end_turn', usage: ZERO_USAGE }),
  ];
}

function items(events: CoveEvent[]): TranscriptItem[] {
  return foldEvents(EMPTY_TRANSCRIPT, events, 1000).items;
}

function tool(events: CoveEvent[]): ToolItem {
  return items(events).find((item): item is ToolItem => item.kind === 'tool')!;
}

function shape(rows: ReturnType<typeof groupToolCalls>): string[] {
  return rows.map((row) => (row.kind === 'toolGroup' ? `group(${row.tools.map((call) => call.toolCallId).join(',')})` : row.kind === 'tool' ? row.toolCallId : row.kind));
}

describe('grouping read-only calls', () => {
  test('consecutive read-only calls, across messages that only carried the calls, become one group', () => {
    const events = [
      ...reply('m0', 'Let me look.'),
      ...callEvents(read('r1')),
      ...messageWithOnlyCalls('m1'),
      ...callEvents(read('r2')),
      ...callEvents(search('s1')),
      ...callEvents(list('l1')),
    ];
    const rows = groupToolCalls(items(events));
    assert.deepEqual(shape(rows), ['assistant', 'group(r1,r2,s1,l1)']);
    const group = rows[1] as ToolGroupRow;
    assert.equal(group.key, 'tool:r1', 'the group keeps its first card’s key');
    assert.equal(groupSummary(group.tools), 'Read 2 files, 1 search, listed 1 folder');
  });

  test('a mutating or executing call, or visible text, ends a group; a lone read stays a card', () => {
    const events = [
      ...callEvents(read('r1')),
      ...callEvents(read('r2')),
      ...callEvents(write('w1')),
      ...callEvents(read('r3')),
      ...reply('m1', 'Found it.'),
      ...callEvents(read('r4')),
      ...callEvents(bash('b1', 0)),
      ...callEvents(read('r5')),
    ];
    assert.deepEqual(shape(groupToolCalls(items(events))), ['group(r1,r2)', 'w1', 'r3', 'assistant', 'r4', 'b1', 'r5']);
  });

  test('an empty message after the last read stays out of the group', () => {
    const events = [...callEvents(read('r1')), ...callEvents(read('r2')), ...messageWithOnlyCalls('m1'), ...callEvents(write('w1'))];
    assert.deepEqual(shape(groupToolCalls(items(events))), ['group(r1,r2)', 'assistant', 'w1']);
  });

  test('a denied read is not hidden in a group', () => {
    const denied = read('r2', { content: [{ type: 'text', text: 'Tool call denied: no' }], errorKind: 'denied' });
    const events = [...callEvents(read('r1')), ...callEvents({ ...denied, isError: true }), ...callEvents(read('r3'))];
    assert.deepEqual(shape(groupToolCalls(items(events))), ['r1', 'r2', 'r3']);
  });

  test('a group of the same calls is the same object; a changed call makes a new one', () => {
    const first = items([...callEvents(read('r1')), ...callEvents({ ...read('r2'), result: undefined })]);
    const rows = groupToolCalls(first);
    const previous = new Map([[rows[0]!.key, rows[0] as ToolGroupRow]]);
    assert.equal(groupToolCalls(first.slice(), previous)[0], rows[0]);
    const finished = foldEvents(
      { ...EMPTY_TRANSCRIPT, items: first },
      [makeEvent('toolExecutionEnd', { sessionId, toolCallId: 'r2', toolName: 'read_file', result: ok, isError: false })],
      1000,
    ).items;
    const again = groupToolCalls(finished, previous)[0] as ToolGroupRow;
    assert.notEqual(again, rows[0]);
    assert.deepEqual(groupOutcome((rows[0] as ToolGroupRow).tools), { running: true, failed: 0 });
    assert.deepEqual(groupOutcome(again.tools), { running: false, failed: 0 });
  });

  test('a failed read counts as failed in its group', () => {
    const missing = read('r2', { content: [{ type: 'text', text: 'r2.ts does not exist' }], errorKind: 'notFound' });
    const rows = groupToolCalls(items([...callEvents(read('r1')), ...callEvents({ ...missing, isError: true })]));
    assert.deepEqual(groupOutcome((rows[0] as ToolGroupRow).tools), { running: false, failed: 1 });
  });

  test('tools of other kinds are counted by their label', () => {
    const fetchCall: Call = { id: 'f1', name: 'web_fetch', label: 'Fetch page', kind: 'fetch', sensitivity: 'readOnly', result: ok };
    const mcp: Call = { id: 'x1', name: 'mcp__docs__lookup', label: '', kind: 'other', sensitivity: 'readOnly', result: ok };
    const rows = groupToolCalls(items([...callEvents(fetchCall), ...callEvents(mcp), ...callEvents({ ...mcp, id: 'x2' })]));
    assert.equal(groupSummary((rows[0] as ToolGroupRow).tools), 'Fetched 1 page, docs › lookup ×2');
  });
});

describe('the state a finished call shows', () => {
  test('a command that exits non-zero has failed, though its result is not an error', () => {
    const item = tool(callEvents(bash('b1', 2)));
    assert.equal(item.isError, false, 'bash reports a non-zero exit as a result');
    assert.deepEqual(callOutcome(item), { tone: 'failed', label: 'Failed (exit 2)' });
  });

  test('exit 0 is done; a timeout and a signal fail; an error result fails; denial and cancellation say so', () => {
    assert.deepEqual(callOutcome(tool(callEvents(bash('b1', 0)))), { tone: 'done', label: 'Done' });
    assert.equal(callOutcome(tool(callEvents(bash('b1', null, { timedOut: true })))).label, 'Failed (timed out)');
    assert.equal(callOutcome(tool(callEvents(bash('b1', null, { signal: 9 })))).label, 'Failed (killed by signal 9)');
    const missing = { ...read('r1', { content: [{ type: 'text', text: 'nope' }], errorKind: 'notFound' }), isError: true };
    assert.deepEqual(callOutcome(tool(callEvents(missing))), { tone: 'failed', label: 'Failed' });
    const denied = { ...read('r1', { content: [{ type: 'text', text: 'Tool call denied' }], errorKind: 'denied' }), isError: true };
    assert.equal(callOutcome(tool(callEvents(denied))).label, 'Denied');
    const cancelled = { ...bash('b1', null), result: { content: [{ type: 'text' as const, text: 'stopped' }], errorKind: 'cancelled' as const, details: { exitCode: null } }, isError: true };
    assert.equal(callOutcome(tool(callEvents(cancelled))).label, 'Cancelled');
    assert.equal(callOutcome(tool(callEvents({ ...read('r1'), result: undefined }))).label, 'Running');
  });
});

describe('markers people never see', () => {
  test('file tags, "Tag:" sentences, exit trailers and paging hints go; the facts stay', () => {
    assert.equal(stripMarkers('Created hello.txt (1 line). Tag: [hello.txt#abc123]'), 'Created hello.txt (1 line).');
    assert.equal(stripMarkers('Edited src/calc.js: 2 operations (+1 −1); now [src/calc.js#yyqsy5]'), 'Edited src/calc.js: 2 operations (+1 −1); now src/calc.js');
    assert.equal(stripMarkers('ok\n[exit code 2]'), 'ok');
    assert.equal(stripMarkers('… 120 more lines; call read_file with offset=201 to continue'), '… 120 more lines');
    assert.equal(stripMarkers('an array [a#b] and [x#TOOLONG1] stay'), 'an array [a#b] and [x#TOOLONG1] stay');
  });

  test('a read_file page becomes a path, its first line number and its lines', () => {
    const page = '[src/calc.js#yyqsy5]\n 9│const a = 1;\n10│// 12│ not a gutter\n… 5 more lines; call read_file with offset=11 to continue';
    assert.deepEqual(parseNumberedFile(page), { path: 'src/calc.js', firstLine: 9, lines: ['const a = 1;', '// 12│ not a gutter'], note: '… 5 more lines' });
    assert.equal(parseNumberedFile('[a.txt#abc123]\n(empty file)'), null);
    assert.equal(parseNumberedFile('plain output'), null);
  });
});

describe('arguments as a person reads them', () => {
  test('a command is a command, other values a list', () => {
    assert.deepEqual(describeArguments({ command: 'npm test\nnpm run lint', timeout: 30 }, 'execute'), [
      { type: 'command', name: 'command', text: 'npm test\nnpm run lint' },
      { type: 'value', name: 'timeout', text: '30', block: false },
    ]);
  });

  test('an edit is a path and a diff of its old and new text', () => {
    const views = describeArguments({ path: 'src/a.ts', old_text: 'let x = 1;', new_text: 'let x = 2;\nlet y = 3;' }, 'edit');
    assert.deepEqual(views, [{ type: 'diff', path: 'src/a.ts', oldText: 'let x = 1;', newText: 'let x = 2;\nlet y = 3;' }]);
    assert.equal(editDiff('src/a.ts', 'let x = 1;', 'let x = 2;\nlet y = 3;'), '--- a/src/a.ts\n+++ b/src/a.ts\n@@ -1,1 +1,2 @@\n-let x = 1;\n+let x = 2;\n+let y = 3;\n');
  });

  test('a written file is its path and its content; a read is a path and a range', () => {
    assert.deepEqual(describeArguments({ path: 'a.py', content: 'print(1)\n' }, 'edit'), [
      { type: 'path', name: 'path', path: 'a.py' },
      { type: 'file', path: 'a.py', text: 'print(1)\n' },
    ]);
    assert.deepEqual(describeArguments({ path: 'a.py', offset: 10, limit: 20 }, 'read'), [
      { type: 'path', name: 'path', path: 'a.py' },
      { type: 'value', name: 'offset', text: '10', block: false },
      { type: 'value', name: 'limit', text: '20', block: false },
    ]);
  });

  test('a search is its pattern and the folder it searched', () => {
    assert.deepEqual(describeArguments({ pattern: 'TODO\\b', path: 'src', case_sensitive: true }, 'search'), [
      { type: 'path', name: 'in', path: 'src' },
      { type: 'pattern', name: 'pattern', text: 'TODO\\b' },
      { type: 'value', name: 'case sensitive', text: 'true', block: false },
    ]);
  });

  test('an unknown tool’s arguments are names and values, multi-line and nested ones as blocks, markers out', () => {
    assert.deepEqual(describeArguments({ issueTitle: 'Crash', body: 'line 1\nline 2', labels: ['bug'], patch: '[src/a.js#abc123]\n= 3 x' }, 'other'), [
      { type: 'value', name: 'issue title', text: 'Crash', block: false },
      { type: 'value', name: 'body', text: 'line 1\nline 2', block: true },
      { type: 'value', name: 'labels', text: '[\n  "bug"\n]', block: true },
      { type: 'value', name: 'patch', text: 'src/a.js\n= 3 x', block: true },
    ]);
    assert.deepEqual(describeArguments('just text', undefined), [{ type: 'value', name: 'input', text: 'just text', block: false }]);
    assert.deepEqual(describeArguments(undefined, undefined), []);
  });
});
