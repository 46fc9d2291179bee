/**
 * The reading side of a shadow repository (see shadow-repo.ts): what its checkpoints hold, how
 * two of them differ, and its HEAD. Rewind, review and revert only read; the ShadowRepo that
 * records checkpoints builds on this.
 */
import { createHash } from 'node:crypto';
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { git, GitError } from './git-runner';
import { nulList } from './watched-changes';

/** What a checkpoint's commit message holds besides its label. */
export interface CheckpointNotes {
  large: string[];
  emptyFolders: string[];
}

export interface TreeEntry {
  mode: string;
  sha: string;
}

export interface ChangedPath {
  /** A added, D deleted, M modified, T type changed (file ↔ symlink). */
  status: 'A' | 'D' | 'M' | 'T';
  path: string;
}

export function shadowDirFor(coveHome: string, root: string): string {
  return join(coveHome, 'checkpoints', createHash('sha256').update(root).digest('hex').slice(0, 20));
}

export class ShadowHistory {
  constructor(
    readonly gitDir: string,
    readonly root: string,
  ) {}

  exists(): boolean {
    return existsSync(join(this.gitDir, 'HEAD'));
  }

  protected run(args: readonly string[], input?: string | Buffer, acceptExit?: readonly number[], config?: readonly string[]): Promise<Buffer> {
    return git(args, { gitDir: this.gitDir, workTree: this.root, input, acceptExit, config, pathsNotPathspecs: args[0] === 'check-ignore' });
  }

  protected emptyFoldersPath(): string {
    return join(this.gitDir, 'cove-empty-folders');
  }

  /** The empty folders of the HEAD commit, when the file the last commit left says so. */
  protected lastEmptyFolders(): string[] | undefined {
    try {
      const [commit, json] = readFileSync(this.emptyFoldersPath(), 'utf8').split('\n');
      const head = readFileSync(join(this.gitDir, 'HEAD'), 'utf8').trim();
      const target = head.startsWith('ref: ') ? readFileSync(join(this.gitDir, head.slice(5)), 'utf8').trim() : head;
      return commit === target ? (JSON.parse(json!) as string[]) : undefined;
    } catch {
      return undefined;
    }
  }

  /** HEAD read from its files (a process fewer per checkpoint); git itself when it is packed or detached. */
  protected async head(): Promise<string | undefined> {
    try {
      const head = readFileSync(join(this.gitDir, 'HEAD'), 'utf8').trim();
      const target = head.startsWith('ref: ') ? readFileSync(join(this.gitDir, head.slice(5)), 'utf8').trim() : head;
      if (/^[0-9a-f]{40,64}$/.test(target)) return target;
    } catch {
      // Unborn, packed or odd: git knows.
    }
    try {
      return (await this.run(['rev-parse', '--verify', '--quiet', 'HEAD^{commit}'])).toString('utf8').trim() || undefined;
    } catch {
      return undefined;
    }
  }

  /** True when the commit is in this repository (a deleted and remade one lost its old commits). */
  async has(commit: string): Promise<boolean> {
    if (!this.exists()) return false;
    try {
      await this.run(['cat-file', '-e', `${commit}^{commit}`]);
      return true;
    } catch {
      return false;
    }
  }

  /** The files over the size cap when `commit` was recorded. */
  async largeAt(commit: string): Promise<string[]> {
    return (await this.notesAt(commit)).large;
  }

  /** The empty folders when `commit` was recorded (none for a checkpoint older than this list). */
  async emptyFoldersAt(commit: string): Promise<string[]> {
    return (await this.notesAt(commit)).emptyFolders;
  }

  protected async notesAt(commit: string): Promise<CheckpointNotes> {
    const body = (await this.run(['cat-file', 'commit', commit])).toString('utf8');
    const json = body
      .slice(body.indexOf('\n\n') + 2)
      .split('\n\n')
      .slice(1)
      .join('\n\n')
      .trim();
    const strings = (value: unknown) => (Array.isArray(value) ? value.filter((item): item is string => typeof item === 'string') : []);
    try {
      const parsed = JSON.parse(json) as { large?: unknown; emptyFolders?: unknown };
      return { large: strings(parsed.large), emptyFolders: strings(parsed.emptyFolders) };
    } catch {
      return { large: [], emptyFolders: [] };
    }
  }

  /** The paths that differ between two commits. */
  async changes(from: string, to: string): Promise<ChangedPath[]> {
    const parts = nulList(await this.run(['diff-tree', '-r', '-z', '--no-renames', '--name-status', from, to]));
    const changes: ChangedPath[] = [];
    for (let index = 0; index + 1 < parts.length; index += 2) {
      changes.push({ status: parts[index]!.slice(0, 1) as ChangedPath['status'], path: parts[index + 1]! });
    }
    return changes;
  }

