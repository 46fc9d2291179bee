/**
 * Keeps a session's secret set current: a file created or changed during the run (a new `.env`,
 * a key written by a tool or by the person) has its values added as soon as the file system says
 * so. Values are only ever added: a secret that was shown redacted stays redacted.
 */
import { watch, type FSWatcher } from 'node:fs';
import { join, sep } from 'node:path';
import { realRoots } from '../tools/sandbox';
import { ALWAYS_SKIPPED } from '../tools/walk';
import { extraMatcher, valuesOfFile } from './secret-files';

export interface WatchTarget {
  add(value: string, label: string): boolean;
}

export interface SecretWatch {
  close(): void;
}

/** Changes to one file come in bursts (truncate, write, close); it is read once they settle. */
const SETTLE_MS = 50;

export function watchWorkspaceSecrets(roots: readonly string[], target: WatchTarget, extraGlobs?: readonly string[], onUnreadable?: (path: string) => void): SecretWatch {
  const extra = extraMatcher(extraGlobs);
  const watchers: FSWatcher[] = [];
  const timers = new Map<string, NodeJS.Timeout>();
  const reported = new Set<string>();
  for (const root of realRoots(roots)) {
    let watcher: FSWatcher;
    try {
      // Recursive watching is native on macOS and Windows and emulated by Node 20 on Linux.
      watcher = watch(root, { recursive: true, persistent: false });
    } catch {
      continue;
    }
    watcher.on('error', () => watcher.close());
    watcher.on('change', (_event, name) => {
      const relative = String(name);
      if (relative.split(sep).some((part) => ALWAYS_SKIPPED.has(part))) return;
      clearTimeout(timers.get(relative));
      const timer = setTimeout(() => {
        timers.delete(relative);
        const result = valuesOfFile(join(root, relative), relative.split(sep).join('/'), extra);
        if (result === 'unreadable') {
          if (!reported.has(relative)) onUnreadable?.(relative);
          reported.add(relative);
        } else if (result) for (const { value, label } of result.values) target.add(value, label);
      }, SETTLE_MS);
      timer.unref();
      timers.set(relative, timer);
    });
    watchers.push(watcher);
  }
  return {
    close() {
      for (const watcher of watchers) watcher.close();
      for (const timer of timers.values()) clearTimeout(timer);
      timers.clear();
    },
  };
}
