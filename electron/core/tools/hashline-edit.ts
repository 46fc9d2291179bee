/**
 * `hashline_edit`: line-addressed edits bound to the version of each file the model read.
 * Every section is parsed, located and checked before anything is written, and all files are
 * written together or not at all.
 */
import { z } from 'zod';
import { ToolError, type ToolContext, type ToolResult } from '../agent/types';
import { defineTool } from './define-tool';
import { fileDiff } from './file-diff';
import { loadText } from './fs-utils';
import { applySplices, joinFile, placeOperations, splitFile, type FileLines, type Placement } from './hashline-apply';
import { checkOperations, parsePatch, type Operation } from './hashline-patch';
import { diffLocator, IDENTITY_LOCATOR, type LineLocator } from './hashline-remap';
import { normalizeContent, normalizedLines, tagOfNormalized } from './hashline-tag';
import { writeAllOrNone } from './hashline-write';
import { notFoundError } from './not-found';
import { resolveInWorkspace, type WorkspacePath } from './sandbox';

/** The model reads the diff to learn the new line numbers; past this it is summarized. */
const MAX_DIFF_IN_RESULT = 8_000;

const DESCRIPTION = `Edit files by line number, using the [path#TAG] headers and line numbers that read_file printed.

The patch has one section per file: the header line exactly as read_file printed it, then operations. Line numbers always refer to the file as you read it (do not adjust them for your own earlier operations in the same patch). New lines follow their operation, one per line, each starting with "|"; everything after the "|" is the line, verbatim, indentation included. A lone "|" is an empty line.

Operations:
  replace N        replace line N with the | lines below
  replace N-M      replace lines N to M
  delete N         delete line N (also delete N-M); no | lines
  insert before N  insert the | lines above line N
  insert after N   insert the | lines below line N
  insert head      insert at the start of the file
  insert tail      insert at the end of the file

Example:
[src/app.ts#k3f9a2]
replace 12
|  const limit = 10;
delete 30-31
insert after 40
|  return total;
|

- Operations in one section must not touch the same lines.
- If the file changed since you read it, unchanged target lines are found in the new version and the edit is moved there; if a target line changed, or its new place is unclear, nothing is written and you must read_file again.
- All sections are applied or none are. The result shows a diff and each file's new [path#TAG], which you can use for a further edit without reading again.
- hashline_edit only changes existing files; create files with write_file.`;

const schema = z.strictObject({
  patch: z.string().describe('Sections headed [path#TAG] with line operations (see the tool description).'),
});

export const hashlineEditTool = defineTool({
  name: 'hashline_edit',
  label: 'Edit by line',
  description: DESCRIPTION,
  schema,
  sensitivity: 'mutating',
  kind: 'edit',
  permission: { paths: (args) => hashlinePaths(args.patch) },
  // A patch is long; the files it edits say what it does.
  summary: (args) => hashlinePaths(args.patch).join(', '),
  execute: hashlineEdit,
});

/**
 * The section headers of a patch: lines `[path#TAG]` that are not body lines, each path once.
 * Lenient on purpose, unlike parsePatch: a patch the tool would refuse still names every file it
 * touches, so a deny rule covers it before the tool ever reads it.
 */
export function hashlinePaths(patch: string): string[] {
  const paths: string[] = [];
  for (const line of patch.split('\n')) {
    const trimmed = line.trim();
    if (trimmed.startsWith('|')) continue;
    const header = /^\[(.*)\]$/.exec(trimmed);
    if (!header) continue;
    const hash = header[1]!.lastIndexOf('#');
    const path = (hash < 0 ? header[1]! : header[1]!.slice(0, hash)).trim();
    if (path !== '' && !paths.includes(path)) paths.push(path);
  }
  return paths;
}

interface FileEdit {
  target: WorkspacePath;
  tag: string;
  operations: Operation[];
  headerLine: number;
}

interface PlannedFile {
  edit: FileEdit;
  before: string;
  live: FileLines;
  placement: Placement;
  liveTag: string;
}

