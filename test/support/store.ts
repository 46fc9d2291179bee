/**
 * A store in a folder of its own for one test, closed and removed after it, with a clock that
 * advances 1 ms per reading, so ordering never depends on timing.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { openStore, type Store } from '../../electron/core/store';

export function openTestStore(t: { after(fn: () => void): void }): { store: Store; dir: string; clock: { time: number } } {
  const dir = mkdtempSync(join(tmpdir(), 'cove-store-'));
  const clock = { time: 1_700_000_000_000 };
  const store = openStore(dir, { now: () => ++clock.time });
  t.after(() => {
    store.close();
    rmSync(dir, { recursive: true, force: true });
  });
  return { store, dir, clock };
}
