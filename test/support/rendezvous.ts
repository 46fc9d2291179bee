/**
 * Holds each arrival until `size` are held at once (or all that are left of `total`), then lets
 * that wave go together. A scripted model server that answers through it proves that `size`
 * requests were in flight side by side, which a run held to a lower concurrency limit never
 * reaches. The timeout only keeps such a run from hanging: it lets everyone go and records the
 * shortfall for the test to report; it never measures speed.
 */
export interface Rendezvous {
  arrive(): Promise<void>;
  /** What fell short, or undefined while every wave has met. */
  readonly shortfall: string | undefined;
}

export function rendezvous(size: number, options: { total?: number; timeoutMs?: number } = {}): Rendezvous {
  const total = options.total ?? size;
  const timeoutMs = options.timeoutMs ?? 10_000;
  let held: Array<() => void> = [];
  let passed = 0;
  let shortfall: string | undefined;
  let timer: NodeJS.Timeout | undefined;
  const release = () => {
    clearTimeout(timer);
    const wave = held;
    held = [];
    passed += wave.length;
    for (const go of wave) go();
  };
  return {
    arrive() {
      if (shortfall) return Promise.resolve();
      return new Promise((resolve) => {
        held.push(resolve);
        const wave = Math.min(size, total - passed);
        if (held.length >= wave) return release();
        if (held.length === 1) {
          timer = setTimeout(() => {
            shortfall = `only ${held.length} of ${wave} were in flight at once (${passed} had gone before); the rest waited ${timeoutMs} ms in vain`;
            release();
          }, timeoutMs);
        }
      });
    },
    get shortfall() {
      return shortfall;
    },
  };
}
