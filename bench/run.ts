/**
 * `npm run bench`: runs every bench/*.bench.ts (or those named on the command line) and prints
 * the medians side by side with their ratio and goal, then the measurements that have no
 * baseline against their own goals.
 */
import { readdirSync } from 'node:fs';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { dirname, join } from 'node:path';
import type { Benchmark, BenchmarkResult, ComparisonResult, Measurement } from './support';

const here = dirname(fileURLToPath(import.meta.url));
const wanted = process.argv.slice(2);
const files = readdirSync(here)
  .filter((name) => name.endsWith('.bench.ts'))
  .filter((name) => wanted.length === 0 || wanted.some((w) => name.includes(w)))
  .sort();

const results: BenchmarkResult[] = [];
for (const file of files) {
  process.stderr.write(`running ${file}…\n`);
  const benchmark = (await import(pathToFileURL(join(here, file)).href)).default as Benchmark;
  results.push(...(await benchmark()));
}

function table(header: string[], rows: string[][]): string {
  const widths = header.map((h, i) => Math.max(h.length, ...rows.map((row) => row[i]!.length)));
  const line = (cells: string[]) =>
    cells
      .map((c, i) => c.padEnd(widths[i]!))
      .join('  ')
      .trimEnd();
  return [line(header), line(widths.map((w) => '-'.repeat(w))), ...rows.map(line)].join('\n') + '\n';
}

const comparisons = results.filter((r): r is ComparisonResult => r.kind === 'comparison');
const measurements = results.filter((r): r is Measurement => r.kind === 'measurement');
const printed: string[] = [];

if (comparisons.length > 0) {
  const rows = comparisons.map((r) => [
    r.name,
    `${r.baselineLabel}: ${r.baselineMs.toFixed(1)} ms`,
    `${r.coveLabel}: ${r.coveMs.toFixed(1)} ms`,
    `${r.ratio.toFixed(2)}×`,
    `≤ ${r.goal}×`,
    r.ratio <= r.goal ? 'met' : 'MISSED',
  ]);
  printed.push(table(['benchmark', 'baseline (median)', 'cove (median)', 'ratio', 'goal', ''], rows));
}

if (measurements.length > 0) {
  const rows = measurements.map((m) => [
    m.name,
    `${m.value.toFixed(1)} ${m.unit}`,
    m.goal === undefined ? 'reported' : `≤ ${m.goal} ${m.unit}`,
    m.goal === undefined ? '' : m.value <= m.goal ? 'met' : 'MISSED',
    m.detail,
  ]);
  printed.push(table(['measurement', 'value', 'goal', '', 'detail'], rows));
}

process.stdout.write(printed.length > 0 ? printed.join('\n') : 'no benchmark reported a result (see the skip reasons above)\n');
