/**
 * Side-by-side timing for `npm run bench`. Each comparison runs its baseline and Cove's version
 * alternately (so load on the machine hits both alike) and reports medians and their ratio.
 * Benchmarks never gate the tests: they print, and the goal column says what we aim for.
 */
export interface Contender {
  label: string;
  run(): Promise<void>;
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
  name: string;
  baselineLabel: string;
  coveLabel: string;
  baselineMs: number;
  coveMs: number;
  ratio: number;
  goal: number;
}

function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  const middle = Math.floor(sorted.length / 2);
  return sorted.length % 2 ? sorted[middle]! : (sorted[middle - 1]! + sorted[middle]!) / 2;
}

async function time(contender: Contender): Promise<number> {
  const start = process.hrtime.bigint();
  await contender.run();
  return Number(process.hrtime.bigint() - start) / 1e6;
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
export type Benchmark = () => Promise<ComparisonResult[]>;