  /** The entries of `commit` for `paths` (all of them when none are given); a path it lacks is absent. */
  async entries(commit: string, paths?: readonly string[]): Promise<Map<string, TreeEntry>> {
    const entries = new Map<string, TreeEntry>();
    if (paths && paths.length === 0) return entries;
    const args = ['ls-tree', '-r', '-z', '--full-tree', commit, ...(paths ? ['--', ...paths] : [])];
    for (const line of nulList(await this.run(args))) {
      const tab = line.indexOf('\t');
      const [mode, , sha] = line.slice(0, tab).split(' ');
      entries.set(line.slice(tab + 1), { mode: mode!, sha: sha! });
    }
    return entries;
  }

  async blob(sha: string): Promise<Buffer> {
    return this.run(['cat-file', 'blob', sha]);
  }

  /** Several blobs in one `git cat-file --batch`, in the order asked. */
  async blobs(shas: readonly string[]): Promise<Buffer[]> {
    const output = await this.run(['cat-file', '--batch'], `${shas.join('\n')}\n`);
    const blobs: Buffer[] = [];
    let at = 0;
    for (const sha of shas) {
      const end = output.indexOf(10, at);
      const header = output.subarray(at, end).toString('utf8').split(' ');
      if (header[1] !== 'blob') throw new GitError(`git cat-file: ${sha} is not a blob here (${header.slice(1).join(' ')})`, '', null);
      const size = Number(header[2]);
      blobs.push(output.subarray(end + 1, end + 1 + size));
      at = end + 1 + size + 1;
    }
    return blobs;
  }

  /** A unified diff between two commits, limited to `paths` when given. */
  async diff(from: string, to: string, paths?: readonly string[]): Promise<string> {
    const args = ['diff', '--no-color', '--no-ext-diff', '--no-textconv', '--no-renames', from, to, ...(paths ? ['--', ...paths] : [])];
    return (await this.run(args)).toString('utf8');
  }

  /**
   * `commit`'s tree with some entries replaced (undefined removes the path), written as a tree
   * of its own through an index file of its own: the repository's index, which the next
   * checkpoint starts from, is never touched.
   */
  async treeWith(commit: string, entries: ReadonlyMap<string, TreeEntry | undefined>): Promise<string> {
    const indexFile = join(this.gitDir, `cove-view-index-${process.pid}-${Math.random().toString(36).slice(2)}`);
    try {
      await git(['read-tree', commit], { gitDir: this.gitDir, indexFile });
      const zero = '0'.repeat(commit.length);
      const lines = [...entries].map(([path, entry]) => (entry ? `${entry.mode} ${entry.sha}\t${path}` : `0 ${zero}\t${path}`));
      await git(['update-index', '-z', '--index-info'], { gitDir: this.gitDir, indexFile, input: `${lines.join('\0')}\0` });
      return (await git(['write-tree'], { gitDir: this.gitDir, indexFile })).toString('utf8').trim();
    } finally {
      rmSync(indexFile, { force: true });
    }
  }

  /**
   * git's three-way merge of blobs (`git merge-file`): the change from `base` to `other` made
   * to each of `currents`, as new blobs; undefined for one where it does not apply cleanly. The
   * blobs are read in one process and the results written in one; the copies merge-file needs on
   * disk stay in this repository's folder, which only the person can read.
   */
  async merged(currents: readonly string[], base: string, other: string): Promise<Array<string | undefined>> {
    const folder = mkdtempSync(join(this.gitDir, 'cove-merge-'));
    try {
      const [baseBlob, otherBlob, ...currentBlobs] = await this.blobs([base, other, ...currents]);
      writeFileSync(join(folder, 'base'), baseBlob!, { mode: 0o600 });
      writeFileSync(join(folder, 'other'), otherBlob!, { mode: 0o600 });
      const results = await Promise.all(
        currentBlobs.map(async (blob, index) => {
          const current = join(folder, `current-${index}`);
          writeFileSync(current, blob, { mode: 0o600 });
          try {
            await git(['merge-file', '--quiet', current, join(folder, 'base'), join(folder, 'other')], { gitDir: this.gitDir });
            return current;
          } catch (error) {
            // A conflict (git exits with their number) or a file git cannot merge.
            if (error instanceof GitError) return undefined;
            throw error;
          }
        }),
      );
      const written = results.filter((path): path is string => path !== undefined);
      const shas = written.length === 0 ? [] : (await this.run(['hash-object', '-w', '--stdin-paths'], `${written.join('\n')}\n`)).toString('utf8').trim().split('\n');
      return results.map((path) => (path === undefined ? undefined : shas[written.indexOf(path)]));
    } finally {
      rmSync(folder, { recursive: true, force: true });
    }
  }
}
