/**
 * Keeps a session's secret set current: a file created or changed during the run (a new `.env`,
 * a key written by a tool or by the person) has its values added as soon as the file system says
 * so. Values are only ever added: a secret that was shown redacted stays redacted.
 */
import { statSync, watch, type FSWatcher } from 'node:fs';
import { join, sep } from 'node:path';
import { realRoots } from '../tools/sandbox';
import { ALWAYS_SKIPPED, walk } from '../tools/walk';
import { extraMatcher, MAX_WATCHED_FOLDERS, valuesOfFile } from './secret-files';

export interface WatchTarget {
  add(value: string, label: string): boolean;
}

export interface SecretWatch {
  close(): void;
}

/** Changes to one file come in bursts (truncate, write, close); it is read once they settle. */
const SETTLE_MS = 50;

/**
 * Watches the roots: recursively where the platform does it natively (macOS, Windows); on Linux,
 * where Node would emulate it by walking every folder (node_modules included), each folder the
 * scan visited is watched on its own, and folders created later are added as they appear.
 */
export function watchWorkspaceSecrets(
  roots: readonly string[],
  target: WatchTarget,
  options: { extraGlobs?: readonly string[]; folders?: readonly string[]; onUnreadable?: (path: string) => void } = {},
): SecretWatch {
  const extra = extraMatcher(options.extraGlobs);
  const watchers = new Map<string, FSWatcher>();
  const timers = new Map<string, NodeJS.Timeout>();
  const reported = new Set<string>();
  const real = realRoots(roots);
  const native = process.platform === 'darwin' || process.platform === 'win32';

  const read = (absolute: string, relative: string) => {
    const result = valuesOfFile(absolute, relative.split(sep).join('/'), extra);
    if (result === 'unreadable') {
      if (!reported.has(relative)) options.onUnreadable?.(relative);
      reported.add(relative);
    } else if (result) for (const { value, label } of result.values) target.add(value, label);
  };

  /** A folder created during the run: watched, and what was written into it before that, read. */
  const adopt = (folder: string, relative: string) => {
    watchFolder(folder);
    let entries = 0;
    for (const entry of walk(folder, { gitignore: false })) {
      if (++entries > MAX_WATCHED_FOLDERS) break;
      if (entry.kind === 'directory') watchFolder(entry.absolute);
      else if (entry.kind === 'file') read(entry.absolute, `${relative}/${entry.relative}`);
    }
  };

  const changed = (absolute: string) => {
    const root = real.find((candidate) => absolute === candidate || absolute.startsWith(candidate + sep));
    if (!root) return;
    const relative = absolute.slice(root.length + 1);
    if (relative.split(sep).some((part) => ALWAYS_SKIPPED.has(part))) return;
    clearTimeout(timers.get(absolute));
    const timer = setTimeout(() => {
      timers.delete(absolute);
      if (isFolder(absolute)) {
        if (!native) adopt(absolute, relative);
        return;
      }
      read(absolute, relative);
    }, SETTLE_MS);
    timer.unref();
    timers.set(absolute, timer);
  };

  const watchFolder = (folder: string) => {
    if (watchers.has(folder) || watchers.size >= MAX_WATCHED_FOLDERS) return;
    try {
      const watcher = watch(folder, { recursive: native, persistent: false });
      watcher.on('error', () => watcher.close());
      watcher.on('change', (_event, name) => changed(join(folder, String(name))));
      watchers.set(folder, watcher);
    } catch {
      // A folder that is gone or cannot be watched has nothing to report.
    }
  };

  for (const folder of native ? real : [...real, ...(options.folders ?? [])]) watchFolder(folder);
  return {
    close() {
      for (const watcher of watchers.values()) watcher.close();
      watchers.clear();
      for (const timer of timers.values()) clearTimeout(timer);
      timers.clear();
    },
  };
}

function isFolder(path: string): boolean {
  try {
    return statSync(path).isDirectory();
  } catch {
    return false;
  }
}
