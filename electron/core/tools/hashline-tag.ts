/**
 * File tags for hashline edits. `read_file` prints `[path#TAG]`; `hashline_edit` checks the tag
 * against the live file to know whether the line numbers the model saw still hold.
 *
 * The tag is taken over the NORMALIZED content so that changes a model cannot see or does not
 * care about (CRLF vs LF, trailing blanks, trailing newlines) do not invalidate its line numbers.
 */
import { createHash } from 'node:crypto';

/** 36^6: six base-36 digits. */
const TAG_SPACE = 2_176_782_336;

export const TAG_PATTERN = /^[0-9a-z]{6}$/;

/** Spaces, tabs, CR, form feed, vertical tab: what we strip at line ends. */
function isTrailingSpace(code: number): boolean {
  return code === 32 || code === 9 || code === 13 || code === 12 || code === 11;
}

/** Anything the normalization would change apart from trailing newlines (checked in one linear pass). */
const NEEDS_LINE_TRIM = /\r|[ \t\f\v](?:\n|$)/;

function trimLineEnd(line: string): string {
  let end = line.length;
  while (end > 0 && isTrailingSpace(line.charCodeAt(end - 1))) end--;
  return end === line.length ? line : line.slice(0, end);
}

/**
 * CRLF → LF, trailing whitespace stripped on every line, trailing newlines dropped.
 * `read_file` stores exactly this in the snapshot store, so line N of the normalized text is
 * line N of what the model was shown.
 */
export function normalizeContent(content: string): string {
  let text = content;
  if (NEEDS_LINE_TRIM.test(text)) {
    const lines = text.split('\n');
    for (let i = 0; i < lines.length; i++) lines[i] = trimLineEnd(lines[i]!);
    text = lines.join('\n');
  }
  let end = text.length;
  while (end > 0 && text.charCodeAt(end - 1) === 10) end--;
  return end === text.length ? text : text.slice(0, end);
}

/** The lines of normalized content; an empty file has none. */
export function normalizedLines(content: string): string[] {
  const normalized = normalizeContent(content);
  return normalized === '' ? [] : normalized.split('\n');
}

/** Hash of already-normalized text (sha1 is native and beats a JS FNV loop beyond a few KB). */
export function tagOfNormalized(normalized: string): string {
  const digest = createHash('sha1').update(normalized).digest();
  return (digest.readUInt32BE(0) % TAG_SPACE).toString(36).padStart(6, '0');
}

/** A 6-character base-36 tag of the file's normalized content. */
export function hashTag(content: string): string {
  return tagOfNormalized(normalizeContent(content));
}
