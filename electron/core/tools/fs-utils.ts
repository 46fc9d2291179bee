/**
 * File helpers the file tools share: errors a model can act on, text loading with the binary and
 * size checks done before the whole file is read, line endings, and atomic writes.
 */
import { randomBytes } from 'node:crypto';
import { closeSync, constants, fchmodSync, fstatSync, fsyncSync, promises as fs, readFile, readSync, writeFile, type Stats } from 'node:fs';
import { basename, dirname, join } from 'node:path';
import { ToolError } from '../agent/types';
import { openVerified, renameVerified } from './open-verified';

/** Files larger than this are not read, edited or searched as text. */
export const TEXT_SIZE_LIMIT = 10 * 1024 * 1024;
/** A NUL byte in this much of the head of a file marks it binary. */
export const BINARY_SNIFF_BYTES = 8192;

/** For the rare count with a fraction; made on first use, since the first Intl object loads ICU's locale data. */
let countFormat: Intl.NumberFormat | undefined;

/**
 * A count as en-US writes it (1,234,567). Whole numbers are grouped by hand: tool descriptions
 * format counts at start-up, and Intl's first use there cost about 40 ms of every run.
 */
export function formatCount(value: number): string {
  if (Number.isSafeInteger(value)) return String(value).replace(/\B(?=(\d{3})+$)/g, ',');
  countFormat ??= new Intl.NumberFormat('en-US');
  return countFormat.format(value);
}

/** "1 line", "2 lines", "1,024 lines": a count with its noun, plural unless exactly one. */
export function countOf(value: number, noun: string): string {
  return `${formatCount(value)} ${value === 1 ? noun : `${noun}s`}`;
}

export function formatBytes(bytes: number): string {
  const units = ['bytes', 'KB', 'MB', 'GB', 'TB'];
  let value = bytes;
  let unit = 0;
  while (value >= 1024 && unit < units.length - 1) {
    value /= 1024;
    unit++;
  }
  return unit === 0 ? `${bytes} bytes` : `${value.toFixed(value < 10 ? 1 : 0)} ${units[unit]}`;
}

/**
 * A ToolError for a failed file system call. Only the error code is kept from the system's
 * message, which would otherwise carry the absolute path (and with it the workspace root).
 */
export function fileError(error: unknown, display: string, action: string): ToolError {
  if (error instanceof ToolError) return error;
  const code = (error as NodeJS.ErrnoException | undefined)?.code;
  switch (code) {
    case 'ENOENT':
      return ToolError.notFound(`${display} does not exist`);
    case 'EACCES':
    case 'EPERM':
      return ToolError.failed(`Permission denied: cannot ${action} ${display}`);
    case 'EISDIR':
      return ToolError.failed(`${display} is a directory, not a file`);
    case 'ENOTDIR':
      return ToolError.notFound(`${display} does not exist (a folder in that path is a file)`);
    case 'EROFS':
      return ToolError.failed(`Cannot ${action} ${display}: the file system is read-only`);
    case 'ENOSPC':
      return ToolError.failed(`Cannot ${action} ${display}: no space left on the device`);
    case 'ELOOP':
      return ToolError.failed(`${display} has too many levels of symbolic links`);
    default:
      return ToolError.failed(`Cannot ${action} ${display}${code ? ` (${code})` : ''}`);
  }
}

export function containsNul(bytes: Uint8Array, limit = bytes.length): boolean {
  const end = Math.min(limit, bytes.length);
  const index = bytes.indexOf(0);
  return index !== -1 && index < end;
}

/** Why `loadText` refused a file that exists and can be opened. */
export function refusalReason(error: unknown): 'binary' | 'tooLarge' | undefined {
  if (!(error instanceof ToolError)) return undefined;
  const reason = (error.details as { reason?: unknown } | undefined)?.reason;
  return reason === 'binary' || reason === 'tooLarge' ? reason : undefined;
}

export interface LoadedText {
  text: string;
  stats: Stats;
}

/**
 * Reads a regular file as UTF-8 text, checking size (from stat, before reading) and binary
 * content (a NUL in the first 8 KB, from a small read) so that a huge or binary file is never
 * read whole. `action` words the errors ("read", "edit").
 */
