import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { makeEvent, ZERO_USAGE, type CoveEvent } from '../../shared/events';
import type { SessionEvent } from '../../shared/contract';
import { EMPTY_TRANSCRIPT, foldEvents } from '../../renderer/features/transcript/model';
import { overlap, passSeams, settleHeld } from '../../renderer/features/transcript/open-seam';
import type { TranscriptState } from '../../renderer/features/transcript/model-types';
import { terminalText as textOf } from '../../renderer/features/tools/terminal-buffer';

const sessionId = 's1';
const start = makeEvent('agentStart', { sessionId, model: 'm', prompt: 'hi' });
const messageStart = (messageId: string) => makeEvent('messageStart', { sessionId, messageId, role: 'assistant' });
const text = (messageId: string, value: string, index = 0) => makeEvent('messageUpdate', { sessionId, messageId, delta: { type: 'text', index, text: value } });
const messageEnd = (messageId: string, value: string) =>
  makeEvent('messageEnd', { sessionId, messageId, content: [{ type: 'text', text: value }], providerStopReason: 'end_turn', usage: ZERO_USAGE });
const toolStart = (toolCallId: string) => makeEvent('toolExecutionStart', { sessionId, toolCallId, toolName: 'bash', args: { command: 'ls' } });
const chunk = (toolCallId: string, value: string) => makeEvent('toolExecutionUpdate', { sessionId, toolCallId, partialResult: { content: [], details: { chunk: value } } });

/** The stored list as `session:open` answers it: seq added, keys in the store's order. */
function storedList(events: CoveEvent[]): SessionEvent[] {
  return events.map((event, index) => {
    const { type, sessionId: owner, ...fields } = event;
    return { type, sessionId: owner, ...JSON.parse(JSON.stringify(fields)), seq: index + 1 } as SessionEvent;
  });
}

/** What the transcript slice does: stored, then the held events settled, then live ones through the seams. */
function redraw(stored: CoveEvent[], held: CoveEvent[], live: CoveEvent[], streaming = true): TranscriptState {
  const list = storedList(stored);
  let state = foldEvents(EMPTY_TRANSCRIPT, list, 0);
  const settled = settleHeld(list, held, streaming);
  state = foldEvents(state, settled.events, 0);
  let seams = settled.seams;
  for (const event of live) {
    const passed = passSeams(seams, [event]);
    seams = passed.seams;
    state = foldEvents(state, passed.events, 0);
  }
  return state;
}

function replyText(state: TranscriptState): string {
  return state.items.flatMap((item) => (item.kind === 'assistant' ? item.parts.map((part) => (part?.kind === 'text' ? part.text : '')) : [])).join('|');
}

function terminalText(state: TranscriptState): string {
  return state.items.flatMap((item) => (item.kind === 'tool' ? [item.terminal ? textOf(item.terminal) : ''] : [])).join('|');
}

describe('where session:open meets the live stream', () => {
  // Deltas "Hel" "lo " "wor" "ld!" " Bye", sent live merged per frame as "Hello ", "world!", " Bye".
  test('the streaming block: stored up to "wor", "Hello " held, "world!" after the answer → each character once', () => {
    const stored = [start, messageStart('m1'), text('m1', 'Hel'), text('m1', 'lo '), text('m1', 'wor')];
    const held = [text('m1', 'Hello ')];
    const state = redraw(stored, held, [text('m1', 'world!'), text('m1', ' Bye')]);
    assert.equal(replyText(state), 'Hello world! Bye');
  });

  test('before the first chunk after the answer, nothing beyond the stored text is guessed', () => {
    const stored = [start, messageStart('m1'), text('m1', 'Hello wor')];
    const state = redraw(stored, [text('m1', 'Hello ')], []);
    assert.equal(replyText(state), 'Hello wor');
  });

  test('a chunk after the answer that the stored text already ends with adds nothing, and what follows is added whole', () => {
    const stored = [start, messageStart('m1'), text('m1', 'Hello world!')];
    const state = redraw(stored, [text('m1', 'Hello ')], [text('m1', 'world!'), text('m1', ' Bye')]);
    assert.equal(replyText(state), 'Hello world! Bye');
  });

  test('a chunk after the answer with no overlap is added whole', () => {
    const stored = [start, messageStart('m1'), text('m1', 'Hello ')];
    const state = redraw(stored, [], [text('m1', 'world!')]);
    assert.equal(replyText(state), 'Hello world!');
  });

  test('the stream moving on (a tool starts) settles the block with what it has', () => {
    const stored = [start, messageStart('m1'), text('m1', 'Hel')];
    const state = redraw(stored, [text('m1', 'Hello')], [toolStart('t1')]);
    assert.equal(replyText(state), 'Hello');
    assert.equal(state.items.filter((item) => item.kind === 'tool').length, 1);
  });

  test('a second block of the same message settles the first and is added whole', () => {
    const stored = [start, messageStart('m1'), text('m1', 'Thinking done')];
    const state = redraw(stored, [text('m1', 'done')], [text('m1', 'Next', 1)]);
    assert.equal(replyText(state), 'Thinking done|Next');
  });

  test('a message the stored list already ended keeps its text: held deltas of it are dropped', () => {
    const stored = [start, messageStart('m1'), text('m1', 'All of it'), messageEnd('m1', 'All of it')];
    const state = redraw(stored, [text('m1', 'of it')], []);
    assert.equal(replyText(state), 'All of it');
  });

  test('a messageEnd while a block is held back gives the whole text', () => {
    const stored = [start, messageStart('m1'), text('m1', 'Hel')];
    const state = redraw(stored, [text('m1', 'Hello')], [messageEnd('m1', 'Hello there')]);
    assert.equal(replyText(state), 'Hello there');
  });

  test('held events the stored list ends with are dropped, the rest applied in order (terminal output once)', () => {
    const stored = [start, toolStart('t1'), chunk('t1', 'one\n'), chunk('t1', 'two\n')];
    const held = [chunk('t1', 'two\n'), chunk('t1', 'three\n')];
    const state = redraw(stored, held, [chunk('t1', 'four\n')]);
    assert.equal(terminalText(state), 'one\ntwo\nthree\nfour\n');
  });

  test('a held event equal to an earlier stored one, but not to the stored list’s end, is applied', () => {
    const stored = [start, toolStart('t1'), chunk('t1', 'tick\n'), chunk('t1', 'tock\n')];
    const state = redraw(stored, [chunk('t1', 'tick\n')], []);
    assert.equal(terminalText(state), 'tick\ntock\ntick\n');
  });

  test('a session that is not running opens no seam: live deltas of an unended message are applied', () => {
    const stored = [start, messageStart('m1'), text('m1', 'Partial')];
    const settled = settleHeld(storedList(stored), [], false);
    assert.deepEqual(settled.seams, []);
  });

  test('events of a subagent pass the seams untouched', () => {
    const stored = storedList([start, messageStart('m1'), text('m1', 'Hi')]);
    const { seams } = settleHeld(stored, [], true);
    const child = { ...text('c1', 'child'), subagentId: 'a1' };
    const passed = passSeams(seams, [child]);
    assert.deepEqual(passed.events, [child]);
    assert.equal(passed.seams.length, 1, 'the main block is still held open');
  });

  test('overlap: the longest start of the live text the stored text ends with', () => {
    assert.equal(overlap('Hello wor', 'world!'), 3);
    assert.equal(overlap('Hello ', 'world'), 0);
    assert.equal(overlap('abcabc', 'abcabcd'), 6);
    assert.equal(overlap('', 'x'), 0);
  });
});