async function hashlineEdit(params: z.infer<typeof schema>, ctx: ToolContext): Promise<ToolResult> {
  if (typeof params.patch !== 'string') throw ToolError.invalidArgs('patch must be a string');
  const edits = await groupByFile(params.patch, ctx);

  const problems: string[] = [];
  const planned: PlannedFile[] = [];
  for (const edit of edits) {
    const plan = await planFile(edit, ctx, problems);
    if (plan) planned.push(plan);
  }
  if (problems.length > 0) {
    throw ToolError.failed(`No file was changed:\n${problems.map((problem) => `- ${problem}`).join('\n')}`);
  }
  if (ctx.signal.aborted) throw ToolError.cancelled('Edit cancelled before writing; no file was changed');

  const writes = planned.map((plan) => ({
    absolute: plan.edit.target.absolute,
    display: plan.edit.target.display,
    before: plan.before,
    after: joinFile(applySplices(plan.live, plan.placement.splices)),
  }));
  await writeAllOrNone(writes.filter((write) => write.after !== write.before));

  const summaries: string[] = [];
  const diffs: string[] = [];
  const files = planned.map((plan, index) => {
    const { before, after, display } = writes[index]!;
    const normalized = normalizeContent(after);
    const tag = tagOfNormalized(normalized);
    ctx.snapshots.remember(display, tag, normalized);
    const diff = fileDiff(display, before, after);
    diffs.push(diff.diff);
    summaries.push(summarize(plan, tag, diff.added, diff.removed));
    return { path: display, tag, previousTag: plan.edit.tag, added: diff.added, removed: diff.removed, moved: plan.placement.moved };
  });
  const diff = diffs.join('');
  const shownDiff = diff.length <= MAX_DIFF_IN_RESULT ? diff : `${diff.slice(0, MAX_DIFF_IN_RESULT)}\n… (diff cut; read_file shows the result)\n`;
  return {
    content: [{ type: 'text', text: `${summaries.join('\n')}\n\n${shownDiff}`.trimEnd() }],
    details: { files },
    diff,
  };
}

/** Resolves every section's path; sections naming the same file are merged when their tags agree. */
async function groupByFile(patch: string, ctx: ToolContext): Promise<FileEdit[]> {
  const byFile = new Map<string, FileEdit>();
  for (const section of parsePatch(patch)) {
    const target = resolveInWorkspace(section.path, ctx.workspaceRoots);
    if (!target.exists) {
      const error = await notFoundError(section.path, target.absolute);
      throw ToolError.notFound(`${error.message} (hashline_edit only edits existing files; use write_file to create one)`);
    }
    const known = byFile.get(target.absolute);
    if (!known) {
      byFile.set(target.absolute, { target, tag: section.tag, operations: [...section.operations], headerLine: section.patchLine });
    } else if (known.tag !== section.tag) {
      throw ToolError.invalidArgs(
        `patch lines ${known.headerLine} and ${section.patchLine} both edit ${target.display} but with different tags (${known.tag}, ${section.tag}); use one section with the tag of your latest read`,
      );
    } else {
      known.operations.push(...section.operations);
    }
  }
  return [...byFile.values()];
}

async function planFile(edit: FileEdit, ctx: ToolContext, problems: string[]): Promise<PlannedFile | undefined> {
  const display = edit.target.display;
  const { text: before } = await loadText(edit.target.absolute, display, 'edit');
  const live = splitFile(before);
  const liveTag = tagOfNormalized(normalizeContent(before));
  const header = `[${display}#${edit.tag}]`;

  let locator: LineLocator = IDENTITY_LOCATOR;
  let seenLines: readonly string[] = live.texts;
  if (liveTag !== edit.tag) {
    const snapshot = ctx.snapshots.recall(display, edit.tag);
    if (snapshot === undefined) {
      problems.push(`${header}: no read of ${display} with tag ${edit.tag} is on record; read the file first (read_file)`);
      return undefined;
    }
    seenLines = normalizedLines(snapshot);
    const remap = diffLocator(seenLines, normalizedLines(before));
    if (!remap) {
      problems.push(`${header}: ${display} changed too much since you read it; read it again (it is now [${display}#${liveTag}])`);
      return undefined;
    }
    locator = remap;
  }

  const invalid = checkOperations(edit.operations, seenLines.length, display);
  if (invalid.length > 0) {
    problems.push(...invalid.map((problem) => `${header}: ${problem}`));
    return undefined;
  }
  const placement = placeOperations(edit.operations, locator, seenLines, live.texts.length);
  if (placement.problems.length > 0) {
    problems.push(...placement.problems.map((problem) => `${header}: ${problem}`));
    problems.push(`${header}: ${display} changed since you read it; read it again before editing (it is now [${display}#${liveTag}])`);
    return undefined;
  }
  return { edit, before, live, placement, liveTag };
}

function summarize(plan: PlannedFile, tag: string, added: number, removed: number): string {
  const display = plan.edit.target.display;
  const count = plan.edit.operations.length;
  const change = added === 0 && removed === 0 ? 'no change' : `+${added} −${removed} lines`;
  let line = `Edited ${display}: ${count} operation${count === 1 ? '' : 's'} (${change}); now [${display}#${tag}]`;
  if (plan.liveTag !== plan.edit.tag) {
    line +=
      plan.placement.moved.length > 0
        ? `. The file had changed since your read; moved: ${plan.placement.moved.join(', ')}`
        : '. The file had changed since your read, elsewhere; your line numbers still held';
  }
  return line;
}
