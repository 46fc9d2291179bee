/**
 * Side-by-side timing for `npm run bench`. Each comparison runs its baseline and Cove's version
 * alternately (so load on the machine hits both alike) and reports medians and their ratio.
 * Measurements that have nothing to stand beside (frame times in a page) are reported against
 * an absolute goal instead. Benchmarks never gate the tests: they print, and the goal column
 * says what we aim for.
 */
import { spawn } from 'node:child_process';
import { mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
export interface Contender {
  label: string;
  /**
   * One run. A contender that times itself (in a page, where the clock that matters runs)
   * returns its milliseconds; otherwise the whole call is timed.
   */
  run(): Promise<void | number>;
}

export interface Comparison {
  name: string;
  /** The ratio Cove aims to stay under. */
  goal: number;
  baseline: Contender;
  cove: Contender;
  runs?: number;
  warmup?: number;
}

export interface ComparisonResult {
  kind: 'comparison';
  name: string;
  baselineLabel: string;
  coveLabel: string;
  baselineMs: number;
  coveMs: number;
  ratio: number;
  goal: number;
}

/** A number with no baseline to compare it to, e.g. a page's median frame time. */
export interface Measurement {
  kind: 'measurement';
  name: string;
  value: number;
  unit: string;
  /** The most the value may be; undefined when it is reported for information only. */
  goal: number | undefined;
  /** What else a reader needs to judge the value (spread, counts, what was measured). */
  detail: string;
}

export type BenchmarkResult = ComparisonResult | Measurement;

export function median(values: readonly number[]): number {
  if (values.length === 0) throw new Error('median of no values: the benchmark measured nothing');
  const sorted = [...values].sort((a, b) => a - b);
  const middle = Math.floor(sorted.length / 2);
  return sorted.length % 2 ? sorted[middle]! : (sorted[middle - 1]! + sorted[middle]!) / 2;
}

/** The value below which `fraction` (0..1) of the values lie, by the nearest-rank method. */
export function percentile(values: readonly number[], fraction: number): number {
  if (values.length === 0) throw new Error('percentile of no values: the benchmark measured nothing');
  const sorted = [...values].sort((a, b) => a - b);
  const rank = Math.min(sorted.length, Math.max(1, Math.ceil(fraction * sorted.length)));
  return sorted[rank - 1]!;
}

async function time(contender: Contender): Promise<number> {
  const start = process.hrtime.bigint();
  const own = await contender.run();
  return typeof own === 'number' ? own : Number(process.hrtime.bigint() - start) / 1e6;
}

export async function compare(comparison: Comparison): Promise<ComparisonResult> {
  const runs = comparison.runs ?? 7;
  for (let i = 0; i < (comparison.warmup ?? 1); i++) {
    await comparison.baseline.run();
    await comparison.cove.run();
  }
  const baseline: number[] = [];
  const cove: number[] = [];
  for (let i = 0; i < runs; i++) {
    baseline.push(await time(comparison.baseline));
    cove.push(await time(comparison.cove));
  }
  const baselineMs = median(baseline);
  const coveMs = median(cove);
  return {
    kind: 'comparison',
    name: comparison.name,
    baselineLabel: comparison.baseline.label,
    coveLabel: comparison.cove.label,
    baselineMs,
    coveMs,
    ratio: coveMs / baselineMs,
    goal: comparison.goal,
  };
}

/** A benchmark module (`bench/*.bench.ts`) default-exports one of these. */
export type Benchmark = () => Promise<BenchmarkResult[]>;

/** The shape of a generated source tree: `pkg<i>/mod<j>/file<k>.ts`. */
export interface TreeShape {
  folders: number;
  subfolders: number;
  filesPerFolder: number;
}

/**
 * Writes `root/pkg<i>/mod<j>/file<k>.ts` afresh, each file's text from its running index, plus a
 * `.gitignore` of `dist/`; returns how many files it wrote. The checkpoint and search benchmarks
 * read trees of this one shape, so their figures stay comparable.
 */
export function writeSourceTree(root: string, shape: TreeShape, content: (index: number) => string): number {
  rmSync(root, { recursive: true, force: true });
  let index = 0;
  for (let folder = 0; folder < shape.folders; folder++) {
    for (let sub = 0; sub < shape.subfolders; sub++) {
      const dir = join(root, `pkg${folder}`, `mod${sub}`);
      mkdirSync(dir, { recursive: true });
      for (let file = 0; file < shape.filesPerFolder; file++) writeFileSync(join(dir, `file${file}.ts`), content(index++));
    }
  }
  writeFileSync(join(root, '.gitignore'), 'dist/\n');
  return index;
}

/** Runs `node ARGS` in the Cove folder and answers its exit code and stderr (stdout is drained, unread). */
export function runNode(args: string[], env: NodeJS.ProcessEnv): Promise<{ code: number | null; stderr: string }> {
  return new Promise((resolvePromise, reject) => {
    const child = spawn(process.execPath, args, { cwd: resolve(import.meta.dirname, '..'), env, stdio: ['ignore', 'pipe', 'pipe'] });
    let stderr = '';
    child.stdout.resume();
    child.stderr.setEncoding('utf8').on('data', (chunk: string) => (stderr += chunk));
    child.on('error', reject);
    child.on('close', (code) => resolvePromise({ code, stderr }));
  });
}
