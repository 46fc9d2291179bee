/**
 * `read_file`: a file's lines, numbered, under a `[path#TAG]` header that hashline edits refer
 * to. Long files are paged; images come back as pictures; binary and oversized files are refused
 * from their size and first bytes, without being read whole.
 */
import { closeSync, constants, fstatSync, readFileSync, readSync } from 'node:fs';
import { z } from 'zod';
import { ToolError, type ToolContext, type ToolResult } from '../agent/types';
import { defineTool, ONE_FILE } from './define-tool';
import { countOf, fileError, formatBytes, formatCount, loadText, toLf } from './fs-utils';
import { normalizeContent, tagOfNormalized } from './hashline-tag';
import { IMAGE_SIZE_LIMIT, MAGIC_BYTES, imageTypeByExtension, imageTypeOfBytes } from './image-file';
import { notFoundError } from './not-found';
import { openVerified } from './open-verified';
import { resolveInWorkspace, type WorkspacePath } from './sandbox';

export const DEFAULT_READ_LIMIT = 2000;
/** Longer lines are cut: minified code would otherwise fill the context with one line. */
export const MAX_LINE_CHARS = 2000;
/** The most text one call returns, whatever `limit` says. */
export const MAX_READ_CHARS = 256 * 1024;
/** Between the line number and the line: rare in code, so it does not read as part of the line. */
export const LINE_NUMBER_SEPARATOR = '│';

const DESCRIPTION = `Read a text file from the workspace, or look at an image (png, jpg, gif, webp).

The output starts with a header line [path#TAG], then one line per file line: the line number, then "${LINE_NUMBER_SEPARATOR}", then the line's text. The number and "${LINE_NUMBER_SEPARATOR}" are not part of the file: leave them out of edit_file's old_text. Quote the header's [path#TAG] in hashline_edit to edit by line number.

- path: relative to the workspace root (or absolute inside the workspace).
- offset: first line to show, 1-based (default 1). limit: how many lines (default ${DEFAULT_READ_LIMIT}).
- Long files are shown a page at a time; the last line says how many lines remain and which offset to ask for next. Lines over ${formatCount(MAX_LINE_CHARS)} characters are cut.
- Binary files and text files over 10 MB are refused: use search to find what you need in them.
- To see what a folder holds, use list_files; to find text across files, use search.`;

const schema = z.strictObject({
  path: z.string().describe('File to read, relative to the workspace root.'),
  offset: z.int().min(1).optional().describe('First line to show (1-based). Default 1.'),
  limit: z.int().min(1).optional().describe(`How many lines to show. Default ${DEFAULT_READ_LIMIT}.`),
});

export const readFileTool = defineTool({
  name: 'read_file',
  label: 'Read file',
  description: DESCRIPTION,
  schema,
  sensitivity: 'readOnly',
  kind: 'read',
  ...ONE_FILE,
  execute: readFile,
});

async function readFile(params: z.infer<typeof schema>, ctx: ToolContext): Promise<ToolResult> {
  const offset = params.offset ?? 1;
  const limit = params.limit ?? DEFAULT_READ_LIMIT;
  if (!Number.isInteger(offset) || offset < 1) throw ToolError.invalidArgs(`offset must be a whole number from 1 (got ${offset})`);
  if (!Number.isInteger(limit) || limit < 1) throw ToolError.invalidArgs(`limit must be a whole number from 1 (got ${limit})`);
  const target = resolveInWorkspace(params.path, ctx.workspaceRoots);
  if (!target.exists) throw await notFoundError(params.path, target.absolute);
  const image = await readImage(target, params.path);
  if (image) return image;
  const { text } = await loadText(target.absolute, params.path, 'read');
  const normalized = normalizeContent(text);
  const tag = tagOfNormalized(normalized);
  ctx.snapshots.remember(target.display, tag, normalized);
  // Redacted whole, before paging and line cuts: a key's body on the page asked for, or the
  // first characters of a secret on a cut line, must not show. Lines are kept, so numbers hold.
  const lf = toLf(text);
  const shown = (ctx.secrets.redactLines ?? ctx.secrets.redact).call(ctx.secrets, lf).text;
  return page(target.display, tag, shown, offset, limit);
}

async function readImage(target: WorkspacePath, given: string): Promise<ToolResult | undefined> {
  if (!imageTypeByExtension(target.absolute)) return undefined;
  let fd: number;
  try {
    fd = openVerified(target.absolute, constants.O_RDONLY | constants.O_NONBLOCK, given);
  } catch (error) {
    throw fileError(error, given, 'read');
  }
  try {
    const stats = fstatSync(fd);
    if (!stats.isFile()) return undefined;
    const head = Buffer.alloc(MAGIC_BYTES);
    readSync(fd, head, 0, MAGIC_BYTES, 0);
    const mediaType = imageTypeOfBytes(head);
    if (!mediaType) return undefined;
    if (stats.size > IMAGE_SIZE_LIMIT) {
      throw ToolError.failed(`${given} is a ${formatBytes(stats.size)} image, over the ${formatBytes(IMAGE_SIZE_LIMIT)} limit for images`);
    }
    const data = readFileSync(fd).toString('base64');
    return {
      content: [
        { type: 'text', text: `[${target.display}] ${mediaType}, ${formatBytes(stats.size)}` },
        { type: 'image', mediaType, data },
      ],
      details: { path: target.display, mediaType, bytes: stats.size },
    };
  } catch (error) {
    throw fileError(error, given, 'read');
  } finally {
    closeSync(fd);
  }
}

function splitLines(text: string): string[] {
  if (text === '') return [];
  const lines = text.split('\n');
  if (text.endsWith('\n')) lines.pop();
  return lines;
}

function page(display: string, tag: string, text: string, offset: number, limit: number): ToolResult {
  const lines = splitLines(text);
  const total = lines.length;
  const header = `[${display}#${tag}]`;
  const details = { path: display, tag, totalLines: total, firstLine: offset, lastLine: 0, cutLines: 0 };
  if (total === 0) {
    if (offset > 1) throw ToolError.invalidArgs(`offset ${offset} is past the end of ${display}, which is empty`);
    return { content: [{ type: 'text', text: `${header}\n(empty file)` }], details };
  }
  if (offset > total) {
    throw ToolError.invalidArgs(`offset ${offset} is past the end of ${display}, which has ${countOf(total, 'line')}`);
  }
  const wanted = Math.min(total, offset + limit - 1);
  const width = String(wanted).length;
  const out: string[] = [header];
  let chars = header.length;
  let last = offset - 1;
  for (let number = offset; number <= wanted; number++) {
    let line = lines[number - 1]!;
    if (line.length > MAX_LINE_CHARS) {
      line = `${line.slice(0, MAX_LINE_CHARS)} … [line cut: ${formatCount(line.length - MAX_LINE_CHARS)} more characters]`;
      details.cutLines++;
    }
    const numbered = `${String(number).padStart(width)}${LINE_NUMBER_SEPARATOR}${line}`;
    // Always show at least one line, so that paging moves forward.
    if (number > offset && chars + numbered.length + 1 > MAX_READ_CHARS) break;
    out.push(numbered);
    chars += numbered.length + 1;
    last = number;
  }
  details.lastLine = last;
  if (last < total) {
    const reason = last < wanted ? ` (output capped at ${formatBytes(MAX_READ_CHARS)})` : '';
    out.push(`… ${formatCount(total - last)} more lines${reason}; call read_file with offset=${last + 1} to continue`);
  }
  return { content: [{ type: 'text', text: out.join('\n') }], details };
}
