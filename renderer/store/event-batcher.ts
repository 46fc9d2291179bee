/**
 * Collects items and hands them over in one batch per scheduled tick (an animation frame in
 * the page), so a burst of deltas costs one store update and one render, never one per event.
 */
export type Scheduler = (run: () => void) => void;

export function createBatcher<T>(flush: (items: T[]) => void, schedule: Scheduler): (item: T) => void {
  let queue: T[] = [];
  let scheduled = false;
  const run = () => {
    scheduled = false;
    const batch = queue;
    queue = [];
    if (batch.length > 0) flush(batch);
  };
  return (item) => {
    queue.push(item);
    if (!scheduled) {
      scheduled = true;
      schedule(run);
    }
  };
}
