/**
 * Big command output as a user feels it: `cove run` (a whole process, with and without --json)
 * whose model asks for `seq 1 1000000`, against the same run asking for `echo 1`. What the big
 * output adds is set beside a bare node-pty reading the same output (less its own small run),
 * and what is left after the PTY read (cleaning, redaction, events, store, printing) is reported
 * against its own goal, in wall time and in CPU time (user + system, the command's included,
 * from /usr/bin/time): on a loaded machine the CPU time is the steadier figure. All four run in
 * turn in each round, so load hits them alike.
 */
import { spawn } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, realpathSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { SecretSet } from '../electron/core/secrets';
import { block, reply, startModelServer, type RecordedRequest } from '../test/support/model-server';
import { assertBashRan, lastToolResultText } from './bash-baseline';
import { median, type Benchmark, type BenchmarkResult } from './support';

const root = resolve(import.meta.dirname, '..');
export const BIG_COMMAND = 'seq 1 1000000';
/** The last line each command prints: every timed run is checked to have printed it. */
const LAST_LINE: Record<string, string> = { [BIG_COMMAND]: '1000000', 'echo 1': '1' };
const ROUNDS = 7;

/** The model runs the prompt as a bash command, then answers once it has the result. */
export function commandScript(request: RecordedRequest) {
  const last = request.body.messages.at(-1)!;
  const answered = Array.isArray(last.content) && last.content.some((part) => part.type === 'tool_result');
  if (answered) return reply.text('done');
  const prompt =
    typeof last.content === 'string'
      ? last.content
      : last.content
          .flatMap((part) => (part.type === 'text' ? [part.text] : []))
          .join('')
          .trim();
  return reply.message([block.toolUse('bash', { command: prompt })]);
}

interface Timing {
  wallMs: number;
  cpuMs: number;
}

/** Runs a node script under /usr/bin/time: its wall time, and the CPU time of it and its children. */
function timedProcess(args: string[], env: NodeJS.ProcessEnv, timesFile: string): Promise<Timing> {
  return new Promise((resolvePromise, reject) => {
    const started = process.hrtime.bigint();
    const child = spawn('/usr/bin/time', ['-f', '%U %S', '-o', timesFile, process.execPath, ...args], { cwd: root, env, stdio: ['ignore', 'pipe', 'pipe'] });
    let stderr = '';
    child.stdout.resume();
    child.stderr.setEncoding('utf8').on('data', (chunk: string) => (stderr += chunk));
    child.on('error', reject);
    child.on('close', (code) => {
      const wallMs = Number(process.hrtime.bigint() - started) / 1e6;
      if (code !== 0) return reject(new Error(`${args.join(' ')} exited ${code}: ${stderr.trim()}`));
      const [user, system] = readFileSync(timesFile, 'utf8').trim().split(/\s+/).slice(-2).map(Number);
      resolvePromise({ wallMs, cpuMs: (user! + system!) * 1000 });
    });
  });
}

/** Redacting all of the command's output once, as a share of the run: a bound, since the tool redacts its model copy's head and tail and each UI batch. */
function redactionShare(label: string, runMs: number): BenchmarkResult {
  const output = Array.from({ length: 1_000_000 }, (_, index) => index + 1).join('\n');
  const secrets = new SecretSet();
  secrets.redactLines(output);
  const times = [0, 1, 2].map(() => {
    const started = performance.now();
    secrets.redactLines(output);
    return performance.now() - started;
  });
  const redactMs = median(times);
  return {
    kind: 'measurement',
    name: `${label}: redaction's share of ${BIG_COMMAND}`,
    value: (100 * redactMs) / runMs,
    unit: '%',
    goal: undefined,
    detail: `${redactMs.toFixed(0)} ms of a ${runMs.toFixed(0)} ms run`,
  };
}

