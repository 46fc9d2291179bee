/**
 * `search`: lines matching a regular expression across the workspace's files. ripgrep does the
 * work when it is installed; otherwise a built-in engine gives the same answer, only slower.
 * `COVE_SEARCH_ENGINE=builtin|ripgrep` or `createSearchTool({ engine })` picks one.
 */
import { statSync } from 'node:fs';
import { z } from 'zod';
import { ToolError, type ToolContext, type ToolResult } from '../agent/types';
import { declareTool } from './define-tool';
import { notFoundError } from './not-found';
import { resolveInWorkspace } from './sandbox';
import { searchBuiltin, searchFile } from './search-builtin';
import { compilePattern, includeFilter, type SearchRequest } from './search-pattern';
import { MAX_SHOWN_MATCHES, MatchCollector, formatResults } from './search-results';
import { findRipgrep, searchRipgrep } from './search-ripgrep';

const schema = z.strictObject({
  pattern: z.string().describe('Regular expression to search for.'),
  path: z.string().optional().describe('File or folder to search, relative to the workspace root. Default ".".'),
  include: z.string().optional().describe('Glob of files to search, e.g. "*.ts" or "src/**/*.py".'),
  case_sensitive: z.boolean().optional().describe('Match case exactly. Default false.'),
});

export type SearchParams = z.infer<typeof schema>;

export type SearchEngine = 'auto' | 'ripgrep' | 'builtin';

export interface SearchToolOptions {
  /** Default: COVE_SEARCH_ENGINE, else `auto` (ripgrep when it is on PATH). */
  engine?: SearchEngine;
}

const DESCRIPTION = `Search file contents in the workspace for a regular expression, like grep.

- pattern: a regular expression (JavaScript/Rust syntax, e.g. "function\\s+load", "TODO|FIXME"). Escape special characters to search for them literally: "foo\\(".
- path: file or folder to search, relative to the workspace root (default ".", everything).
- include: glob of files to search, e.g. "*.ts", "*.{ts,tsx}", "src/**/*.py". Without "/" it matches file names at any depth.
- case_sensitive: default false (case is ignored).

Each result line is "path:line: text", sorted by path and line; at most ${MAX_SHOWN_MATCHES} are shown, with a count of the rest. Files ignored by .gitignore, .git, node_modules, binary files and files over 10 MB are skipped. Read a result's surroundings with read_file and its offset.`;

const search = declareTool({
  name: 'search',
  label: 'Search',
  description: DESCRIPTION,
  schema,
  sensitivity: 'readOnly',
  kind: 'search',
  permission: { paths: (args) => [args.path || '.'] },
  summary: (args) => [args.pattern, args.path].filter(Boolean).join(' in '),
});

function engineFromEnvironment(): SearchEngine {
  const value = process.env.COVE_SEARCH_ENGINE;
  return value === 'builtin' || value === 'ripgrep' ? value : 'auto';
}

/** The ripgrep executable to use, or null for the built-in engine. */
function chooseRipgrep(engine: SearchEngine): string | null {
  if (engine === 'builtin') return null;
  const executable = findRipgrep();
  if (!executable && engine === 'ripgrep') throw ToolError.failed('search is set to use ripgrep (rg), but rg is not on PATH');
  return executable;
}

export function createSearchTool(options: SearchToolOptions = {}) {
  const execute = async (params: SearchParams, ctx: ToolContext): Promise<ToolResult> => {
    const given = params.path ?? '.';
    const caseSensitive = params.case_sensitive ?? false;
    const { scanner, finder } = compilePattern(params.pattern, caseSensitive);
    const admits = includeFilter(params.include);
    const target = resolveInWorkspace(given, ctx.workspaceRoots);
    if (!target.exists) throw await notFoundError(given, target.absolute);
    const request: SearchRequest = {
      pattern: params.pattern,
      caseSensitive,
      scanner,
      finder,
      folder: target.absolute,
      prefix: target.display === '.' ? '' : `${target.display}/`,
      admits,
      ...(params.include === undefined ? {} : { include: params.include }),
    };
    const collector = new MatchCollector(finder, ctx.secrets);
    let engine: 'ripgrep' | 'builtin' = 'builtin';
    if (!statSync(target.absolute).isDirectory()) {
      searchFile(target.absolute, target.display, request, collector);
    } else {
      const ripgrep = chooseRipgrep(options.engine ?? engineFromEnvironment());
      if (ripgrep) {
        engine = 'ripgrep';
        await searchRipgrep(ripgrep, request, collector, ctx.signal);
      } else {
        await searchBuiltin(request, collector, ctx.signal);
      }
    }
    if (ctx.signal.aborted) throw ToolError.cancelled('Search cancelled');
    const text = formatResults(collector, { pattern: params.pattern, where: target.display, ...(params.include ? { include: params.include } : {}) });
    return {
      content: [{ type: 'text', text }],
      details: { engine, path: target.display, matches: collector.total, files: collector.fileCount, complete: collector.complete },
    };
  };
  return search.implement(execute);
}

export const searchTool = createSearchTool();
