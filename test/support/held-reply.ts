import type { Reply, ScriptFunction } from './model-server';

/**
 * A script whose first reply the scripted server sends only when the test calls `release`, so
 * whatever the test does in between (steering, stopping) surely happens while that request is
 * in flight, with no window of time to hit; the later replies follow in order.
 */
export function holdFirst(first: Reply, ...rest: Reply[]): { script: ScriptFunction; release(): void } {
  let release!: () => void;
  const released = new Promise<void>((resolve) => (release = resolve));
  return {
    script: async (_request, index) => {
      if (index > 0) return rest[index - 1] ?? Promise.reject(new Error(`the script has no reply ${index + 1}`));
      await released;
      return first;
    },
    release,
  };
}
