/**
 * Collects items and hands them over in one batch per scheduled tick (an animation frame in
 * the page), so a burst of deltas costs one store update and one render, never one per event.
 */
export type Scheduler = (run: () => void) => void;

export interface Batcher<T> {
  push(item: T): void;
  /** Hands over what is queued now, without waiting for the tick. */
  flush(): void;
}

export function createBatcher<T>(flush: (items: T[]) => void, schedule: Scheduler): Batcher<T> {
  let queue: T[] = [];
  let scheduled = false;
  const run = () => {
    scheduled = false;
    const batch = queue;
    queue = [];
    if (batch.length > 0) flush(batch);
  };
  return {
    push(item) {
      queue.push(item);
      if (!scheduled) {
        scheduled = true;
        schedule(run);
      }
    },
    // The tick still comes; it finds the queue empty, or holds what arrived since.
    flush() {
      const batch = queue;
      queue = [];
      if (batch.length > 0) flush(batch);
    },
  };
}
