/**
 * Host events wait for the next animation frame before they are applied (./event-batcher.ts).
 * When `session:open` answers, those received before the answer must be applied first, while
 * the transcript still counts them as held during the open; bootstrap registers how.
 */
let flush: () => void = () => {};

export function setPendingEventsFlush(run: () => void): void {
  flush = run;
}

export function applyPendingEvents(): void {
  flush();
}
