/**
 * What changed in a workspace root since the last checkpoint, known without walking it: one
 * inotify watch per folder (Node's fs.watch, which libuv serves from a single inotify
 * descriptor per process), so a checkpoint stages only the paths named since.
 *
 * The barrier: events reach us late, so before a checkpoint trusts the list it writes a
 * sentinel file in a folder of the shadow repository it also watches, and waits for that
 * event. Every watch shares the one descriptor and the kernel queues each event when the
 * change is made, in order, so once the sentinel's event is read every change made before it
 * has been read too. That holds on Linux only (FSEvents and ReadDirectoryChangesW keep one
 * queue per stream), so elsewhere no watcher starts and every checkpoint asks git status.
 *
 * A watcher that cannot vouch for its list (a watch failed, an event came without a name,
 * too many folders, too many changes at once) says so once; the checkpoint then walks the
 * whole tree with git status, as it would without a watcher, and reports why.
 */
import { lstatSync, mkdirSync, readdirSync, watch, writeFileSync, type FSWatcher } from 'node:fs';
import { join } from 'node:path';

/** Folders never watched (shadow-repo's COVE_EXCLUDES, git folders): their changes are never recorded. */
const NEVER_WATCHED = new Set(['.git', 'node_modules', '.venv', '__pycache__']);

/** More folders than this is no longer cheap to watch (and may exhaust fs.inotify.max_user_watches). */
export const MAX_WATCHED_FOLDERS = 20_000;

/**
 * More changed paths than this between two checkpoints is handed to git status: it is as fast
 * then, and it keeps well under the kernel's event queue (fs.inotify.max_queued_events,
 * 16,384 by default), whose overflow libuv does not report.
 */
export const MAX_CHANGES = 4_000;

const BARRIER_FILE = 'barrier';
const BARRIER_TIMEOUT_MS = 2_000;

export type Changes = { paths: string[] } | { lost: string };

export interface WatcherLimits {
  maxFolders: number;
  maxChanges: number;
}

export interface WatcherOptions extends Partial<WatcherLimits> {
  /** Folders (relative, ending in `/`) never watched: the `.gitignore`d ones and COVE_HOME when it lies inside. */
  skip: ReadonlySet<string>;
  /** A folder outside the root that only this watcher writes to, for the barrier. */
  barrierFolder: string;
}

export class WorkspaceWatcher {
  private readonly watchers = new Map<string, FSWatcher>();
  private changed = new Set<string>();
  private lost: string | undefined;
  /** Too many changes since the last checkpoint: that one walks the tree, and the list starts afresh after it. */
  private overflowed = false;
  private barrierWatcher: FSWatcher | undefined;
  private barrierCount = 0;
  private readonly barrierWaiters = new Map<string, () => void>();

  private get maxChanges(): number {
    return this.options.maxChanges ?? MAX_CHANGES;
  }

  private constructor(
    readonly root: string,
    private readonly options: WatcherOptions,
  ) {}

  /** A watcher on every folder of the root, or undefined where its barrier cannot be trusted. */
  static start(root: string, options: WatcherOptions): WorkspaceWatcher | undefined {
    if (process.platform !== 'linux') return undefined;
    const watcher = new WorkspaceWatcher(root, options);
    watcher.startBarrier();
    watcher.watchTree('');
    return watcher;
  }

  private startBarrier(): void {
    try {
      mkdirSync(this.options.barrierFolder, { recursive: true });
      const watcher = watch(this.options.barrierFolder, { persistent: false }, () => {
        for (const resolve of this.barrierWaiters.values()) resolve();
        this.barrierWaiters.clear();
      });
      watcher.on('error', () => this.loseTrack('the barrier folder could not be watched'));
      this.barrierWatcher = watcher;
    } catch (error) {
      this.loseTrack(`the barrier folder could not be watched (${(error as Error).message})`);
    }
  }

  /** Why the list can no longer be trusted, once it cannot. */
  get lostTrack(): string | undefined {
    return this.lost;
  }

  private loseTrack(reason: string): void {
    this.lost ??= reason;
  }

  private skipped(folder: string): boolean {
    const name = folder.slice(0, -1).split('/').pop()!;
    return NEVER_WATCHED.has(name) || this.options.skip.has(folder);
  }