export async function loadText(absolute: string, display: string, action: string, sizeLimit = TEXT_SIZE_LIMIT): Promise<LoadedText> {
  let fd: number;
  try {
    // Non-blocking, so that a FIFO put where a file was expected cannot hang the open.
    fd = openVerified(absolute, constants.O_RDONLY | constants.O_NONBLOCK, display);
  } catch (error) {
    throw fileError(error, display, action);
  }
  try {
    const stats = fstatSync(fd);
    if (stats.isDirectory()) throw ToolError.failed(`${display} is a directory, not a file; use list_files to see what it contains`);
    if (!stats.isFile()) throw ToolError.failed(`${display} is not a regular file`);
    if (stats.size > sizeLimit) {
      throw ToolError.failed(
        `${display} is ${formatBytes(stats.size)}, over the ${formatBytes(sizeLimit)} limit for text files; ` +
          'use search to find the part you need, or bash (head, tail, sed -n) to read a slice',
        { reason: 'tooLarge' },
      );
    }
    const head = Buffer.alloc(Math.min(BINARY_SNIFF_BYTES, stats.size));
    const bytesRead = readSync(fd, head, 0, head.length, 0);
    if (containsNul(head, bytesRead)) {
      throw ToolError.failed(`${display} is a binary file (it contains NUL bytes); it cannot be shown or edited as text`, {
        reason: 'binary',
      });
    }
    // Read from the verified descriptor, never from the path again.
    const whole = await new Promise<Buffer>((resolve, reject) => readFile(fd, (error, data) => (error ? reject(error) : resolve(data))));
    return { text: whole.toString('utf8'), stats };
  } catch (error) {
    throw fileError(error, display, action);
  } finally {
    closeSync(fd);
  }
}

export type LineEnding = '\n' | '\r\n';

/** The file's line ending: CRLF when most of its line breaks are CRLF. */
export function detectLineEnding(text: string): LineEnding {
  let crlf = 0;
  let lf = 0;
  for (let index = text.indexOf('\n'); index !== -1; index = text.indexOf('\n', index + 1)) {
    if (index > 0 && text.charCodeAt(index - 1) === 13) crlf++;
    else lf++;
  }
  return crlf > lf ? '\r\n' : '\n';
}

export function toLf(text: string): string {
  return text.includes('\r\n') ? text.replace(/\r\n/g, '\n') : text;
}

export function withLineEnding(lfText: string, ending: LineEnding): string {
  return ending === '\n' ? lfText : lfText.replace(/\n/g, '\r\n');
}

/**
 * Writes `content` to a flushed temp file beside `absolute` (same file system, so a rename over
 * the target is atomic), with the target's permissions when it exists; returns the temp path.
 * The caller renames it into place, or removes it.
 */
export async function stageBeside(absolute: string, content: string, display = absolute): Promise<string> {
  const mode = await fs.stat(absolute).then(
    (stats) => stats.mode & 0o7777,
    (error: NodeJS.ErrnoException) => {
      if (error.code === 'ENOENT') return undefined;
      throw error;
    },
  );
  const temp = join(dirname(absolute), `.${basename(absolute)}.cove-${randomBytes(6).toString('hex')}.tmp`);
  // Created inside the checked folder, or not at all (openVerified removes a temp that landed
  // elsewhere); written through its verified descriptor.
  const fd = openVerified(temp, constants.O_WRONLY | constants.O_CREAT | constants.O_EXCL, display, mode ?? 0o666);
  try {
    await new Promise<void>((resolve, reject) => writeFile(fd, content, 'utf8', (error) => (error ? reject(error) : resolve())));
    // The creation mode is filtered by the umask; the old file's mode must survive as it was.
    if (mode !== undefined) fchmodSync(fd, mode);
    fsyncSync(fd);
  } catch (error) {
    closeSync(fd);
    await fs.rm(temp, { force: true }).catch(() => undefined);
    throw error;
  }
  closeSync(fd);
  return temp;
}

/** Puts a staged temp file in place of `absolute`, checked before and after (see renameVerified). */
export function commitStaged(temp: string, absolute: string, display: string): void {
  renameVerified(temp, absolute, display);
}

/**
 * Replaces `absolute` with `content` so that readers see the old file or the new one, never a
 * mix: staged beside it, flushed, given the old file's permissions, renamed over the target.
 * Missing parent folders are created; the folder must still be the checked one afterwards.
 */
export async function writeAtomic(absolute: string, content: string, display: string): Promise<{ created: boolean }> {
  const folder = dirname(absolute);
  let created = false;
  let temp: string | undefined;
  try {
    created = await fs.access(absolute).then(
      () => false,
      () => true,
    );
    await fs.mkdir(folder, { recursive: true });
    temp = await stageBeside(absolute, content, display);
    commitStaged(temp, absolute, display);
    temp = undefined;
  } catch (error) {
    if (temp) await fs.rm(temp, { force: true }).catch(() => undefined);
    throw fileError(error, display, 'write');
  }
  await syncFolder(folder);
  return { created };
}

/** Makes the rename itself durable; not every platform can open a folder, which is harmless. */
async function syncFolder(folder: string): Promise<void> {
  try {
    const handle = await fs.open(folder, 'r');
    try {
      await handle.sync();
    } finally {
      await handle.close();
    }
  } catch {
    // Durability of the rename is best effort; the write itself has succeeded.
  }
}
