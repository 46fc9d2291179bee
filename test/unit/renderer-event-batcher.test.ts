import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { createBatcher, TICK_BUDGET_MS } from '../../renderer/store/event-batcher';

/** A batcher whose handing over costs `costPerItem` ms of a fake clock per item. */
function timedBatcher(costPerItem: number, budgetMs?: number) {
  let clock = 0;
  const ticks: (() => void)[] = [];
  const batches: number[][] = [];
  const tickTimes: number[] = [];
  const batcher = createBatcher<number>(
    (items) => {
      batches.push(items);
      clock += items.length * costPerItem;
    },
    (run) => ticks.push(run),
    { budgetMs, now: () => clock },
  );
  /** Runs the scheduled tick; returns the clock time it took. */
  const tick = () => {
    const run = ticks.shift();
    assert.ok(run, 'a tick is scheduled');
    const before = clock;
    run();
    tickTimes.push(clock - before);
    return clock - before;
  };
  return { batcher, ticks, batches, tickTimes, tick };
}

describe('event batcher: a time budget per tick', () => {
  test('a flood is handed over across ticks, none taking much over the budget, in order and each item once', () => {
    const { batcher, ticks, batches, tickTimes, tick } = timedBatcher(0.05);
    const count = 20_000;
    for (let item = 0; item < count; item++) batcher.push(item);
    assert.equal(ticks.length, 1, 'one tick for the burst');
    while (ticks.length > 0) tick();
    assert.ok(tickTimes.length > 1, `the flood took ${tickTimes.length} tick(s): it was not split`);
    // A tick stops after the slice that passes the budget; that slice is at most twice the one before.
    for (const spent of tickTimes) assert.ok(spent <= TICK_BUDGET_MS * 3, `a tick spent ${spent} ms against a ${TICK_BUDGET_MS} ms budget`);
    assert.deepEqual(
      batches.flat(),
      Array.from({ length: count }, (_, index) => index),
    );
  });

  test('a tick that fits its budget hands everything over, in few calls', () => {
    const { batcher, batches, ticks, tick } = timedBatcher(0.001);
    for (let item = 0; item < 1000; item++) batcher.push(item);
    tick();
    assert.equal(ticks.length, 0, 'nothing left for another tick');
    assert.equal(batches.flat().length, 1000);
    assert.ok(batches.length <= 7, `1,000 cheap items took ${batches.length} calls`);
  });

  test('every tick makes progress, even when one item costs more than the budget', () => {
    let clock = 0;
    const ticks: (() => void)[] = [];
    const batches: number[][] = [];
    const batcher = createBatcher<number>(
      (items) => {
        batches.push(items);
        clock += items.length * 30;
      },
      (run) => ticks.push(run),
      { budgetMs: 8, firstSlice: 1, now: () => clock },
    );
    for (let item = 0; item < 3; item++) batcher.push(item);
    for (let tick = 1; tick <= 3; tick++) {
      ticks.shift()!();
      assert.deepEqual(batches.flat(), [0, 1, 2].slice(0, tick), `tick ${tick} handed over one item more`);
    }
    assert.equal(ticks.length, 0);
  });

  test('items pushed while a tick is split go after the rest, in a later tick', () => {
    const { batcher, batches, ticks, tick } = timedBatcher(1, 4);
    for (let item = 0; item < 100; item++) batcher.push(item);
    tick();
    batcher.push(100);
    assert.equal(ticks.length, 1, 'the rest and the new item share one scheduled tick');
    while (ticks.length > 0) tick();
    assert.deepEqual(
      batches.flat(),
      Array.from({ length: 101 }, (_, index) => index),
    );
  });

  test('flush hands over all that waits, budget or not', () => {
    const { batcher, batches, ticks, tick } = timedBatcher(1, 4);
    for (let item = 0; item < 50; item++) batcher.push(item);
    tick();
    const handed = batches.flat().length;
    assert.ok(handed < 50, 'the tick left some for later');
    batcher.flush();
    assert.equal(batches.flat().length, 50);
    while (ticks.length > 0) tick();
    assert.equal(batches.flat().length, 50, 'nothing handed over twice');
  });
});
