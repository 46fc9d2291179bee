import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { afterScroll, BOTTOM_SLACK_PX, INTENT_MS, ScrollIntent, type FollowState } from '../../renderer/features/transcript/follow';
import { answerFor, approveKeyAction } from '../../renderer/features/composer/approve-keys';
import { makeEvent } from '../../shared/events';

const view = { scrollHeight: 5_000, clientHeight: 600 };
const bottom = view.scrollHeight - view.clientHeight;

function scroll(state: FollowState, scrollTop: number, byPerson: boolean, scrollHeight = view.scrollHeight): FollowState {
  return afterScroll(state, { scrollTop, scrollHeight, clientHeight: view.clientHeight, byPerson });
}

describe('following the bottom of a transcript', () => {
  test('content growing under a streamed reply, and the page moving the scroll up, never stop following', () => {
    let state: FollowState = { following: true, lastTop: bottom };
    // The reply grew by 400 px before the page scrolled down again: far from the bottom, not the person.
    state = scroll(state, bottom, false, view.scrollHeight + 400);
    assert.equal(state.following, true);
    // A row above measured smaller than estimated: the virtualizer moves the position up.
    state = scroll(state, bottom - 300, false, view.scrollHeight + 400);
    assert.equal(state.following, true);
  });

  test('the person scrolling up stops following; scrolling down short of the bottom does not resume it; reaching the bottom does', () => {
    let state: FollowState = { following: true, lastTop: bottom };
    state = scroll(state, bottom - 200, true);
    assert.equal(state.following, false);
    state = scroll(state, bottom - 100, true);
    assert.equal(state.following, false, 'still reading above the bottom');
    state = scroll(state, bottom - BOTTOM_SLACK_PX + 1, true);
    assert.equal(state.following, true);
  });

  test('a small scroll up within the bottom slack keeps following', () => {
    const state = scroll({ following: true, lastTop: bottom }, bottom - BOTTOM_SLACK_PX, true);
    assert.equal(state.following, true);
  });

  test("the person's intent lasts a short while after a gesture, and as long as the scrollbar is held", () => {
    let time = 1_000;
    const intent = new ScrollIntent(() => time);
    assert.equal(intent.active(), false);
    intent.noteGesture();
    time += INTENT_MS;
    assert.equal(intent.active(), true);
    time += 1;
    assert.equal(intent.active(), false);
    intent.press(true);
    time += 10_000;
    assert.equal(intent.active(), true, 'dragging the scrollbar for long');
    intent.press(false);
    time += INTENT_MS + 1;
    assert.equal(intent.active(), false);
  });

  test("a jump to the bottom ends the gesture before it, so the page's own scrolls after it do not stop following", () => {
    let time = 1_000;
    const intent = new ScrollIntent(() => time);
    intent.noteGesture();
    time += 50;
    intent.endGesture();
    assert.equal(intent.active(), false);
    // A row measured after the jump moves the scroll position up a little, above the slack.
    const state = afterScroll(
      { following: true, lastTop: bottom },
      { scrollTop: bottom - BOTTOM_SLACK_PX - 80, scrollHeight: view.scrollHeight, clientHeight: view.clientHeight, byPerson: intent.active() },
    );
    assert.equal(state.following, true);
  });
});

describe('permission keys in the message box', () => {
  const plain = { ctrlKey: false, metaKey: false, altKey: false };
  test('Y, S, A and N answer only while the box is empty, and never with a modifier or while composing', () => {
    assert.deepEqual(
      ['y', 'S', 'a', 'n', 'x', 'Enter'].map((key) => approveKeyAction({ key, ...plain }, '')),
      ['once', 'session', 'always', 'deny', null, null],
    );
    assert.equal(approveKeyAction({ key: 'y', ...plain }, 'ok'), null, 'text in the box: the key types');
    assert.equal(approveKeyAction({ key: 'y', ...plain }, ' '), null, 'even a space is text');
    assert.equal(approveKeyAction({ key: 'y', ...plain, ctrlKey: true }, ''), null);
    assert.equal(approveKeyAction({ key: 'y', ...plain, isComposing: true }, ''), null);
  });

  test('Always saves the suggested rule, as the card would without edits', () => {
    const request = makeEvent('permissionRequest', {
      sessionId: 's',
      requestId: 'r',
      toolCallId: 'c',
      toolName: 'bash',
      args: { command: 'npm test' },
      sensitivity: 'mutating',
      reasons: [],
      suggestedRule: 'bash(npm test)',
    });
    assert.deepEqual(answerFor('always', request), { decision: 'allow', scope: 'always', rule: 'bash(npm test)' });
    assert.deepEqual(answerFor('deny', request), { decision: 'deny' });
    assert.deepEqual(answerFor('session', request), { decision: 'allow', scope: 'session' });
  });
});
