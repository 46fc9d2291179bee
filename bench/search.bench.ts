/**
 * The search tool against bare ripgrep on a 20,000-file tree (made once in the temp folder and
 * kept for later runs). The ripgrep engine should add little to rg itself; the built-in engine,
 * used where rg is missing, is measured against the same baseline.
 */
import { spawn } from 'node:child_process';
import { existsSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { MemorySnapshotStore, NO_SECRETS, type ToolContext, type ToolResult } from '../electron/core/agent/types';
import { createSearchTool } from '../electron/core/tools/search';
import { findRipgrep } from '../electron/core/tools/search-ripgrep';
import { resultText } from './bash-baseline';
import { compare, writeSourceTree, type ComparisonResult } from './support';

const TREE = join(tmpdir(), 'cove-bench-search-tree-v1');
const FOLDERS = 20;
const SUBFOLDERS = 20;
const FILES_PER_FOLDER = 52;

function fileContent(index: number): string {
  const lines = [`// generated module ${index}`, `import { helper${index % 97} } from '../shared/helper${index % 97}';`, ''];
  for (let line = 0; line < 40; line++) {
    lines.push(`export function handle${index}_${line}(input: number): number {`);
    lines.push(`  return helper${index % 97}(input * ${line}) + ${index};`);
    lines.push('}');
  }
  // One file in a hundred holds the rare needle; most hold the common word.
  if (index % 100 === 7) lines.push(`// TODO(needleMarker${index}): revisit`);
  return lines.join('\n') + '\n';
}

function ensureTree(): number {
  const marker = join(TREE, '.complete');
  const total = FOLDERS * SUBFOLDERS * FILES_PER_FOLDER;
  if (existsSync(marker)) return total;
  writeSourceTree(TREE, { folders: FOLDERS, subfolders: SUBFOLDERS, filesPerFolder: FILES_PER_FOLDER }, fileContent);
  writeFileSync(marker, '');
  return total;
}

function context(): ToolContext {
  return {
    toolCallId: 'bench',
    toolName: 'search',
    signal: new AbortController().signal,
    onUpdate: () => undefined,
    onProgress: () => undefined,
    workspaceRoots: [TREE],
    secrets: NO_SECRETS,
    sessionId: 'bench',
    cwd: TREE,
    snapshots: new MemorySnapshotStore(),
  };
}

/** rg as a person would run it, output read to the end; resolves with how many matching lines it printed. */
function bareRipgrep(executable: string, pattern: string): Promise<number> {
  return new Promise((resolve, reject) => {
    const child = spawn(executable, ['--no-config', '-n', '-i', '--regexp', pattern, '.'], { cwd: TREE, stdio: ['ignore', 'pipe', 'ignore'] });
    let lines = 0;
    child.stdout.on('data', (chunk: Buffer) => {
      for (let at = chunk.indexOf(10); at !== -1; at = chunk.indexOf(10, at + 1)) lines++;
    });
    child.on('error', reject);
    child.on('close', (code) => (code === 0 || code === 1 ? resolve(lines) : reject(new Error(`rg exited ${code}`))));
  });
}

/** The match count the tool reported ("208 matches in 208 files:"); throws when it found none or says it failed. */
function reportedMatches(result: ToolResult, what: string): number {
  const text = resultText(result);
  const count = /^([\d,]+) match(?:es)? in /.exec(text)?.[1];
  if (count === undefined) throw new Error(`search.bench, ${what}: the tool found nothing or failed: ${text.slice(0, 300)}`);
  return Number(count.replace(/,/g, ''));
}

export default async function searchBenchmark(): Promise<ComparisonResult[]> {
  const executable = findRipgrep();
  if (!executable) {
    process.stderr.write('search.bench: rg is not on PATH; nothing to compare against\n');
    return [];
  }
  const files = ensureTree();
  const ripgrepTool = createSearchTool({ engine: 'ripgrep' });
  const builtinTool = createSearchTool({ engine: 'builtin' });
  const results: ComparisonResult[] = [];
  for (const [label, pattern] of [
    ['rare match', 'needleMarker\\d+'],
    ['common match', 'helper1\\d\\('],
  ] as const) {
    // Every run is checked: rg and both engines must find the same number of lines, and some.
    const expected = await bareRipgrep(executable, pattern);
    if (expected === 0) throw new Error(`search.bench: rg found no line matching ${pattern} in ${TREE}: the tree is not what the benchmark made`);
    const check = (what: string, found: number) => {
      if (found !== expected) throw new Error(`search.bench, ${label}: ${what} found ${found} matching lines, rg ${expected}`);
    };
    const baseline = { label: 'rg', run: async () => check('rg', await bareRipgrep(executable, pattern)) };
    const tool = (engine: typeof ripgrepTool, name: string) => async () => check(name, reportedMatches(await engine.execute({ pattern }, context()), name));
    results.push(
      await compare({
        name: `search, ${files} files, ${label}: ripgrep engine`,
        goal: 1.5,
        baseline,
        cove: { label: 'search tool', run: tool(ripgrepTool, 'the ripgrep engine') },
      }),
    );
    results.push(
      await compare({
        name: `search, ${files} files, ${label}: built-in engine`,
        goal: 1.5,
        runs: 5,
        baseline,
        cove: { label: 'search tool', run: tool(builtinTool, 'the built-in engine') },
      }),
    );
  }
  return results;
}
