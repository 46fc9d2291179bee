/**
 * Unified diffs for the `diff` field of write and edit results. Texts are compared with LF line
 * endings so that a CRLF file's diff shows the change, not a carriage return on every line.
 */
import { formatPatch, structuredPatch } from 'diff';
import { toLf } from './fs-utils';

export interface FileDiff {
  /** Unified diff text; empty when nothing changed. */
  diff: string;
  added: number;
  removed: number;
}

/** Beyond this many changed lines jsdiff's search gets slow; the diff is then summarized. */
const MAX_EDIT_LENGTH = 20_000;
const TIMEOUT_MS = 2_000;

/** `before` is null for a file that did not exist. */
export function fileDiff(display: string, before: string | null, after: string): FileDiff {
  const oldText = toLf(before ?? '');
  const newText = toLf(after);
  if (before !== null && oldText === newText) return { diff: '', added: 0, removed: 0 };
  const oldName = before === null ? '/dev/null' : `a/${display}`;
  const patch = structuredPatch(oldName, `b/${display}`, oldText, newText, undefined, undefined, {
    context: 3,
    maxEditLength: MAX_EDIT_LENGTH,
    timeout: TIMEOUT_MS,
  });
  if (!patch) {
    const removed = lineCount(oldText);
    const added = lineCount(newText);
    return { diff: `--- ${oldName}\n+++ b/${display}\n(the change is too large to diff: ${removed} lines before, ${added} after)\n`, added, removed };
  }
  let added = 0;
  let removed = 0;
  for (const hunk of patch.hunks) {
    for (const line of hunk.lines) {
      if (line.startsWith('+')) added++;
      else if (line.startsWith('-')) removed++;
    }
  }
  return { diff: formatPatch(patch, { includeIndex: false, includeUnderline: false, includeFileHeaders: true }), added, removed };
}

function lineCount(text: string): number {
  if (text === '') return 0;
  let count = 0;
  for (let index = text.indexOf('\n'); index !== -1; index = text.indexOf('\n', index + 1)) count++;
  return text.endsWith('\n') ? count : count + 1;
}
