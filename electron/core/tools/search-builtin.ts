/**
 * The search engine used when ripgrep is not installed. It follows ripgrep's choices so that
 * both give the same results: the same walker rules (see walk.ts), files with a NUL byte and
 * files over the size limit skipped, UTF-16 files with a byte-order mark decoded, and a match
 * counted once per line.
 */
import { closeSync, constants, fstatSync, readSync } from 'node:fs';
import { TEXT_SIZE_LIMIT } from './fs-utils';
import { openVerified } from './open-verified';
import type { MatchCollector } from './search-results';
import type { SearchRequest } from './search-pattern';
import { forEachSliced, walk, type WalkEntry } from './walk';

/** Reused for every file that fits, so small files cost no allocation. */
const sharedBuffer = Buffer.allocUnsafe(256 * 1024);

/**
 * The file's bytes (valid up to `length`), or undefined when it is too large or unreadable.
 * Most files fit the shared buffer in one read, so they cost three system calls: open, read,
 * close. Only a file that fills the buffer is measured and read on.
 */
function readBytes(absolute: string, sizeLimit: number): { bytes: Buffer; length: number } | undefined {
  let descriptor: number;
  try {
    // Verified like every file tool's open: a folder swapped for a link mid-search is skipped.
    descriptor = openVerified(absolute, constants.O_RDONLY | constants.O_NONBLOCK, absolute);
  } catch {
    return undefined;
  }
  try {
    const first = readSync(descriptor, sharedBuffer, 0, sharedBuffer.length, null);
    if (first < sharedBuffer.length) return { bytes: sharedBuffer, length: first };
    const size = fstatSync(descriptor).size;
    if (size > sizeLimit) return undefined;
    // Room for one byte more than stat says, to notice a file that grew meanwhile.
    const bytes = Buffer.allocUnsafe(Math.max(size, first) + 1);
    sharedBuffer.copy(bytes, 0, 0, first);
    let length = first;
    for (let read = -1; read !== 0 && length < bytes.length; length += read) {
      read = readSync(descriptor, bytes, length, bytes.length - length, null);
    }
    return length > sizeLimit || length === bytes.length ? undefined : { bytes, length };
  } catch {
    return undefined;
  } finally {
    closeSync(descriptor);
  }
}

const utf16be = new TextDecoder('utf-16be');

/** The file as text, or undefined when it is binary (as ripgrep decides). */
export function decode(bytes: Buffer, length: number): string | undefined {
  if (length >= 2 && bytes[0] === 0xff && bytes[1] === 0xfe) return bytes.toString('utf16le', 2, length);
  if (length >= 2 && bytes[0] === 0xfe && bytes[1] === 0xff) return utf16be.decode(bytes.subarray(2, length));
  const nul = bytes.indexOf(0);
  if (nul !== -1 && nul < length) return undefined;
  const hasBom = length >= 3 && bytes[0] === 0xef && bytes[1] === 0xbb && bytes[2] === 0xbf;
  return bytes.toString('utf8', hasBom ? 3 : 0, length);
}

/**
 * Adds every matching line of `text` to the collector; false when the collector is full.
 * The pattern runs over the whole text (much faster than line by line); a match that spills
 * over a line break only counts if the line also matches on its own, as in a line-based grep.
 */
export function scanText(text: string, displayPath: string, request: SearchRequest, collector: MatchCollector): boolean {
  const { scanner, finder } = request;
  scanner.lastIndex = 0;
  let lineNumber = 1;
  let counted = 0;
  for (;;) {
    const match = scanner.exec(text);
    if (!match) return true;
    // Nothing follows a final line break: that empty remainder is not a line.
    if (match.index >= text.length && (text.length === 0 || text.endsWith('\n'))) return true;
    const lineStart = text.lastIndexOf('\n', match.index - 1) + 1;
    let lineEnd = text.indexOf('\n', match.index);
    if (lineEnd === -1) lineEnd = text.length;
    for (let at = text.indexOf('\n', counted); at !== -1 && at < lineStart; at = text.indexOf('\n', at + 1)) lineNumber++;
    counted = lineStart;
    let line = text.slice(lineStart, lineEnd);
    if (line.endsWith('\r')) line = line.slice(0, -1);
    const withinLine = match.index + match[0].length <= lineEnd;
    if (withinLine || finder.test(line)) {
      if (!collector.add(displayPath, lineNumber, line)) return false;
    }
    if (lineEnd >= text.length) return true;
    scanner.lastIndex = lineEnd + 1;
  }
}

/** Searches one file (a search whose path is a file). */
export function searchFile(absolute: string, displayPath: string, request: SearchRequest, collector: MatchCollector): void {
  const file = readBytes(absolute, TEXT_SIZE_LIMIT);
  const text = file && decode(file.bytes, file.length);
  if (text !== undefined) scanText(text, displayPath, request, collector);
}

export async function searchBuiltin(request: SearchRequest, collector: MatchCollector, signal: AbortSignal): Promise<void> {
  const visit = (entry: WalkEntry): boolean => {
    if (entry.kind !== 'file' || !request.admits(entry.relative)) return true;
    const file = readBytes(entry.absolute, TEXT_SIZE_LIMIT);
    const text = file && decode(file.bytes, file.length);
    return text === undefined || scanText(text, request.prefix + entry.relative, request, collector);
  };
  await forEachSliced(walk(request.folder), visit, signal);
}
