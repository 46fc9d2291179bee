/**
 * `write_file`: creates or replaces a whole file, atomically. A file that used CRLF line endings
 * keeps them when the model writes LF. The result carries a unified diff and the file's new
 * hashline tag, so the model can edit by line number without reading the file again.
 */
import { promises as fs } from 'node:fs';
import { z } from 'zod';
import { ToolError, type ToolContext, type ToolResult } from '../agent/types';
import { defineTool, ONE_FILE } from './define-tool';
import { fileDiff } from './file-diff';
import { detectLineEnding, countOf, fileError, formatBytes, formatCount, loadText, refusalReason, withLineEnding, writeAtomic } from './fs-utils';
import { normalizeContent, tagOfNormalized } from './hashline-tag';
import { resolveInWorkspace } from './sandbox';

const DESCRIPTION = `Create a file, or replace a file's whole content.

- path: relative to the workspace root; missing folders are created.
- content: the complete new content of the file.
- To change part of an existing file, prefer edit_file (exact text replacement) or hashline_edit (by line number): they are cheaper and cannot drop lines by accident.
- The write is atomic (the file is never left half-written) and keeps the file's permissions and CRLF line endings. The result gives the file's new [path#TAG] for hashline_edit.`;

const schema = z.strictObject({
  path: z.string().describe('File to write, relative to the workspace root.'),
  content: z.string().describe('The complete new content of the file.'),
});

export const writeFileTool = defineTool({
  name: 'write_file',
  label: 'Write file',
  description: DESCRIPTION,
  schema,
  sensitivity: 'mutating',
  kind: 'edit',
  ...ONE_FILE,
  execute: writeFile,
});

/** The text a write replaces: null for a new file, undefined when it was not text we could read. */
async function previousText(absolute: string, given: string): Promise<string | null | undefined> {
  let isDirectory: boolean;
  try {
    isDirectory = (await fs.stat(absolute)).isDirectory();
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return null;
    throw fileError(error, given, 'write');
  }
  if (isDirectory) throw ToolError.failed(`${given} is a directory; give the path of a file to write`);
  try {
    return (await loadText(absolute, given, 'write')).text;
  } catch (error) {
    // A binary or huge file may still be replaced; only its diff cannot be shown.
    if (refusalReason(error)) return undefined;
    throw error;
  }
}

async function writeFile(params: z.infer<typeof schema>, ctx: ToolContext): Promise<ToolResult> {
  const target = resolveInWorkspace(params.path, ctx.workspaceRoots);
  if (target.relative === '.') throw ToolError.failed(`${params.path} is the workspace folder itself; give the path of a file`);
  const before = target.exists ? await previousText(target.absolute, params.path) : null;
  const content = typeof before === 'string' && detectLineEnding(before) === '\r\n' && !params.content.includes('\r\n') ? withLineEnding(params.content, '\r\n') : params.content;
  const display = target.display;
  const normalized = normalizeContent(content);
  const tag = tagOfNormalized(normalized);
  const lines = normalized === '' ? 0 : normalized.split('\n').length;
  const size = formatBytes(Buffer.byteLength(content));

  if (before === content) {
    ctx.snapshots.remember(display, tag, normalized);
    return {
      content: [{ type: 'text', text: `${display} already has this content; nothing was written. Tag: [${display}#${tag}]` }],
      details: { path: display, tag, created: false, changed: false, added: 0, removed: 0 },
    };
  }
  const { created } = await writeAtomic(target.absolute, content, params.path);
  ctx.snapshots.remember(display, tag, normalized);
  const change = before === undefined ? null : fileDiff(display, created ? null : before, content);
  const summary = created
    ? `Created ${display} (${countOf(lines, 'line')}, ${size}).`
    : change
      ? `Wrote ${display} (${countOf(lines, 'line')}, ${size}): +${formatCount(change.added)} −${formatCount(change.removed)} lines.`
      : `Wrote ${display} (${countOf(lines, 'line')}, ${size}), replacing a file that was not readable text.`;
  return {
    content: [{ type: 'text', text: `${summary} Tag: [${display}#${tag}]` }],
    details: { path: display, tag, created, changed: true, added: change?.added ?? lines, removed: change?.removed ?? 0 },
    ...(change ? { diff: change.diff } : {}),
  };
}
