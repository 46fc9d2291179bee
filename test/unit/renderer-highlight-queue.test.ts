import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { HighlightQueue, sharedLines } from '../../renderer/ui/highlight-queue';

/** A queue whose tasks run when the test says, and whose highlighter records what it was given. */
function steppedQueue(ready = true) {
  const tasks: Array<() => void> = [];
  const highlighted: string[] = [];
  const state = { ready };
  let becomeReady: () => void = () => undefined;
  const readyPromise = new Promise<void>((resolve) => (becomeReady = resolve));
  const queue = new HighlightQueue(
    (text) => {
      if (!state.ready) return null;
      highlighted.push(text);
      return text.split('\n').map((line) => `<b>${line}</b>`);
    },
    () => readyPromise,
    (run) => tasks.push(run),
  );
  const runTask = () => tasks.shift()?.();
  const load = async () => {
    state.ready = true;
    becomeReady();
    await readyPromise;
    await Promise.resolve();
  };
  return { queue, tasks, highlighted, runTask, load };
}

describe('HighlightQueue', () => {
  test('highlights one block per task, never when asked', () => {
    const { queue, tasks, highlighted, runTask } = steppedQueue();
    const got: string[] = [];
    for (const name of ['a', 'b', 'c']) queue.ask({}, { text: name, language: 'ts', deliver: () => got.push(name) });
    assert.deepEqual(highlighted, [], 'nothing is highlighted in the caller (a render)');
    assert.equal(tasks.length, 1, 'one task is planned, not one per block');
    runTask();
    assert.deepEqual(got, ['a']);
    runTask();
    runTask();
    assert.deepEqual(got, ['a', 'b', 'c']);
    assert.equal(tasks.length, 0);
    assert.equal(queue.size, 0);
  });

  test('keeps only the latest text a block asked for, and nothing it withdrew', () => {
    const { queue, highlighted, runTask } = steppedQueue();
    const streamed = {};
    const gone = {};
    const got: Array<[string, string[] | undefined]> = [];
    queue.ask(streamed, { text: 'x = 1', language: 'ts', deliver: (lines) => got.push(['x = 1', lines]) });
    queue.ask(gone, { text: 'gone', language: 'ts', deliver: () => got.push(['gone', undefined]) });
    queue.ask(streamed, { text: 'x = 1\ny = 2', language: 'ts', deliver: (lines) => got.push(['x = 1\ny = 2', lines]) });
    queue.withdraw(gone);
    runTask();
    runTask();
    assert.deepEqual(highlighted, ['x = 1\ny = 2']);
    assert.deepEqual(got, [['x = 1\ny = 2', ['<b>x = 1</b>', '<b>y = 2</b>']]]);
  });

  test('waits for the highlighter to load, then goes on', async () => {
    const { queue, tasks, highlighted, runTask, load } = steppedQueue(false);
    const got: string[] = [];
    queue.ask({}, { text: 'a', language: 'ts', deliver: () => got.push('a') });
    runTask();
    assert.deepEqual(got, [], 'not before the highlighter is there');
    assert.equal(tasks.length, 0, 'no task spins while it loads');
    await load();
    assert.equal(tasks.length, 1);
    runTask();
    assert.deepEqual(got, ['a']);
    assert.deepEqual(highlighted, ['a']);
  });
});

describe('sharedLines', () => {
  test('keeps the colours of the lines a grown block still has in place', () => {
    const before = 'const a = 1;\nconst b';
    const lines = ['<i>const a = 1;</i>', '<i>const b</i>'];
    assert.deepEqual(sharedLines(before, lines, 'const a = 1;\nconst b = 2;\nreturn a;'), ['<i>const a = 1;</i>', undefined, undefined]);
    assert.deepEqual(sharedLines(before, lines, 'const a = 1;\r\nconst b'), lines, 'CRLF lines are the same lines');
    assert.equal(sharedLines(before, lines, 'let z;'), undefined, 'nothing in common');
  });
});
