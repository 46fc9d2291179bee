/**
 * The engine's overhead on a long streamed reply: `cove run --json` (a whole process: start-up,
 * session store, event publishing, JSON lines on stdout) against the bare SDK consuming the same
 * 20,000-delta stream from the same scripted server, each as its own process.
 *
 * Each run is checked after it is timed: the bare SDK must have read all 20,000 deltas and their
 * whole text, and Cove's events must carry that same text in their `messageUpdate` deltas and in
 * `messageEnd`, numbered 1, 2, 3, … without a gap. A run that lost, doubled or reordered work
 * fails the benchmark instead of looking fast.
 *
 * `COVE_BENCH_BEFORE=/path/to/other/tree` also runs that tree's `cove run --json` (built there)
 * in the same rounds, so a change is judged against the code before it under the same load;
 * `COVE_BENCH_RUNS=n` sets the number of rounds (default 9).
 */
import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { startModelServer, reply } from '../test/support/model-server';
import { compare, median, type Benchmark, type ComparisonResult, type Contender } from './support';

const root = resolve(import.meta.dirname, '..');
const DELTAS = 20_000;
const DELTA = 'tok ';
const EXPECTED = DELTA.repeat(DELTAS);
/** `COVE_BENCH_RUNS` runs more rounds where the machine is loaded (its medians swing less). */
const RUNS = Number(process.env.COVE_BENCH_RUNS ?? 9);
if (!Number.isInteger(RUNS) || RUNS < 1) throw new Error(`COVE_BENCH_RUNS must be a whole number of rounds, at least 1, not "${process.env.COVE_BENCH_RUNS}"`);
const GOAL = 1.2;

/** Runs one process to its end; resolves with its wall time (spawn to close) and its stdout. */
function runProcess(args: string[], env: NodeJS.ProcessEnv): Promise<{ ms: number; stdout: string }> {
  return new Promise((resolvePromise, reject) => {
    const start = process.hrtime.bigint();
    const child = spawn(process.execPath, args, { cwd: root, env, stdio: ['ignore', 'pipe', 'pipe'] });
    const out: Buffer[] = [];
    let stderr = '';
    child.stdout.on('data', (chunk: Buffer) => out.push(chunk));
    child.stderr.setEncoding('utf8').on('data', (chunk: string) => (stderr += chunk));
    child.on('error', reject);
    child.on('close', (code) => {
      const ms = Number(process.hrtime.bigint() - start) / 1e6;
      if (code === 0) resolvePromise({ ms, stdout: Buffer.concat(out).toString('utf8') });
      else reject(new Error(`${args.join(' ')} exited ${code}: ${stderr.trim()}`));
    });
  });
}

/** What the bare SDK script printed: its delta count, a newline, then the text it read. */
export function checkBaseline(stdout: string): void {
  const newline = stdout.indexOf('\n');
  const count = Number(stdout.slice(0, newline));
  const text = stdout.slice(newline + 1);
  if (count !== DELTAS) throw new Error(`the bare SDK read ${stdout.slice(0, newline)} text deltas, not ${DELTAS}`);
  if (text !== EXPECTED) throw new Error(`the bare SDK's text is ${text.length} characters and not the streamed reply (${EXPECTED.length})`);
}

/** `cove run --json`'s lines: every delta's text in order, the ended message's text, seqs 1..n. */
export function checkCove(stdout: string): void {
  const events = stdout
    .split('\n')
    .filter((line) => line !== '')
    .map((line) => JSON.parse(line) as { type: string; seq: number; delta?: { type: string; text?: string }; content?: Array<{ type: string; text?: string }> });
  events.forEach((event, index) => {
    if (event.seq !== index + 1) throw new Error(`cove run --json printed seq ${event.seq} as its event number ${index + 1} (${event.type})`);
  });
  const streamed = events
    .filter((event) => event.type === 'messageUpdate' && event.delta?.type === 'text')
    .map((event) => event.delta!.text)
    .join('');
  if (streamed !== EXPECTED) throw new Error(`cove run --json streamed ${streamed.length} characters of text, not the ${EXPECTED.length} of the reply`);
  const ends = events.filter((event) => event.type === 'messageEnd');
  const ended = ends.map((event) => (event.content ?? []).map((block) => (block.type === 'text' ? block.text : '')).join('')).join('');
  if (ends.length !== 1 || ended !== EXPECTED)
    throw new Error(`cove run --json ended ${ends.length} messages with ${ended.length} characters of text, not one with the reply's ${EXPECTED.length}`);
}

