/**
 * A shadow repository's checkpoints while a workspace watcher runs: the plan of what to stage
 * comes from the paths the watcher named instead of git status. The watcher starts before the
 * first checkpoint's status, so nothing made after that walk is missed by the next one; a
 * watcher that lost track is replaced, and that checkpoint walks the tree and says why.
 */
import { join } from 'node:path';
import { changedPaths, isEmptyFolder } from './changed-paths';
import { WorkspaceWatcher, type WatcherLimits } from './workspace-watcher';

/** What one checkpoint stages, and how it finds the empty folders. */
export interface StagingPlan {
  /** Paths git records as they are now (deleted ones too, from git status). */
  toStage: string[];
  /** Paths gone, files or folders, whose recorded files are removed. */
  gone: string[];
  newLarge: string[];
  vanished: string[];
  skipped: string[];
  nested: Set<string>;
  bytes: number;
  emptyFolders(): string[];
}

export interface WatchedRepository {
  root: string;
  gitDir: string;
  /** COVE_HOME when it lies inside the root. */
  ownFolder: string | undefined;
  sizeCap: number;
  run(args: readonly string[], input?: string, acceptExit?: readonly number[]): Promise<Buffer>;
  sizeOf(path: string): number;
  exists(path: string): boolean;
}

export interface WatchedPlan {
  /** Undefined: ask git status (the watcher just started, or cannot vouch for its list). */
  plan?: StagingPlan;
  /** Why the watcher could not be used, when it should have been. */
  lostTrack?: string;
}

export function nulList(output: Buffer): string[] {
  return output
    .toString('utf8')
    .split('\0')
    .filter((part) => part.length > 0);
}

export function nestedText(path: string): string {
  return `${path} is a git repository of its own; its files are not recorded`;
}

export class WatchedChanges {
  private watcher: WorkspaceWatcher | undefined;
  /** Off for good once a watcher could not even start (too many folders): not retried by every checkpoint. */
  private enabled = true;
  /** A checkpoint that took the watcher's list failed before it was staged: the next one walks the tree. */
  private walkNext = false;
  /** The nested repositories the last walk found, named again by checkpoints that do not walk. */
  private nestedFound: string[] = [];
  /** Paths known to be in the shadow index (never one that is not): they need no ignore check. */
  private tracked: Set<string> | undefined;

  constructor(
    private readonly repo: WatchedRepository,
    private readonly limits?: Partial<WatcherLimits>,
  ) {}

  /** The plan from the watcher's list, taken once every change made before this call has arrived. */
  async plan(created: boolean, carriedEmptyFolders: string[] | undefined): Promise<WatchedPlan> {
    let lostTrack: string | undefined;
    const walkNext = this.walkNext;
    // Until this checkpoint is staged, the list it takes is the only record of those changes.
    this.walkNext = true;
    if (this.watcher && !created) {
      const changes = await this.watcher.changes();
      if ('lost' in changes) {
        lostTrack = changes.lost;
        this.watcher.close();
        this.watcher = undefined;
      } else if (!walkNext && carriedEmptyFolders) {
        const plan = await this.planFromChanges(changes.paths, carriedEmptyFolders);
        if (plan) return { plan };
      }
    }
    if (this.enabled && !this.watcher) {
      const failed = await this.start();
      if (failed) lostTrack ??= failed;
    }
    return { lostTrack };
  }

  /** Starts the watcher; the reason when it could not. */
  private async start(): Promise<string | undefined> {
    const skip = new Set<string>();
    const [ignored, tracked] = await Promise.allSettled([this.repo.run(['ls-files', '-z', '--others', '--ignored', '--exclude-standard', '--directory']), this.repo.run(['ls-files', '-z'])]);
    // Ignored folders cost no watch. Without their list they are watched too: slower, never wrong.
    if (ignored.status === 'fulfilled') for (const path of nulList(ignored.value)) if (path.endsWith('/')) skip.add(path);
    this.tracked = tracked.status === 'fulfilled' ? new Set(nulList(tracked.value)) : undefined;
    if (this.repo.ownFolder) skip.add(`${this.repo.ownFolder}/`);
    const watcher = WorkspaceWatcher.start(this.repo.root, { skip, barrierFolder: join(this.repo.gitDir, 'cove-watch'), ...this.limits });
    if (!watcher) {
      this.enabled = false;
      return undefined;
    }
    if (watcher.lostTrack) {
      watcher.close();
      this.enabled = false;
      return `the file watcher could not start (${watcher.lostTrack}), so every checkpoint of this run walks the whole tree`;
    }
    this.watcher = watcher;
    return undefined;
  }

  private async planFromChanges(paths: readonly string[], carried: string[]): Promise<StagingPlan | undefined> {
    const { root } = this.repo;
    const changed = changedPaths(root, paths, this.repo.ownFolder);
    if (!changed) return undefined;
    const nested = new Set(this.nestedFound);
    // Tracked files are never ignored; only new files and new empty folders need git's word.
    const folders = changed.folders.filter((folder) => !carried.includes(folder) && isEmptyFolder(root, folder));
    const asked = [...changed.present.filter((path) => !this.tracked?.has(path)), ...folders.map((folder) => folder.slice(0, -1))];
    const ignored = new Set(asked.length > 0 ? nulList(await this.repo.run(['check-ignore', '-z', '--stdin'], asked.join('\0'), [1])) : []);
    const plan: StagingPlan = { toStage: [], gone: changed.gone, newLarge: [], vanished: [], skipped: [...nested].map(nestedText), nested, bytes: 0, emptyFolders: () => [] };
    for (const path of changed.present) {
      if (ignored.has(path)) continue;
      const size = this.repo.sizeOf(path);
      if (size > this.repo.sizeCap) plan.newLarge.push(path);
      else {
        plan.toStage.push(path);
        plan.bytes += size;
      }
    }
    const empty = [...carried, ...folders.filter((folder) => !ignored.has(folder.slice(0, -1)))].filter((folder) => isEmptyFolder(root, folder)).sort();
    plan.emptyFolders = () => empty;
    return plan;
  }

  /** Called once a plan is staged: the tracked set follows the index, and the list is no longer needed. */
  staged(plan: StagingPlan): void {
    this.walkNext = false;
    this.nestedFound = [...plan.nested];
    const tracked = this.tracked;
    if (!tracked) return;
    for (const path of plan.toStage) {
      if (this.repo.exists(path)) tracked.add(path);
      else tracked.delete(path);
    }
    for (const path of plan.newLarge) tracked.delete(path);
    if (plan.gone.length === 0) return;
    const prefixes = plan.gone.map((path) => `${path}/`);
    for (const path of plan.gone) tracked.delete(path);
    for (const path of tracked) if (prefixes.some((prefix) => path.startsWith(prefix))) tracked.delete(path);
  }

  close(): void {
    this.watcher?.close();
    this.watcher = undefined;
    this.tracked = undefined;
  }
}
