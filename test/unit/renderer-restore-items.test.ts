/**
 * Rewinds and reverts in the transcript fold (renderer/features/checkpoints/restore-items.ts via
 * foldEvents): a conversation cut folds the rows from the prompt it went back to under its
 * marker, live and on a redraw from stored events alike, and prompts keep main's numbering (the
 * folded ones offer no rewind); a rewind without a cut is a row of its own; an undo marks the
 * revert it undid.
 */
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { makeEvent, ZERO_USAGE, type CoveEvent } from '../../shared/events';
import { EMPTY_TRANSCRIPT, foldEvents } from '../../renderer/features/transcript/model';
import { promptItems, rewindablePrompt } from '../../renderer/features/checkpoints/restore-items';

const sessionId = 's1';
const roots = [{ root: '/w', before: 'b', after: 'a' }];

function run(text: string): CoveEvent[] {
  return [
    makeEvent('userMessage', { sessionId, text, steered: false }),
    makeEvent('agentStart', { sessionId, model: 'm', prompt: text }),
    makeEvent('agentEnd', { sessionId, stopReason: 'endTurn', usage: ZERO_USAGE, cost: null }),
  ];
}

const numbered = (events: CoveEvent[]) => events.map((event, index) => ({ ...event, seq: index + 1 }) as CoveEvent);

describe('restore rows in the transcript', () => {
  test('a conversation cut folds what it cut away under its marker, one event at a time or all at once', () => {
    const cut = makeEvent('rewind', { sessionId, toPrompt: 2, checkpointId: 'cp', roots, restored: ['/w/a.txt'], removed: [], kept: [], conversationCut: true });
    const events = numbered([...run('one'), ...run('two'), ...run('three'), cut, ...run('four')]);
    const whole = foldEvents(EMPTY_TRANSCRIPT, events, 0);
    const live = events.reduce((state, event) => foldEvents(state, [event], 0), EMPTY_TRANSCRIPT);
    assert.deepEqual(live.items, whole.items);
    assert.deepEqual(
      whole.items.map((item) => item.kind),
      ['user', 'runEnd', 'restore', 'user', 'runEnd'],
    );
    const marker = whole.items[2]!;
    assert.ok(marker.kind === 'restore' && marker.cut);
    assert.deepEqual(
      marker.cut.map((item) => (item.kind === 'user' ? item.text : item.kind)),
      ['two', 'runEnd', 'three', 'runEnd'],
    );
    assert.deepEqual(
      [...promptItems(whole.items)].map((item) => item.text),
      ['one', 'two', 'three', 'four'],
      "prompt numbers stay main's: the cut ones still count",
    );
    const keyOf = (text: string) => [...promptItems(whole.items)].find((item) => item.text === text)!.key;
    assert.deepEqual(
      ['one', 'two', 'three', 'four'].map((text) => rewindablePrompt(whole.items, keyOf(text))),
      [1, null, null, 4],
      'Rewind to here is offered on the prompts still in the conversation, by their number, and on none folded under the cut',
    );

    // A second cut back to a prompt already folded starts at the fold that holds it.
    const again = foldEvents(
      whole,
      numbered([...events, makeEvent('rewind', { sessionId, toPrompt: 3, checkpointId: '', roots: [], restored: [], removed: [], kept: [], conversationCut: true })]).slice(-1),
      0,
    );
    assert.deepEqual(
      again.items.map((item) => item.kind),
      ['user', 'runEnd', 'restore'],
    );
  });

  test('a rewind without a cut is a row after the others; an undo marks the revert it undid', () => {
    const events = numbered([
      ...run('one'),
      makeEvent('rewind', { sessionId, toPrompt: 1, checkpointId: 'cp', roots, restored: ['/w/a.txt'], removed: [], kept: [] }),
      makeEvent('revert', { sessionId, scope: 'hunk', prompt: 1, paths: ['/w/a.txt'], hunk: '@@ -1 +1 @@', roots }),
      makeEvent('revert', { sessionId, scope: 'hunk', prompt: 1, paths: ['/w/a.txt'], hunk: '@@ -1 +1 @@', roots, undoes: 5 }),
    ]);
    const state = foldEvents(EMPTY_TRANSCRIPT, events, 0);
    const restores = state.items.filter((item) => item.kind === 'restore');
    assert.deepEqual(
      restores.map((item) => [item.event.type, item.cut, item.undone]),
      [
        ['rewind', null, false],
        ['revert', null, true],
        ['revert', null, false],
      ],
    );
  });
});
