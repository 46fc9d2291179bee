/**
 * Collects items and hands them over in batches per scheduled tick (an animation frame in the
 * page), so a burst of deltas costs one store update and one render, never one per event.
 *
 * A tick has a time budget: it hands over slices (the first small, each next one twice as
 * big, so a quiet stream still goes in one call) until the budget is spent, and leaves the
 * rest for the next tick. However fast events come (a socket that delivers seconds of a flood
 * at once after a stall), no single tick folds more than about its budget, and a keypress
 * waiting behind it is handled within the frame.
 */
export type Scheduler = (run: () => void) => void;

export interface Batcher<T> {
  push(item: T): void;
  /** Hands over everything queued now, without waiting for the tick or minding the budget. */
  flush(): void;
}

export interface BatcherOptions {
  /** The time a tick may spend handing over items, ms; the slice that passes it is the tick's last. */
  budgetMs?: number;
  /** The first slice's size; the next ones double. */
  firstSlice?: number;
  now?(): number;
}

/** Leaves room in a 16 ms frame for the render and paint that follow the store update. */
export const TICK_BUDGET_MS = 8;
const FIRST_SLICE = 16;

export function createBatcher<T>(flush: (items: T[]) => void, schedule: Scheduler, options: BatcherOptions = {}): Batcher<T> {
  const budgetMs = options.budgetMs ?? TICK_BUDGET_MS;
  const firstSlice = Math.max(1, options.firstSlice ?? FIRST_SLICE);
  const now = options.now ?? (() => performance.now());
  let queue: T[] = [];
  // Items before `head` were handed over; the array is let go once all of it was.
  let head = 0;
  let scheduled = false;

  const take = (count: number): T[] => {
    const batch = head === 0 && count >= queue.length ? queue : queue.slice(head, head + count);
    head += batch.length;
    if (head >= queue.length) {
      queue = [];
      head = 0;
    }
    return batch;
  };

  const ensureScheduled = () => {
    if (scheduled) return;
    scheduled = true;
    schedule(run);
  };

  function run() {
    scheduled = false;
    const started = now();
    for (let size = firstSlice; queue.length > head; size *= 2) {
      flush(take(size));
      if (now() - started >= budgetMs) break;
    }
    if (queue.length > head) ensureScheduled();
  }

  return {
    push(item) {
      queue.push(item);
      ensureScheduled();
    },
    // The tick still comes; it finds the queue empty, or holds what arrived since.
    flush() {
      if (queue.length > head) flush(take(queue.length - head));
    },
  };
}
