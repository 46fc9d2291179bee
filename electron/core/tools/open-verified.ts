/**
 * Opening and renaming what the sandbox checked. `resolveInWorkspace` gives a real path (no
 * symlink left in it) inside a root; between that check and the use, a folder on the path can
 * be swapped for a symlink. So the use is verified on what it touched:
 *
 * - an open adds O_NOFOLLOW (a last component swapped for a link fails) and then asks the kernel
 *   where the opened descriptor really is (`/proc/self/fd/N` on Linux); anything but the checked
 *   path is closed and refused. Where there is no /proc (macOS: Node cannot call
 *   fcntl(F_GETPATH)), the path is resolved again after the open and the descriptor's device and
 *   inode must be those of the file found there: a swap that is undone between the open and that
 *   check is not seen, everything else is.
 * - a rename is checked and done synchronously, with no turn of the event loop or the thread pool
 *   between them, then verified: the renamed file must be found at the target; one that landed
 *   elsewhere is removed there and the write refused.
 *
 * Errors name the path the model gave, never the roots.
 */
import { closeSync, constants, fstatSync, lstatSync, openSync, readlinkSync, realpathSync, renameSync, statSync, unlinkSync } from 'node:fs';
import { dirname } from 'node:path';
import { ToolError } from '../agent/types';

const HAS_PROC_FD = (() => {
  try {
    return process.platform === 'linux' && readlinkSync('/proc/self/fd/0') !== '';
  } catch {
    return false;
  }
})();

/** Where the kernel says an open descriptor is, or undefined where it cannot say. */
export function descriptorPath(fd: number): string | undefined {
  if (!HAS_PROC_FD) return undefined;
  const path = readlinkSync(`/proc/self/fd/${fd}`);
  // A file removed after it was opened reads "path (deleted)": it is not at the path any more.
  return path.endsWith(' (deleted)') ? `${path} (deleted)` : path;
}

function escaped(display: string): ToolError {
  return ToolError.failed(`${display} changed while it was being opened (a folder on its path was replaced by a link); nothing was read or written`);
}

/** True when `fd` is the file at the real path `expected`. */
export function isDescriptorAt(fd: number, expected: string): boolean {
  const path = descriptorPath(fd);
  if (path !== undefined) return path === expected;
  try {
    if (realpathSync.native(expected) !== expected) return false;
    const opened = fstatSync(fd);
    const found = statSync(expected);
    return opened.dev === found.dev && opened.ino === found.ino;
  } catch {
    return false;
  }
}

/**
 * Opens the real path `absolute` (from `resolveInWorkspace`) and proves the descriptor is that
 * file. `flags` are numeric open flags; O_NOFOLLOW is added.
 */
export function openVerified(absolute: string, flags: number, display: string, mode?: number): number {
  const fd = openSync(absolute, flags | constants.O_NOFOLLOW, mode);
  if (isDescriptorAt(fd, absolute)) return fd;
  // A file this open created in the wrong place is removed there, so the escape leaves nothing.
  if (flags & constants.O_CREAT) {
    const landed = descriptorPath(fd);
    if (landed && !landed.endsWith('(deleted)')) unlinkSync(landed);
  }
  closeSync(fd);
  throw escaped(display);
}

/**
 * Renames the staged `temp` over `target` (both real paths in one checked folder): the folder
 * is checked to be where it was and the temp file to be the one staged, the rename follows at
 * once, and the file is then looked for at the target. One that landed elsewhere (the folder was
 * replaced in the instant between) is removed from there and the write refused.
 */
export function renameVerified(temp: string, target: string, display: string): void {
  const folder = dirname(target);
  const staged = lstatSync(temp);
  if (!staged.isFile() || realpathSync.native(folder) !== folder) {
    unlinkSync(temp);
    throw escaped(display);
  }
  renameSync(temp, target);
  let landed: { dev: number; ino: number } | undefined;
  try {
    if (realpathSync.native(folder) === folder) landed = lstatSync(target);
  } catch {
    landed = undefined;
  }
  if (landed && landed.dev === staged.dev && landed.ino === staged.ino) return;
  rollBack(target, staged);
  throw escaped(display);
}

/** Removes the renamed file wherever `target` now leads, if it is the one that was staged. */
function rollBack(target: string, staged: { dev: number; ino: number }): void {
  try {
    const there = statSync(target);
    if (there.dev === staged.dev && there.ino === staged.ino) unlinkSync(target);
  } catch {
    // Nothing of ours is reachable at the target; there is nothing to take back.
  }
}
