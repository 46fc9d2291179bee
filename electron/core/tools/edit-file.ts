/**
 * `edit_file`: replaces one exact, unique occurrence of `old_text`. Anything less than exactly
 * one match is refused with directions (where the several matches are, or what the file has
 * instead), and nothing is written. CRLF files are matched and kept in CRLF.
 */
import { z } from 'zod';
import { ToolError, type ToolContext, type ToolResult } from '../agent/types';
import { defineTool, ONE_FILE } from './define-tool';
import { lineAt, missExplanation, occurrences } from './edit-match';
import { fileDiff } from './file-diff';
import { detectLineEnding, formatCount, loadText, toLf, withLineEnding, writeAtomic } from './fs-utils';
import { normalizeContent, tagOfNormalized } from './hashline-tag';
import { notFoundError } from './not-found';
import { resolveInWorkspace } from './sandbox';

const MAX_LISTED_MATCHES = 10;

const DESCRIPTION = `Replace one exact piece of text in a file.

- path: relative to the workspace root.
- old_text: text copied exactly from the file, indentation and line breaks included (without read_file's line numbers). It must occur exactly once: include a few surrounding lines to make it unique.
- new_text: what replaces it (may be empty to delete old_text).
- If old_text is missing or occurs several times, nothing changes and the error shows where the similar or repeated text is.
- To create a file or rewrite most of one, use write_file. The result gives the file's new [path#TAG] for hashline_edit.`;

const schema = z.strictObject({
  path: z.string().describe('File to edit, relative to the workspace root.'),
  old_text: z.string().describe('Exact text to replace; must occur exactly once in the file.'),
  new_text: z.string().describe('Replacement text.'),
});

export const editFileTool = defineTool({
  name: 'edit_file',
  label: 'Edit file',
  description: DESCRIPTION,
  schema,
  sensitivity: 'mutating',
  kind: 'edit',
  ...ONE_FILE,
  execute: editFile,
});

async function editFile(params: z.infer<typeof schema>, ctx: ToolContext): Promise<ToolResult> {
  if (params.old_text === '') {
    throw ToolError.invalidArgs(`old_text is empty; give the exact text to replace in ${params.path} (to create a file, use write_file)`);
  }
  if (toLf(params.old_text) === toLf(params.new_text)) {
    throw ToolError.invalidArgs(`old_text and new_text are the same, so editing ${params.path} would change nothing`);
  }
  const target = resolveInWorkspace(params.path, ctx.workspaceRoots);
  if (!target.exists) throw await notFoundError(params.path, target.absolute);
  const { text } = await loadText(target.absolute, params.path, 'edit');

  // A CRLF file is edited in LF and written back in CRLF; any other file is matched as it is,
  // so that a few stray CRLF lines in an LF file survive untouched.
  const crlf = detectLineEnding(text) === '\r\n';
  const body = crlf ? toLf(text) : text;
  const adapt = (value: string) => (crlf || !text.includes('\r\n') ? toLf(value) : value);
  const oldText = adapt(params.old_text);
  const newText = adapt(params.new_text);

  const found = occurrences(body, oldText);
  if (found.length === 0) throw ToolError.failed(missExplanation(params.path, toLf(body), toLf(oldText)));
  if (found.length > 1) {
    const lines = found.slice(0, MAX_LISTED_MATCHES).map((offset) => formatCount(lineAt(body, offset)));
    const more = found.length > MAX_LISTED_MATCHES ? `, and ${found.length - MAX_LISTED_MATCHES} more` : '';
    throw ToolError.failed(
      `old_text occurs ${found.length} times in ${params.path} (starting at lines ${lines.join(', ')}${more}); ` +
        'include more of the surrounding lines in old_text so that it matches only one place',
    );
  }
  const start = found[0]!;
  const edited = body.slice(0, start) + newText + body.slice(start + oldText.length);
  const after = crlf ? withLineEnding(edited, '\r\n') : edited;
  await writeAtomic(target.absolute, after, params.path);

  const display = target.display;
  const normalized = normalizeContent(after);
  const tag = tagOfNormalized(normalized);
  ctx.snapshots.remember(display, tag, normalized);
  const change = fileDiff(display, text, after);
  const line = lineAt(body, start);
  return {
    content: [
      {
        type: 'text',
        text: `Edited ${display} at line ${formatCount(line)}: +${formatCount(change.added)} −${formatCount(change.removed)} lines. Tag: [${display}#${tag}]`,
      },
    ],
    details: { path: display, tag, line, added: change.added, removed: change.removed },
    diff: change.diff,
  };
}