const benchmark: Benchmark = async () => {
  if (!existsSync(join(root, 'dist/cli.js'))) throw new Error('bash-run.bench: build first (node scripts/build.mjs)');
  const server = await startModelServer(commandScript);
  // One COVE_HOME per mode: each run stores its 7 MB of output, so a shared store would make the
  // second mode run on a store the first one grew, and the two could not be compared.
  const homes = [true, false].map(() => mkdtempSync(join(tmpdir(), 'cove-bench-home-')));
  const workspace = realpathSync(mkdtempSync(join(tmpdir(), 'cove-bench-ws-')));
  const results: BenchmarkResult[] = [];
  try {
    for (const [index, json] of [true, false].entries()) {
      const home = homes[index]!;
      // COVE_BWRAP passes through, so `COVE_BWRAP=/missing` shows what the bench does without a sandbox (it fails).
      const env = { PATH: process.env.PATH, HOME: process.env.HOME, ANTHROPIC_API_KEY: 'bench', ANTHROPIC_BASE_URL: server.url, COVE_HOME: home, COVE_BWRAP: process.env.COVE_BWRAP };
      const timesFile = join(home, 'times.txt');
      const label = json ? 'cove run --json' : 'cove run';
      const cove = async (command: string) => {
        const before = server.requests.length;
        const timing = await timedProcess([join(root, 'bin/cove.js'), 'run', ...(json ? ['--json'] : []), '--permission-mode', 'bypass', '--workspace', workspace, command], env, timesFile);
        // What the model was sent back: a denied or failed call would time as fast as nothing.
        assertBashRan(lastToolResultText(server.requests.slice(before)), LAST_LINE[command]!, `bash-run.bench, ${label} ${command}`);
        return timing;
      };
      const bare = (command: string) => timedProcess([join(root, 'bench/fixtures/bare-pty.mjs'), command, workspace, LAST_LINE[command]!], env, timesFile);
      const samples: Record<'bareBig' | 'bareSmall' | 'coveBig' | 'coveSmall', Timing[]> = { bareBig: [], bareSmall: [], coveBig: [], coveSmall: [] };
      for (let round = -1; round < ROUNDS; round++) {
        const timings = { bareBig: await bare(BIG_COMMAND), bareSmall: await bare('echo 1'), coveBig: await cove(BIG_COMMAND), coveSmall: await cove('echo 1') };
        // The first round warms the disk cache and the store; it is not counted.
        if (round < 0) continue;
        for (const [key, timing] of Object.entries(timings)) samples[key as keyof typeof samples].push(timing);
      }
      const of = (key: keyof typeof samples, field: keyof Timing) => median(samples[key].map((timing) => timing[field]));
      const bareRead = of('bareBig', 'wallMs') - of('bareSmall', 'wallMs');
      const coveExtra = of('coveBig', 'wallMs') - of('coveSmall', 'wallMs');
      const bareCpu = of('bareBig', 'cpuMs') - of('bareSmall', 'cpuMs');
      const coveCpu = of('coveBig', 'cpuMs') - of('coveSmall', 'cpuMs');
      const medians = (field: keyof Timing) =>
        `cove ${of('coveBig', field).toFixed(0)} / ${of('coveSmall', field).toFixed(0)} ms, bare ${of('bareBig', field).toFixed(0)} / ${of('bareSmall', field).toFixed(0)} ms`;
      results.push(
        {
          kind: 'comparison',
          name: `${label}: ${BIG_COMMAND} over echo 1`,
          baselineLabel: 'bare node-pty read',
          coveLabel: 'extra time',
          baselineMs: bareRead,
          coveMs: coveExtra,
          ratio: coveExtra / bareRead,
          goal: 1.5,
        },
        {
          kind: 'comparison',
          name: `${label}: ${BIG_COMMAND} over echo 1, CPU time`,
          baselineLabel: 'bare node-pty read',
          coveLabel: 'extra CPU',
          baselineMs: bareCpu,
          coveMs: coveCpu,
          ratio: coveCpu / bareCpu,
          goal: 1.5,
        },
        {
          kind: 'measurement',
          name: `${label}: work after the PTY (wall)`,
          value: coveExtra - bareRead,
          unit: 'ms',
          goal: 100,
          detail: `extra time less the bare read; medians of ${ROUNDS}: ${medians('wallMs')}`,
        },
        {
          kind: 'measurement',
          name: `${label}: work after the PTY (CPU)`,
          value: coveCpu - bareCpu,
          unit: 'ms',
          goal: 100,
          detail: `extra CPU less the bare read's; medians of ${ROUNDS}: ${medians('cpuMs')}`,
        },
        redactionShare(label, of('coveBig', 'wallMs')),
      );
    }
    return results;
  } finally {
    await server.close();
    for (const home of homes) rmSync(home, { recursive: true, force: true });
    rmSync(workspace, { recursive: true, force: true });
  }
};
export default benchmark;
