/**
 * A value that changes often, passed on at most once per `intervalMs`: the latest one each
 * time, and at once whenever the interval is 0. For views whose every redraw is costly
 * however little changed, such as a very long reply still streaming.
 */
import { useEffect, useRef, useState } from 'react';

export function useThrottled<T>(value: T, intervalMs: number): T {
  const [shown, setShown] = useState(value);
  const shownAt = useRef(0);
  useEffect(() => {
    if (intervalMs <= 0 || shown === value) return;
    // Each newer value keeps the deadline of the first one not yet shown.
    const timer = setTimeout(
      () => {
        shownAt.current = performance.now();
        setShown(value);
      },
      Math.max(0, shownAt.current + intervalMs - performance.now()),
    );
    return () => clearTimeout(timer);
  }, [value, intervalMs, shown]);
  return intervalMs <= 0 ? value : shown;
}
