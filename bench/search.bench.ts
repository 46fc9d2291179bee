/**
 * The search tool against bare ripgrep on a 20,000-file tree (made once in the temp folder and
 * kept for later runs). The ripgrep engine should add little to rg itself; the built-in engine,
 * used where rg is missing, is measured against the same baseline.
 */
import { spawn } from 'node:child_process';
import { existsSync, mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { MemorySnapshotStore, NO_SECRETS, type ToolContext } from '../electron/core/agent/types';
import { createSearchTool } from '../electron/core/tools/search';
import { findRipgrep } from '../electron/core/tools/search-ripgrep';
import { compare, type ComparisonResult } from './support';

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
  rmSync(TREE, { recursive: true, force: true });
  let index = 0;
  for (let folder = 0; folder < FOLDERS; folder++) {
    for (let sub = 0; sub < SUBFOLDERS; sub++) {
      const dir = join(TREE, `pkg${folder}`, `mod${sub}`);
      mkdirSync(dir, { recursive: true });
      for (let file = 0; file < FILES_PER_FOLDER; file++) writeFileSync(join(dir, `file${file}.ts`), fileContent(index++));
    }
  }
  writeFileSync(join(TREE, '.gitignore'), 'dist/\n');
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

/** rg as a person would run it, output read to the end. */
function bareRipgrep(executable: string, pattern: string): Promise<void> {
  return new Promise((resolve, reject) => {
    const child = spawn(executable, ['--no-config', '-n', '-i', '--regexp', pattern, '.'], { cwd: TREE, stdio: ['ignore', 'pipe', 'ignore'] });
    child.stdout.resume();
    child.on('error', reject);
    child.on('close', (code) => (code === 0 || code === 1 ? resolve() : reject(new Error(`rg exited ${code}`))));
  });
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
    const baseline = { label: 'rg', run: () => bareRipgrep(executable, pattern) };
    results.push(
      await compare({
        name: `search, ${files} files, ${label}: ripgrep engine`,
        goal: 1.5,
        baseline,
        cove: { label: 'search tool', run: async () => void (await ripgrepTool.execute({ pattern }, context())) },
      }),
    );
    results.push(
      await compare({
        name: `search, ${files} files, ${label}: built-in engine`,
        goal: 1.5,
        runs: 5,
        baseline,
        cove: { label: 'search tool', run: async () => void (await builtinTool.execute({ pattern }, context())) },
      }),
    );
  }
  return results;
}
