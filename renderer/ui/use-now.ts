/**
 * The current time, re-rendering every `intervalMs`. Components asking for the same interval
 * share one timer, so a list of relative times costs one interval, not one per row.
 */
import { useCallback, useSyncExternalStore } from 'react';

interface Clock {
  now: number;
  listeners: Set<() => void>;
  timer: ReturnType<typeof setInterval> | null;
}

const clocks = new Map<number, Clock>();

function clockFor(intervalMs: number): Clock {
  let clock = clocks.get(intervalMs);
  if (!clock) clocks.set(intervalMs, (clock = { now: Date.now(), listeners: new Set(), timer: null }));
  return clock;
}

export function useNow(intervalMs: number, active = true): number {
  const clock = clockFor(intervalMs);
  // A stable subscribe: a new one each render would restart the clock on every render.
  const subscribe = useCallback(
    (listener: () => void) => {
      if (!active) return () => {};
      clock.listeners.add(listener);
      if (!clock.timer) {
        clock.now = Date.now();
        clock.timer = setInterval(() => {
          clock.now = Date.now();
          for (const notify of clock.listeners) notify();
        }, intervalMs);
      }
      return () => {
        clock.listeners.delete(listener);
        if (clock.listeners.size === 0 && clock.timer) {
          clearInterval(clock.timer);
          clock.timer = null;
        }
      };
    },
    [clock, intervalMs, active],
  );
  return useSyncExternalStore(subscribe, () => (active ? current(clock, intervalMs) : 0));
}

/**
 * The clock's time, brought up to date when its timer has stopped: a row mounted long after the
 * last ticking one unmounted would otherwise start from that old time and show a negative (0 s)
 * duration. Updated at most once per interval, so React sees the same value within a render.
 */
function current(clock: Clock, intervalMs: number): number {
  clock.now = freshTime(clock.now, clock.timer !== null, intervalMs, Date.now());
  return clock.now;
}

export function freshTime(previous: number, ticking: boolean, intervalMs: number, now: number): number {
  return !ticking && now - previous >= intervalMs ? now : previous;
}
