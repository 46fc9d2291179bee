/**
 * The older part of a long session is asked for only once the first screen has been drawn.
 * Asked for at once, its first page (15,000 events, 3.4 MB) kept `cove serve` busy for about
 * 150 ms, during which it answered nothing else: a session view chunk still on its way waited
 * behind it, and the page then spent tens of milliseconds parsing it, in the frames that were
 * to show the first screen. The transcript says when it has drawn the first screen (drawn());
 * a view that never does (its chunk failed, or no page at all) does not hold the history back
 * for longer than `timeoutMs`.
 */
export interface FirstScreenGate {
  /** Resolves after the first screen of `generation` has been painted, or after the timeout. */
  wait(generation: number): Promise<void>;
  /** The transcript of `generation` has its rows on the screen. */
  drawn(generation: number): void;
}

export function firstScreenGate(timeoutMs: number): FirstScreenGate {
  let waiting: { generation: number; release(): void } | null = null;
  return {
    wait(generation) {
      // Outside a page (the store's tests) nothing draws, so nothing is waited for.
      if (typeof requestAnimationFrame !== 'function') return Promise.resolve();
      waiting?.release();
      return new Promise<void>((resolve) => {
        const release = () => {
          clearTimeout(timer);
          if (waiting?.generation === generation) waiting = null;
          resolve();
        };
        const timer = setTimeout(release, timeoutMs);
        waiting = { generation, release };
      });
    },
    drawn(generation) {
      const current = waiting;
      if (!current || current.generation !== generation) return;
      // The commit that drew the rows is not yet on the screen: the frame after it is.
      requestAnimationFrame(() => setTimeout(current.release, 0));
    },
  };
}
