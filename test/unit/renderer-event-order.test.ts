import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import type { SessionEvent } from '../../shared/contract';
import { makeEvent, ZERO_USAGE, type CoveEvent } from '../../shared/events';
import { admit, filled, opened, UNOPENED, type EventOrder } from '../../renderer/features/transcript/event-order';
import { EMPTY_TRANSCRIPT, foldEvents } from '../../renderer/features/transcript/model';
import type { TranscriptState } from '../../renderer/features/transcript/model-types';

const sessionId = 's1';

/** A run with streamed text, a tool with output, a steering message and an end, numbered 1…n. */
function session(): SessionEvent[] {
  const events: CoveEvent[] = [
    makeEvent('userMessage', { sessionId, text: 'fix it', steered: false }),
    makeEvent('agentStart', { sessionId, model: 'm', prompt: 'fix it' }),
    makeEvent('messageStart', { sessionId, messageId: 'm1', role: 'assistant' }),
    makeEvent('messageUpdate', { sessionId, messageId: 'm1', delta: { type: 'text', index: 0, text: 'Look' } }),
    makeEvent('messageUpdate', { sessionId, messageId: 'm1', delta: { type: 'text', index: 0, text: 'ing.' } }),
    makeEvent('toolExecutionStart', { sessionId, toolCallId: 't1', toolName: 'bash', args: { command: 'ls' } }),
    makeEvent('toolExecutionUpdate', { sessionId, toolCallId: 't1', partialResult: { content: [], details: { chunk: 'a\r\n' } } }),
    makeEvent('userMessage', { sessionId, text: 'also the docs', steered: true }),
    makeEvent('toolExecutionUpdate', { sessionId, toolCallId: 't1', partialResult: { content: [], details: { chunk: 'b\r\n' } } }),
    makeEvent('toolExecutionEnd', { sessionId, toolCallId: 't1', toolName: 'bash', result: { content: [{ type: 'text', text: 'a\nb' }] }, isError: false }),
    makeEvent('messageStart', { sessionId, messageId: 'm2', role: 'assistant' }),
    makeEvent('messageUpdate', { sessionId, messageId: 'm2', delta: { type: 'text', index: 0, text: 'Done' } }),
    makeEvent('agentEnd', { sessionId, stopReason: 'endTurn', usage: ZERO_USAGE, cost: null }),
  ];
  return events.map((event, index) => ({ ...event, seq: index + 1 }));
}

/** Folds what `admit` releases, frame by frame, as the store does. */
function follow(order: EventOrder, frames: SessionEvent[][]): { order: EventOrder; state: TranscriptState; missing: ReturnType<typeof admit>['missing'] } {
  let state = EMPTY_TRANSCRIPT;
  let missing: ReturnType<typeof admit>['missing'] = null;
  for (const frame of frames) {
    const admitted = admit(order, frame);
    order = admitted.order;
    missing = admitted.missing;
    state = foldEvents(state, admitted.ready, 0);
  }
  return { order, state, missing };
}

const reference = () => foldEvents(EMPTY_TRANSCRIPT, session(), 0);

describe('events put in order by seq', () => {
  test('duplicated and reordered events draw the same transcript as the log in order, steering included', () => {
    const log = session();
    const frames = [[log[2]!, log[0]!, log[1]!], [log[0]!, log[1]!], [log[4]!, log[3]!, log[3]!], log.slice(6, 10).reverse(), [log[5]!], log.slice(10), log];
    const { state, order, missing } = follow({ last: 0, ahead: [] }, frames);
    assert.equal(missing, null);
    assert.equal(order.last, log.length);
    assert.deepEqual(state.items, reference().items);
    const users = state.items.flatMap((item) => (item.kind === 'user' ? [`${item.text}${item.steered ? ' (steered)' : ''}`] : []));
    assert.deepEqual(users, ['fix it', 'also the docs (steered)']);
  });

  test('a missing event holds back what follows it and names the range to fetch', () => {
    const log = session();
    const { state, order, missing } = follow({ last: 0, ahead: [] }, [log.slice(0, 4), log.slice(5)]);
    assert.deepEqual(missing, { afterSeq: 4, untilSeq: 5 });
    assert.equal(order.last, 4);
    assert.equal(state.items.filter((item) => item.kind === 'tool').length, 0, 'nothing past the gap is drawn');
    const after = filled(order, missing!, [log[4]!]);
    assert.equal(after.missing, null);
    assert.deepEqual(foldEvents(state, after.ready, 0).items, reference().items);
  });

  test('a range the log does not hold is skipped, and what came after it is drawn', () => {
    const log = session();
    const lost = log.filter((event) => event.seq !== 8);
    const { order, missing } = follow({ last: 0, ahead: [] }, [lost]);
    assert.deepEqual(missing, { afterSeq: 7, untilSeq: 8 });
    const after = filled(order, missing!, []);
    assert.equal(after.missing, null);
    assert.deepEqual(
      after.ready.map((event) => event.seq),
      [9, 10, 11, 12, 13],
    );
  });

  test('rows are keyed by their events, so the first screen keeps its keys when the older part is folded in', () => {
    const log = session();
    const tail = foldEvents(EMPTY_TRANSCRIPT, log.slice(7), 0);
    const whole = reference();
    const keys = (state: TranscriptState) => state.items.filter((item) => item.kind === 'user' || item.kind === 'runEnd').map((item) => item.key);
    assert.deepEqual(keys(tail), keys(whole).slice(-2));
    assert.deepEqual(keys(whole), ['prompt@1', 'prompt@8', 'end@13']);
  });

  test('events received while the open is on its way wait for it; those it answered are dropped', () => {
    const log = session();
    const waiting = admit(UNOPENED, [log[6]!, log[5]!, log[8]!, log[7]!, log[6]!]);
    assert.deepEqual(waiting.ready, []);
    const answered = opened(waiting.order, 6);
    assert.deepEqual(
      answered.ready.map((event) => event.seq),
      [7, 8, 9],
    );
    assert.equal(answered.missing, null);
    const state = foldEvents(foldEvents(EMPTY_TRANSCRIPT, log.slice(0, 6), 0), answered.ready, 0);
    assert.deepEqual(state.items, foldEvents(EMPTY_TRANSCRIPT, log.slice(0, 9), 0).items);
  });
});
