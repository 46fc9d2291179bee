/**
 * `list_files`: the files and folders under a folder, as workspace-relative paths in tree order,
 * folders marked with a trailing `/`. Breadth first up to the cap, so a large tree still shows
 * its whole top-level shape.
 */
import { statSync } from 'node:fs';
import { z } from 'zod';
import { ToolError, type ToolContext, type ToolResult } from '../agent/types';
import { defineTool } from './define-tool';
import { formatCount } from './fs-utils';
import { compareTreeOrder, globMatcher } from './glob';
import { notFoundError } from './not-found';
import { resolveInWorkspace } from './sandbox';
import { forEachSliced, walk, type WalkEntry } from './walk';

export const DEFAULT_MAX_DEPTH = 3;
export const MAX_LISTED = 1000;
/** Entries counted past the cap, for the "more not shown" note; beyond it the count is a floor. */
const MAX_COUNTED = 100_000;

const DESCRIPTION = `List the files and folders under a folder of the workspace.

- path: folder to list, relative to the workspace root (default ".", the root).
- pattern: optional glob to keep only matching entries, e.g. "*.ts", "*.{ts,tsx}", "src/**/test_*.py". A pattern without "/" matches file names at any depth; one with "/" matches the path relative to the listed folder.
- max_depth: how many levels to descend (default ${DEFAULT_MAX_DEPTH}; 1 = only the folder's own entries).

Paths are shown relative to the workspace root, folders with a trailing "/". Files ignored by .gitignore, .git and node_modules are left out. At most ${formatCount(MAX_LISTED)} entries are shown; narrow with path, pattern or max_depth. To find text inside files, use search.`;

const schema = z.strictObject({
  path: z.string().optional().describe('Folder to list, relative to the workspace root. Default ".".'),
  pattern: z.string().optional().describe('Glob the entries must match, e.g. "*.ts" or "src/**/*.test.ts".'),
  max_depth: z.int().min(1).optional().describe(`Levels to descend. Default ${DEFAULT_MAX_DEPTH}.`),
});

export const listFilesTool = defineTool({
  name: 'list_files',
  label: 'List files',
  description: DESCRIPTION,
  schema,
  sensitivity: 'readOnly',
  kind: 'read',
  permission: { paths: (args) => [args.path || '.'] },
  summary: (args) => [args.path, args.pattern].filter(Boolean).join(' in '),
  execute: listFiles,
});

function isFolder(entry: WalkEntry): boolean {
  if (entry.kind === 'directory') return true;
  if (entry.kind !== 'symlink') return false;
  try {
    return statSync(entry.absolute).isDirectory();
  } catch {
    return false;
  }
}

async function listFiles(params: z.infer<typeof schema>, ctx: ToolContext): Promise<ToolResult> {
  const given = params.path ?? '.';
  const maxDepth = params.max_depth ?? DEFAULT_MAX_DEPTH;
  if (!Number.isInteger(maxDepth) || maxDepth < 1) throw ToolError.invalidArgs(`max_depth must be a whole number from 1 (got ${maxDepth})`);
  if (params.pattern !== undefined && params.pattern.trim() === '') throw ToolError.invalidArgs('pattern is empty; leave it out to list everything');
  const target = resolveInWorkspace(given, ctx.workspaceRoots);
  if (!target.exists) throw await notFoundError(given, target.absolute);
  if (!statSync(target.absolute).isDirectory()) throw ToolError.failed(`${given} is a file, not a folder; use read_file to read it`);

  const matches = params.pattern ? globMatcher(params.pattern) : () => true;
  const prefix = target.display === '.' ? '' : `${target.display}/`;
  const shown: string[] = [];
  let matched = 0;
  let unexpanded = 0;
  const visit = (entry: WalkEntry): boolean => {
    if (entry.kind === 'directory' && entry.depth === maxDepth) unexpanded++;
    if (!matches(entry.relative)) return true;
    matched++;
    if (shown.length < MAX_LISTED) shown.push(prefix + entry.relative + (isFolder(entry) ? '/' : ''));
    return matched < MAX_COUNTED;
  };
  await forEachSliced(walk(target.absolute, { maxDepth }), visit, ctx.signal);
  if (ctx.signal.aborted) throw ToolError.cancelled();
  shown.sort(compareTreeOrder);

  const lines = [...shown];
  if (shown.length === 0) {
    lines.push(params.pattern ? `(nothing under ${given} matches ${params.pattern})` : `(${given} is empty)`);
  }
  const omitted = matched - shown.length;
  if (omitted > 0) {
    const count = matched >= MAX_COUNTED ? `at least ${formatCount(omitted)}` : formatCount(omitted);
    lines.push(`… ${count} more entries not shown (the list stops at ${formatCount(MAX_LISTED)}); narrow it with path, pattern or max_depth`);
  }
  if (unexpanded > 0) {
    lines.push(`(folders at depth ${maxDepth} were not expanded; raise max_depth or list one of them to see inside)`);
  }
  return {
    content: [{ type: 'text', text: lines.join('\n') }],
    details: { path: target.display, shown: shown.length, omitted, maxDepth, unexpandedFolders: unexpanded },
  };
}
