/**
 * `npm run bench`: runs every bench/*.bench.ts (or those named on the command line) and prints
 * the medians side by side with their ratio and goal.
 */
import { readdirSync } from 'node:fs';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { dirname, join } from 'node:path';
import type { Benchmark, ComparisonResult } from './support';

const here = dirname(fileURLToPath(import.meta.url));
const wanted = process.argv.slice(2);
const files = readdirSync(here)
  .filter((name) => name.endsWith('.bench.ts'))
  .filter((name) => wanted.length === 0 || wanted.some((w) => name.includes(w)))
  .sort();

const results: ComparisonResult[] = [];
for (const file of files) {
  process.stderr.write(`running ${file}…\n`);
  const benchmark = (await import(pathToFileURL(join(here, file)).href)).default as Benchmark;
  results.push(...(await benchmark()));
}

const rows = results.map((r) => [
  r.name,
  `${r.baselineLabel}: ${r.baselineMs.toFixed(1)} ms`,
  `${r.coveLabel}: ${r.coveMs.toFixed(1)} ms`,
  `${r.ratio.toFixed(2)}×`,
  `≤ ${r.goal}×`,
  r.ratio <= r.goal ? 'met' : 'MISSED',
]);
const header = ['benchmark', 'baseline (median)', 'cove (median)', 'ratio', 'goal', ''];
const widths = header.map((h, i) => Math.max(h.length, ...rows.map((row) => row[i]!.length)));
const line = (cells: string[]) => cells.map((c, i) => c.padEnd(widths[i]!)).join('  ').trimEnd();
process.stdout.write([line(header), line(widths.map((w) => '-'.repeat(w))), ...rows.map(line)].join('\n') + '\n');