function contender(label: string, args: string[], env: NodeJS.ProcessEnv, check: (stdout: string) => void): Contender {
  // The contender times itself, so the check (parsing 80 KB of JSON lines) is not counted.
  return {
    label,
    run: async () => {
      const { ms, stdout } = await runProcess(args, env);
      check(stdout);
      return ms;
    },
  };
}

/** The bare SDK, this tree and another tree, in turn, in the same rounds. */
async function compareThree(baseline: Contender, cove: Contender, before: Contender): Promise<ComparisonResult[]> {
  const times = new Map<Contender, number[]>([baseline, cove, before].map((c) => [c, []]));
  for (const c of times.keys()) await c.run();
  for (let round = 0; round < RUNS; round++) for (const [c, list] of times) list.push((await c.run()) as number);
  const baselineMs = median(times.get(baseline)!);
  return [before, cove].map((c) => {
    const coveMs = median(times.get(c)!);
    return {
      kind: 'comparison',
      name: `stream ${DELTAS.toLocaleString('en')} deltas`,
      baselineLabel: baseline.label,
      coveLabel: c.label,
      baselineMs,
      coveMs,
      ratio: coveMs / baselineMs,
      goal: GOAL,
    };
  });
}

const benchmark: Benchmark = async () => {
  const payload = reply.manyDeltas(DELTAS, { delta: DELTA });
  const server = await startModelServer(() => payload);
  const home = mkdtempSync(join(tmpdir(), 'cove-bench-'));
  const beforeHome = mkdtempSync(join(tmpdir(), 'cove-bench-before-'));
  const workspace = mkdtempSync(join(tmpdir(), 'cove-bench-ws-'));
  const env = { PATH: process.env.PATH, HOME: process.env.HOME, ANTHROPIC_API_KEY: 'bench', ANTHROPIC_BASE_URL: server.url, COVE_HOME: home };
  const runArgs = ['run', '--json', '--workspace', workspace, 'stream'];
  const baseline = contender('bare SDK', ['bench/fixtures/bare-sdk-stream.mjs'], env, checkBaseline);
  const cove = contender('cove run --json', ['bin/cove.js', ...runArgs], env, checkCove);
  const beforeTree = process.env.COVE_BENCH_BEFORE;
  try {
    if (beforeTree) {
      // The tree before may be the one that lost text (the 2 KB redaction window did): it is
      // timed all the same, and what it got wrong is said once rather than failing the run.
      let said = false;
      const noteOnce = (stdout: string) => {
        try {
          checkCove(stdout);
        } catch (error) {
          if (!said) process.stderr.write(`the tree before: ${(error as Error).message}\n`);
          said = true;
        }
      };
      const before = contender(`before (${beforeTree})`, [join(resolve(beforeTree), 'bin/cove.js'), ...runArgs], { ...env, COVE_HOME: beforeHome }, noteOnce);
      return await compareThree(baseline, cove, before);
    }
    return [await compare({ name: `stream ${DELTAS.toLocaleString('en')} deltas`, goal: GOAL, runs: RUNS, baseline, cove })];
  } finally {
    await server.close();
    for (const dir of [home, beforeHome, workspace]) rmSync(dir, { recursive: true, force: true });
  }
};
export default benchmark;
