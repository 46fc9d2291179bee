/**
 * Big command output as a user feels it: `cove run` (a whole process, with and without --json)
 * whose model asks for `seq 1 1000000`, against the same run asking for `true`. What the big
 * output adds is set beside a bare node-pty reading the same output (less its own `true` run),
 * and what is left after the PTY read (cleaning, redaction, events, store, printing) is reported
 * against its own goal. All four run in turn in each round, so load hits them alike.
 */
import { spawn } from 'node:child_process';
import { existsSync, mkdtempSync, realpathSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { block, reply, startModelServer, type RecordedRequest } from '../test/support/model-server';
import { barePty } from './bash-baseline';
import { median, type Benchmark, type BenchmarkResult } from './support';

const root = resolve(import.meta.dirname, '..');
export const BIG_COMMAND = 'seq 1 1000000';
const ROUNDS = 7;

/** The model runs the prompt as a bash command, then answers once it has the result. */
export function commandScript(request: RecordedRequest) {
  const last = request.body.messages.at(-1)!;
  const answered = Array.isArray(last.content) && last.content.some((part) => part.type === 'tool_result');
  if (answered) return reply.text('done');
  const prompt =
    typeof last.content === 'string' ? last.content : last.content.flatMap((part) => (part.type === 'text' ? [part.text] : [])).join('').trim();
  return reply.message([block.toolUse('bash', { command: prompt })]);
}

function cove(args: string[], env: NodeJS.ProcessEnv): Promise<number> {
  return new Promise((resolvePromise, reject) => {
    const started = process.hrtime.bigint();
    const child = spawn(process.execPath, [join(root, 'bin/cove.js'), ...args], { cwd: root, env, stdio: ['ignore', 'pipe', 'pipe'] });
    let stderr = '';
    child.stdout.resume();
    child.stderr.setEncoding('utf8').on('data', (chunk: string) => (stderr += chunk));
    child.on('error', reject);
    child.on('close', (code) =>
      code === 0 ? resolvePromise(Number(process.hrtime.bigint() - started) / 1e6) : reject(new Error(`cove ${args.join(' ')} exited ${code}: ${stderr.trim()}`)),
    );
  });
}

async function timed(run: () => Promise<unknown>): Promise<number> {
  const started = process.hrtime.bigint();
  await run();
  return Number(process.hrtime.bigint() - started) / 1e6;
}

const benchmark: Benchmark = async () => {
  if (!existsSync(join(root, 'dist/cli.js'))) throw new Error('bash-run.bench: build first (node scripts/build.mjs)');
  const server = await startModelServer(commandScript);
  const home = mkdtempSync(join(tmpdir(), 'cove-bench-home-'));
  const workspace = realpathSync(mkdtempSync(join(tmpdir(), 'cove-bench-ws-')));
  const env = { PATH: process.env.PATH, HOME: process.env.HOME, ANTHROPIC_API_KEY: 'bench', ANTHROPIC_BASE_URL: server.url, COVE_HOME: home };
  const runArgs = (json: boolean, command: string) => ['run', ...(json ? ['--json'] : []), '--permission-mode', 'bypass', '--workspace', workspace, command];
  const results: BenchmarkResult[] = [];
  try {
    for (const json of [true, false]) {
      const label = json ? 'cove run --json' : 'cove run';
      const samples = { bareBig: [] as number[], bareSmall: [] as number[], coveBig: [] as number[], coveSmall: [] as number[] };
      for (let round = -1; round < ROUNDS; round++) {
        const bareBig = await timed(() => barePty(BIG_COMMAND, workspace));
        const bareSmall = await timed(() => barePty('echo 1', workspace));
        const coveBig = await cove(runArgs(json, BIG_COMMAND), env);
        const coveSmall = await cove(runArgs(json, 'echo 1'), env);
        // The first round warms the disk cache and the store; it is not counted.
        if (round < 0) continue;
        samples.bareBig.push(bareBig);
        samples.bareSmall.push(bareSmall);
        samples.coveBig.push(coveBig);
        samples.coveSmall.push(coveSmall);
      }
      const bareRead = median(samples.bareBig) - median(samples.bareSmall);
      const coveExtra = median(samples.coveBig) - median(samples.coveSmall);
      results.push({
        kind: 'comparison',
        name: `${label}: ${BIG_COMMAND} over echo 1`,
        baselineLabel: 'bare node-pty read',
        coveLabel: 'extra time',
        baselineMs: bareRead,
        coveMs: coveExtra,
        ratio: coveExtra / bareRead,
        goal: 1.5,
      });
      results.push({
        kind: 'measurement',
        name: `${label}: work after the PTY`,
        value: coveExtra - bareRead,
        unit: 'ms',
        goal: 100,
        detail: `extra time less the bare read; medians of ${ROUNDS}: cove ${median(samples.coveBig).toFixed(0)} / ${median(samples.coveSmall).toFixed(0)} ms, bare ${median(samples.bareBig).toFixed(0)} / ${median(samples.bareSmall).toFixed(0)} ms`,
      });
    }
    return results;
  } finally {
    await server.close();
    rmSync(home, { recursive: true, force: true });
    rmSync(workspace, { recursive: true, force: true });
  }
};
export default benchmark;
