/**
 * Redaction's cost. Throughput: 100 MB of mixed command output (bench/mixed-output.ts) redacted
 * in 1 MB pieces of whole lines, on one core; the goal is 100 MB/s, i.e. at most 1,000 ms per
 * 100 MB. Share: a `cove run` whose model has bash `cat` 20 MB of that output, end to end, against
 * what redaction adds to the bash tool's own output handling (its model copy and UI stream, fed
 * the same output in-process with and without a secret set).
 */
import { spawn } from 'node:child_process';
import { build } from 'esbuild';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import type { SecretRedactor } from '../electron/core/agent/types';
import { SecretSet } from '../electron/core/secrets';
import { ModelOutput, UiStream } from '../electron/core/tools/bash-output';
import { block, reply, startModelServer, type RecordedRequest } from '../test/support/model-server';
import { mixedOutput } from './mixed-output';
import { compare, median, type Benchmark, type BenchmarkResult } from './support';
// @ts-expect-error: a build script, plain JavaScript without types
import { copySecretRules } from '../scripts/copy-secret-rules.mjs';

const root = resolve(import.meta.dirname, '..');
const MB = 1024 * 1024;

function pieces(text: string, size: number): string[] {
  const out: string[] = [];
  for (let start = 0; start < text.length;) {
    let end = text.indexOf('\n', start + size);
    end = end === -1 ? text.length : end + 1;
    out.push(text.slice(start, end));
    start = end;
  }
  return out;
}

function redactAll(secrets: SecretSet, parts: readonly string[]): number {
  const started = performance.now();
  for (const part of parts) secrets.redact(part);
  return performance.now() - started;
}

/** Feeds `parts` through the bash tool's two views of its output, as its PTY would. */
function toolViews(parts: readonly string[], secrets: SecretRedactor | undefined): number {
  const started = performance.now();
  const model = new ModelOutput(undefined, secrets);
  const ui = new UiStream(() => {}, Date.now(), undefined, undefined, secrets);
  for (const part of parts) {
    model.push(part);
    ui.push(part);
    ui.flush(false);
  }
  ui.flush();
  ui.dispose();
  model.finish();
  return performance.now() - started;
}

/** The start-up fixture bundled as Cove ships (`dist/` is esbuild's), built once per bench run. */
async function bundledFixture(): Promise<string> {
  const outdir = join(root, '.bench', 'secret-set-start');
  rmSync(outdir, { recursive: true, force: true });
  const outfile = join(outdir, 'secret-set-start.js');
  await build({ entryPoints: [join(root, 'bench/fixtures/secret-set-start.ts')], outfile, bundle: true, format: 'esm', platform: 'node', target: 'node20', logLevel: 'warning' });
  copySecretRules(outdir);
  return outfile;
}

/** The fixture's own figure: the first SecretSet's construction and first redaction, in ms. */
function startOnce(mode: 'full' | 'patterns-only', bundle?: string): Promise<number> {
  return new Promise((resolvePromise, reject) => {
    const args = bundle ? [bundle, mode] : ['--import', 'tsx', 'bench/fixtures/secret-set-start.ts', mode];
    const child = spawn(process.execPath, args, { cwd: root, stdio: ['ignore', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    child.stdout.setEncoding('utf8').on('data', (chunk: string) => (stdout += chunk));
    child.stderr.setEncoding('utf8').on('data', (chunk: string) => (stderr += chunk));
    child.on('error', reject);
    child.on('close', (code) => (code === 0 ? resolvePromise(Number(stdout)) : reject(new Error(`secret-set-start exited ${code}: ${stderr.trim()}`))));
  });
}

function coveRun(workspace: string, env: NodeJS.ProcessEnv): Promise<number> {
  const started = performance.now();
  return new Promise((resolvePromise, reject) => {
    const child = spawn(process.execPath, ['bin/cove.js', 'run', '--json', '--permission-mode', 'bypass', '--workspace', workspace, 'cat it'], {
      cwd: root,
      env,
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let stderr = '';
    child.stdout.resume();
    child.stderr.setEncoding('utf8').on('data', (chunk: string) => (stderr += chunk));
    child.on('error', reject);
    child.on('close', (code) => (code === 0 ? resolvePromise(performance.now() - started) : reject(new Error(`cove run exited ${code}: ${stderr.trim()}`))));
  });
}

const benchmark: Benchmark = async () => {
  const secrets = new SecretSet();
  const hundred = pieces(mixedOutput(100 * MB), MB);
  redactAll(secrets, hundred.slice(0, 5));
  const throughput = [0, 1, 2].map(() => redactAll(secrets, hundred));
  const perHundred = median(throughput);
  const results: BenchmarkResult[] = [
    {
      kind: 'measurement',
      name: 'redaction of 100 MB of mixed output',
      value: perHundred,
      unit: 'ms',
      goal: 1000,
      detail: `${(100 / (perHundred / 1000)).toFixed(0)} MB/s on one core, median of 3; ${hundred.length} pieces of 1 MB`,
    },
  ];

  // What gitleaks' 300 rules add to a start, beside a set of Cove's own patterns alone: as shipped
  // (the goal), and under tsx as earlier rounds measured it.
  const bundle = await bundledFixture();
  for (const [how, path] of [
    ['bundled as shipped', bundle],
    ['under tsx', undefined],
  ] as const) {
    results.push(
      await compare({
        name: `secret set start-up, first redaction included (${how})`,
        goal: 1.5,
        runs: 9,
        baseline: { label: "Cove's patterns only", run: () => startOnce('patterns-only', path) },
        cove: { label: "with gitleaks' rules", run: () => startOnce('full', path) },
      }),
    );
  }

  const output = mixedOutput(20 * MB, 11);
  const workspace = mkdtempSync(join(tmpdir(), 'cove-bench-redact-ws-'));
  const home = mkdtempSync(join(tmpdir(), 'cove-bench-redact-'));
  writeFileSync(join(workspace, 'mixed.txt'), `${output}\n`);
  const answered = (request: RecordedRequest) => JSON.stringify(request.body.messages.at(-1)).includes('tool_result');
  const server = await startModelServer((request) => (answered(request) ? reply.text('done') : reply.message([block.toolUse('bash', { command: 'cat mixed.txt' })])));
  const env = { PATH: process.env.PATH, HOME: process.env.HOME, ANTHROPIC_API_KEY: 'bench', ANTHROPIC_BASE_URL: server.url, COVE_HOME: home };
  try {
    await coveRun(workspace, env);
    const runs = [0, 1, 2].map(() => 0);
    for (let index = 0; index < runs.length; index++) runs[index] = await coveRun(workspace, env);
    const twenty = pieces(output, 64 * 1024);
    const inProcess = median([0, 1, 2].map(() => toolViews(twenty, secrets) - toolViews(twenty, undefined)));
    const endToEnd = median(runs);
    results.push({
      kind: 'measurement',
      name: 'redaction share of bash cat 20 MB through cove run',
      value: (100 * inProcess) / endToEnd,
      unit: '%',
      goal: undefined,
      detail: `redaction adds ${inProcess.toFixed(0)} ms to the tool's output handling; ${endToEnd.toFixed(0)} ms end to end; medians of 3`,
    });
  } finally {
    await server.close();
    rmSync(home, { recursive: true, force: true });
    rmSync(workspace, { recursive: true, force: true });
  }
  return results;
};
export default benchmark;