  /** Watches `folder` (relative, '' or ending in `/`) and every folder under it; each is marked changed when it is new. */
  private watchTree(folder: string, isNew = false): void {
    if (this.lost || this.watchers.has(folder) || (folder && this.skipped(folder))) return;
    const maxFolders = this.options.maxFolders ?? MAX_WATCHED_FOLDERS;
    if (this.watchers.size >= maxFolders) {
      this.loseTrack(`more than ${maxFolders} folders to watch`);
      return;
    }
    const absolute = join(this.root, folder);
    let watcher: FSWatcher;
    try {
      watcher = watch(absolute, { persistent: false }, (_kind, name) => this.onEvent(folder, name));
    } catch (error) {
      const code = (error as NodeJS.ErrnoException).code;
      // A folder gone before its watch was set: its parent's event names it already.
      if (code === 'ENOENT' || code === 'ENOTDIR') return;
      this.loseTrack(`${folder || 'the root'} could not be watched (${code ?? (error as Error).message})`);
      return;
    }
    watcher.on('error', (error) => this.loseTrack(`the watch on ${folder || 'the root'} failed (${error.message})`));
    this.watchers.set(folder, watcher);
    let entries;
    try {
      entries = readdirSync(absolute, { withFileTypes: true });
    } catch {
      return;
    }
    // A nested repository is recorded by name only, as git status names it: its inside is not watched.
    if (folder && entries.some((entry) => entry.name === '.git')) return;
    for (const entry of entries) {
      const path = `${folder}${entry.name}`;
      if (entry.isDirectory()) this.watchTree(`${path}/`, isNew);
      else if (isNew) this.mark(path);
    }
  }

  private mark(path: string): void {
    if (this.overflowed) return;
    this.changed.add(path);
    if (this.changed.size > this.maxChanges) {
      this.overflowed = true;
      this.changed.clear();
    }
  }

  private onEvent(folder: string, name: string | Buffer | null): void {
    if (name === null) {
      this.loseTrack(`an event in ${folder || 'the root'} came without a file name`);
      return;
    }
    const path = `${folder}${name.toString()}`;
    this.mark(path);
    // A folder made now: watched at once, and what was put in it before the watch is marked by the walk.
    try {
      if (lstatSync(join(this.root, path)).isDirectory()) this.watchTree(`${path}/`, true);
    } catch {
      // Gone again: the mark stands for its removal.
    }
  }

  /**
   * The paths (relative to the root) changed since the last call, once every event made before
   * this call has arrived; `lost` when the list cannot be vouched for.
   */
  async changes(): Promise<Changes> {
    if (!this.lost && !(await this.barrier())) this.loseTrack(`the watcher's barrier did not arrive within ${BARRIER_TIMEOUT_MS} ms`);
    for (const [folder, watcher] of this.watchers) {
      if (folder === '') continue;
      try {
        lstatSync(join(this.root, folder));
      } catch {
        watcher.close();
        this.watchers.delete(folder);
      }
    }
    const paths = [...this.changed];
    const overflowed = this.overflowed;
    this.changed = new Set();
    this.overflowed = false;
    if (this.lost) return { lost: this.lost };
    if (overflowed) return { lost: `more than ${this.maxChanges} paths changed since the last checkpoint` };
    return { paths };
  }

  /** Its timer, left referenced, keeps the process up while it waits: the watches themselves do not. */
  private barrier(): Promise<boolean> {
    if (!this.barrierWatcher) return Promise.resolve(false);
    const token = String(++this.barrierCount);
    return new Promise((resolve) => {
      const timer = setTimeout(() => {
        this.barrierWaiters.delete(token);
        resolve(false);
      }, BARRIER_TIMEOUT_MS);
      this.barrierWaiters.set(token, () => {
        clearTimeout(timer);
        resolve(true);
      });
      try {
        writeFileSync(join(this.options.barrierFolder, BARRIER_FILE), token);
      } catch {
        clearTimeout(timer);
        this.barrierWaiters.delete(token);
        resolve(false);
      }
    });
  }

  close(): void {
    for (const watcher of this.watchers.values()) watcher.close();
    this.watchers.clear();
    this.barrierWatcher?.close();
    this.barrierWatcher = undefined;
    this.barrierWaiters.clear();
  }
}
