/**
 * A sessionStorage write that waits until the person pauses. Storing the drafts on every key
 * cost a synchronous JSON stringify and storage write per keypress (over 400 ms of one flood's
 * profile): now a burst of keys costs one write, made once the keys stop for `delayMs`, and a
 * write still waiting is made at once when the page is hidden or left (pagehide), so a reload
 * or a closed window loses nothing.
 */
import { writeStored } from './storage';

export interface DeferredWrite {
  /** Notes the value to store; it is written once no newer one came for the delay. */
  write(value: unknown): void;
  /** Writes a waiting value now. */
  flush(): void;
}

export interface DeferredWriteOptions {
  delayMs?: number;
  store?(key: string, value: unknown): void;
  /** Where pagehide and visibilitychange are heard; none outside a page. */
  target?: Pick<Window, 'addEventListener'> | undefined;
}

const DEFAULT_DELAY_MS = 400;

export function deferredWrite(key: string, options: DeferredWriteOptions = {}): DeferredWrite {
  const delayMs = options.delayMs ?? DEFAULT_DELAY_MS;
  const store = options.store ?? writeStored;
  let waiting: { value: unknown } | null = null;
  let timer: ReturnType<typeof setTimeout> | null = null;

  const flush = () => {
    if (timer !== null) clearTimeout(timer);
    timer = null;
    if (waiting === null) return;
    const { value } = waiting;
    waiting = null;
    store(key, value);
  };

  const target = options.target ?? (typeof window === 'undefined' ? undefined : window);
  target?.addEventListener('pagehide', flush);
  target?.addEventListener('visibilitychange', () => {
    if (typeof document !== 'undefined' && document.visibilityState === 'hidden') flush();
  });

  return {
    write(value) {
      waiting = { value };
      if (timer !== null) clearTimeout(timer);
      timer = setTimeout(flush, delayMs);
    },
    flush,
  };
}
