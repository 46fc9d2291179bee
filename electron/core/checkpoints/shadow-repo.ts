/**
 * One workspace root's shadow repository: `COVE_HOME/checkpoints/<hash of the root>`, a git
 * directory of its own (objects, index, refs) whose work tree is the root. A snapshot asks
 * `git status` what changed since the last one (git's index stat cache makes that one cheap
 * walk on a warm tree), stages only those paths and writes a commit; the person's `.git` is
 * never opened, because GIT_DIR points here. Their `.gitignore` files live in the work tree and
 * apply as they are; Cove's own excludes and the files over the size cap go in this
 * repository's `info/exclude`. What a checkpoint holds is read through ShadowHistory
 * (shadow-history.ts); this file records them.
 */
import { existsSync, lstatSync, mkdirSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { dirname, isAbsolute, join, relative } from 'node:path';
import { findEmptyFolders } from './empty-folders';
import { git, GitError } from './git-runner';
import { shadowDirFor, ShadowHistory, type CheckpointNotes } from './shadow-history';
import { nestedText, nulList, WatchedChanges, type StagingPlan } from './watched-changes';
import type { WatcherLimits } from './workspace-watcher';

/** Folders no checkpoint wants even where no `.gitignore` says so (a folder that is not a git repository). */
// Importers of the repository also want the types of what it reads.
export { shadowDirFor, type ChangedPath, type CheckpointNotes, type TreeEntry } from './shadow-history';

export const COVE_EXCLUDES = ['node_modules/', '.venv/', '__pycache__/', '.DS_Store'];

export const DEFAULT_SIZE_CAP = 5 * 1024 * 1024;

/**
 * One checkpoint copies at most this much: a session started in a home folder or at `/` must
 * not fill the disk with a copy of it. Past either limit nothing is recorded, and the report
 * says how to narrow the workspace.
 */
export const MAX_FILES_PER_CHECKPOINT = 100_000;
export const MAX_BYTES_PER_CHECKPOINT = 2 * 1024 * 1024 * 1024;

export class CheckpointTooLarge extends Error {}

export interface Snapshot {
  root: string;
  commit: string;
  /** The shadow repository did not exist and was made for this snapshot. */
  created: boolean;
  /** Files over the size cap: noted, not copied. */
  large: string[];
  /** Files that changed while they were being recorded: their copy may be of either version. */
  changing: string[];
  /** What could not be recorded and why (an unreadable file, a nested repository). */
  skipped: string[];
  /** Folders with nothing in them, each ending in `/`: git keeps no folders, the commit message does. */
  emptyFolders: string[];
  /** Why the file watcher could not say what changed, so this checkpoint walked the whole tree. */
  lostTrack?: string;
  /** Staged from the watcher's list, without a walk of the tree. */
  watched?: boolean;
}

/** More files than this in one checkpoint go into a pack of their own. */
const BULK_FILES = 100;

export interface SnapshotOptions {
  /**
   * Nothing since the last checkpoint could have made or removed a folder (only file tools ran,
   * and they make no empty folders and delete none): its list of empty folders is kept and the
   * walk that finds them skipped. A folder on the list that has a file now still existed, which
   * is all a rewind asks of it.
   */
  foldersUnchanged?: boolean;
}

/** Escapes a path for a gitignore line, anchored at the root, so it names that one file. */
function excludeLine(path: string): string {
  const escaped = path
    .replace(/[\\*?[\]]/g, (char) => `\\${char}`)
    .replace(/^([!#])/, '\\$1')
    .replace(/ $/, '\\ ');
  return `/${escaped}`;
}

function statKey(path: string): string | undefined {
  try {
    const stats = lstatSync(path);
    return `${stats.size}:${stats.mtimeMs}:${stats.ino}`;
  } catch {
    return undefined;
  }
}

export class ShadowRepo extends ShadowHistory {
  /** COVE_HOME itself when it lies inside the root: the checkpoints must never record themselves. */
  private readonly ownFolder: string | undefined;
  private watched: WatchedChanges | undefined;

  constructor(
    coveHome: string,
    root: string,
    private readonly sizeCap = DEFAULT_SIZE_CAP,
    private readonly limits = { files: MAX_FILES_PER_CHECKPOINT, bytes: MAX_BYTES_PER_CHECKPOINT },
  ) {
    super(shadowDirFor(coveHome, root), root);
    const inside = relative(root, coveHome);
    this.ownFolder = inside && !inside.startsWith('..') && !isAbsolute(inside) ? inside.split('\\').join('/') : undefined;
  }

  /**
   * From now on this repository's checkpoints stage only what a file watcher saw change since
   * the last one (after its first, which walks the tree); `close` stops the watcher.
   */
  watchChanges(limits?: Partial<WatcherLimits>): void {
    this.watched ??= new WatchedChanges(
      {
        root: this.root,
        gitDir: this.gitDir,
        ownFolder: this.ownFolder,
        sizeCap: this.sizeCap,
        run: (args, input, acceptExit) => this.run(args, input, acceptExit),
        sizeOf: (path) => this.sizeOf(path),
        exists: (path) => statKey(join(this.root, path)) !== undefined,
      },
      limits,
    );
  }

  close(): void {
    this.watched?.close();
    this.watched = undefined;
  }

  /** Makes the repository when it is missing; true when it was made now. */
  async ensure(): Promise<boolean> {
    if (this.exists()) {
      if (!existsSync(join(this.gitDir, 'info', 'attributes'))) this.writeAttributes();
      return false;
    }
    // Copies of the person's files (an .env included) are theirs alone to read.
    mkdirSync(this.gitDir, { recursive: true, mode: 0o700 });
    await git(['init', '--quiet', '--bare', '--template=', this.gitDir], { gitDir: this.gitDir });
    // A bare repository refuses a work tree unless it is told it is not bare.
    await git(['config', 'core.bare', 'false'], { gitDir: this.gitDir });
    writeFileSync(join(this.gitDir, 'cove-root'), `${this.root}\n`);
    this.writeAttributes();
    this.writeExcludes(this.largeFiles());
    return true;
  }

  /**
   * A checkpoint keeps bytes as they are: the project's .gitattributes (text=auto, eol, filters
   * such as LFS, working-tree-encoding) must not convert what is recorded or restored.
   */
  private writeAttributes(): void {
    mkdirSync(join(this.gitDir, 'info'), { recursive: true });
    writeFileSync(join(this.gitDir, 'info', 'attributes'), '* -text -filter -ident !eol !working-tree-encoding\n');
  }

  private largeListPath(): string {
    return join(this.gitDir, 'cove-large-files');
  }

  private largeFiles(): string[] {
    try {
      return readFileSync(this.largeListPath(), 'utf8').split('\n').filter(Boolean);
    } catch {
      return [];
    }
  }

  private writeExcludes(large: readonly string[]): void {
    mkdirSync(join(this.gitDir, 'info'), { recursive: true });
    const own = this.ownFolder ? [`${excludeLine(this.ownFolder)}/`] : [];
    const lines = ['# Cove: folders never recorded', ...COVE_EXCLUDES, ...own, '# Cove: files over the size cap', ...large.map(excludeLine)];
    writeFileSync(join(this.gitDir, 'info', 'exclude'), `${lines.join('\n')}\n`);
    writeFileSync(this.largeListPath(), large.length > 0 ? `${large.join('\n')}\n` : '');
  }

  private isLarge(path: string): boolean {
    return this.sizeOf(path) > this.sizeCap;
  }

  /** A regular file's size; 0 for anything else or a path gone. */
  private sizeOf(path: string): number {
    try {
      const stats = lstatSync(join(this.root, path));
      return stats.isFile() ? stats.size : 0;
    } catch {
      return 0;
    }
  }

  /**
   * Records the root as it is now, as a commit on the shadow HEAD: every checkpoint is an
   * ancestor of HEAD, so none needs a ref of its own to stay. Throws only when nothing could be
   * recorded; one unreadable file is reported in `skipped`.
   */
  async snapshot(label: string, options: SnapshotOptions = {}): Promise<Snapshot> {
    // Git is never killed half-way (a cancelled run waits for its checkpoint): a killed `git add`
    // would leave index.lock behind. Another process checkpointing the same root holds the lock
    // for a moment; a lock older than a minute is what a crashed process left.
    for (let attempt = 0; ; attempt++) {
      try {
        const first = await this.record(label, options);
        if (first.changing.length === 0) return first;
        // Recorded once more: a file written at that moment (another call's temp file) has
        // usually settled by now; only what is still changing is reported.
        const second = await this.record(label, options);
        return { ...second, created: first.created, skipped: [...new Set([...first.skipped, ...second.skipped])] };
      } catch (error) {
        if (!(error instanceof GitError) || !/index\.lock/.test(error.stderr) || attempt >= 20) throw error;
        this.clearStaleLock();
        await new Promise((resolve) => setTimeout(resolve, 50));
      }
    }
  }

  private clearStaleLock(): void {
    const lock = join(this.gitDir, 'index.lock');
    try {
      if (Date.now() - lstatSync(lock).mtimeMs > 60_000) rmSync(lock, { force: true });
    } catch {
      // Gone already.
    }
  }

  private async record(label: string, options: SnapshotOptions): Promise<Snapshot> {
    const created = await this.ensure();
    // A file that shrank under the cap is recorded again from now on.
    const previousLarge = this.largeFiles();
    const stillLarge = previousLarge.filter((path) => this.isLarge(path));
    if (stillLarge.length !== previousLarge.length) this.writeExcludes(stillLarge);

    const { plan, lostTrack, watched } = await this.plan(created, options);
    const { toStage, gone, newLarge, vanished, skipped, bytes } = plan;
    if (toStage.length > this.limits.files || bytes > this.limits.bytes) {
      throw new CheckpointTooLarge(
        `${toStage.length} files (${bytes} bytes) changed since the last checkpoint, more than one checkpoint copies (${this.limits.files} files, ${this.limits.bytes} bytes); is the workspace a home folder? Ignore the bulk in a .gitignore, or choose a smaller folder`,
      );
    }
    if (newLarge.length > 0) {
      this.writeExcludes([...stillLarge, ...newLarge]);
      await this.run(['rm', '--cached', '--quiet', '--ignore-unmatch', '--pathspec-from-file=-', '--pathspec-file-nul'], newLarge.join('\0'));
    }
    const before = new Map(toStage.map((path) => [path, statKey(join(this.root, path))]));
    await this.stageIndex(toStage, gone, vanished, skipped);
    this.watched?.staged(plan);
    const changing = [...vanished, ...toStage.filter((path) => statKey(join(this.root, path)) !== before.get(path))];
    const large = [...stillLarge, ...newLarge];
    const emptyFolders = await plan.emptyFolders();
    const parent = await this.head();
    // Nothing new since the last checkpoint: it stands for this one too.
    if (parent && toStage.length === 0 && gone.length === 0 && newLarge.length === 0 && stillLarge.length === previousLarge.length && (await this.sameEmptyFolders(parent, emptyFolders))) {
      return { root: this.root, commit: parent, created, large, changing, skipped, emptyFolders, lostTrack, watched };
    }
    const notes: CheckpointNotes = { large, emptyFolders };
    const message = `Cove checkpoint ${label}\n\n${JSON.stringify(notes)}\n`;
    // write-tree and commit-tree, not `git commit`: commit would stat the whole tree once more.
    const tree = (await this.run(['write-tree'])).toString('utf8').trim();
    const commit = (await this.run(['commit-tree', tree, ...(parent ? ['-p', parent] : []), '-F', '-'], message)).toString('utf8').trim();
    this.moveHead(commit);
    writeFileSync(this.emptyFoldersPath(), `${commit}\n${JSON.stringify(emptyFolders)}\n`);
    return { root: this.root, commit, created, large, changing, skipped, emptyFolders, lostTrack, watched };
  }

  /** What to stage: from the watcher's list when it runs and vouches for it, else from git status. */
  private async plan(created: boolean, options: SnapshotOptions): Promise<{ plan: StagingPlan; lostTrack?: string; watched?: boolean }> {
    if (!this.watched) return { plan: await this.planFromStatus(options) };
    const { plan, lostTrack } = await this.watched.plan(created, this.lastEmptyFolders());
    return plan ? { plan, watched: true } : { plan: await this.planFromStatus(options), lostTrack };
  }

  private async planFromStatus(options: SnapshotOptions): Promise<StagingPlan> {
    const carried = options.foldersUnchanged ? this.lastEmptyFolders() : undefined;
    // Both walks at once: folders with no tracked file in them come from the second.
    const [statusOutput, otherFolders] = await Promise.all([
      this.run(['status', '--porcelain=v1', '-z', '--untracked-files=all', '--no-renames', '--ignore-submodules=all']),
      carried ? undefined : this.run(['ls-files', '-z', '--others', '--directory', '--exclude-standard']),
    ]);
    const plan: StagingPlan = {
      toStage: [],
      gone: [],
      newLarge: [],
      vanished: [],
      skipped: [],
      nested: new Set(),
      bytes: 0,
      emptyFolders: () => carried ?? findEmptyFolders(this.root, nulList(otherFolders!), plan.nested),
    };
    for (const entry of nulList(statusOutput)) {
      const code = entry.slice(0, 2);
      const path = entry.slice(3);
      if (code === '??' && path.endsWith('/')) {
        plan.nested.add(path);
        continue;
      }
      const size = code[1] === 'D' ? 0 : this.sizeOf(path);
      if (size > this.sizeCap) plan.newLarge.push(path);
      else if (code === '??' && statKey(join(this.root, path)) === undefined) plan.vanished.push(path);
      else {
        plan.toStage.push(path);
        plan.bytes += size;
      }
    }
    plan.skipped.push(...[...plan.nested].map(nestedText));
    return plan;
  }

  /**
   * One `git update-index` for every path (git add would match each path against every other
   * one, which is quadratic on a first copy of 20,000 files). Many files at once are streamed
   * into one pack rather than a loose object file each (core.bigFileThreshold): the first copy
   * of a big tree was mostly spent creating 20,000 small files. A file git could not read makes
   * update-index give up whole; `git add --ignore-errors` then stages the rest and names it.
   */
  private async stageIndex(paths: string[], gone: string[], vanished: string[], skipped: string[]): Promise<void> {
    if (gone.length > 0) await this.run(['rm', '-r', '-f', '--cached', '--quiet', '--ignore-unmatch', '--pathspec-from-file=-', '--pathspec-file-nul'], gone.join('\0'));
    if (paths.length === 0) return;
    const config = paths.length > BULK_FILES ? ['core.bigFileThreshold=1'] : [];
    try {
      await this.run(['update-index', '--add', '--remove', '--replace', '-z', '--stdin'], paths.join('\0'), undefined, config);
    } catch (error) {
      if (!(error instanceof GitError) || error.diskFull) throw error;
      await this.stage(paths, vanished, skipped, config);
    }
  }

  /** Whether `commit` recorded these empty folders: read from the file the last commit left, else from the commit itself. */
  private async sameEmptyFolders(commit: string, emptyFolders: readonly string[]): Promise<boolean> {
    let recorded: string[];
    try {
      const [cached, json] = readFileSync(this.emptyFoldersPath(), 'utf8').split('\n');
      recorded = cached === commit ? (JSON.parse(json!) as string[]) : (await this.notesAt(commit)).emptyFolders;
    } catch {
      recorded = (await this.notesAt(commit)).emptyFolders;
    }
    return recorded.length === emptyFolders.length && recorded.every((path, index) => path === emptyFolders[index]);
  }

  /**
   * Points the branch HEAD names at `commit`, written the way git writes a loose ref (a temp file
   * renamed over it), saving a process per checkpoint. Two processes racing here lose nothing:
   * each checkpoint is kept by the commit id its event names, and this repository is never
   * garbage-collected.
   */
  private moveHead(commit: string): void {
    const head = readFileSync(join(this.gitDir, 'HEAD'), 'utf8').trim();
    const ref = head.startsWith('ref: refs/') ? head.slice(5) : 'HEAD';
    const path = join(this.gitDir, ref);
    mkdirSync(dirname(path), { recursive: true });
    const temporary = `${path}.cove-${process.pid}.lock`;
    writeFileSync(temporary, `${commit}\n`);
    renameSync(temporary, path);
  }

  /**
   * `git add --all` of the paths status named. A file that vanished since (git names it: the
   * pathspec matches nothing) is dropped and the rest staged again; with --ignore-errors git
   * stages every file it could read and names the others.
   */
  private async stage(paths: string[], vanished: string[], skipped: string[], config: readonly string[]): Promise<void> {
    let pending = paths;
    for (let attempt = 0; pending.length > 0 && attempt < 5; attempt++) {
      try {
        await this.run(['add', '--all', '--ignore-errors', '--pathspec-from-file=-', '--pathspec-file-nul'], pending.join('\0'), undefined, config);
        return;
      } catch (error) {
        if (!(error instanceof GitError) || error.diskFull) throw error;
        const missing = /pathspec '(.*)' did not match any files/.exec(error.stderr)?.[1];
        if (missing !== undefined && pending.includes(missing)) {
          vanished.push(missing);
          pending = pending.filter((path) => path !== missing);
          continue;
        }
        if (!/unable to index|open\(|failed to insert/.test(error.stderr)) throw error;
        for (const line of error.stderr.split('\n')) if (/^error: /.test(line)) skipped.push(line.replace(/^error: /, ''));
        return;
      }
    }
  }
}
