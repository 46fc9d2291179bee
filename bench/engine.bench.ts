/**
 * The engine's overhead on a long streamed reply: `cove run --json` (a whole process: start-up,
 * session store, event publishing, JSON lines on stdout) against the bare SDK consuming the same
 * 20,000-delta stream from the same scripted server, each as its own process.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startModelServer, reply } from '../test/support/model-server';
import { compare, runNode, type Benchmark } from './support';

async function runProcess(args: string[], env: NodeJS.ProcessEnv): Promise<void> {
  const { code, stderr } = await runNode(args, env);
  if (code !== 0) throw new Error(`${args.join(' ')} exited ${code}: ${stderr.trim()}`);
}

const benchmark: Benchmark = async () => {
  const deltas = 20_000;
  const payload = reply.manyDeltas(deltas);
  const server = await startModelServer(() => payload);
  const home = mkdtempSync(join(tmpdir(), 'cove-bench-'));
  const workspace = mkdtempSync(join(tmpdir(), 'cove-bench-ws-'));
  const env = { PATH: process.env.PATH, HOME: process.env.HOME, ANTHROPIC_API_KEY: 'bench', ANTHROPIC_BASE_URL: server.url, COVE_HOME: home };
  try {
    return [
      await compare({
        name: `stream ${deltas.toLocaleString('en')} deltas`,
        goal: 1.2,
        runs: 9,
        baseline: { label: 'bare SDK', run: () => runProcess(['bench/fixtures/bare-sdk-stream.mjs'], env) },
        cove: { label: 'cove run --json', run: () => runProcess(['bin/cove.js', 'run', '--json', '--workspace', workspace, 'stream'], env) },
      }),
    ];
  } finally {
    await server.close();
    rmSync(home, { recursive: true, force: true });
    rmSync(workspace, { recursive: true, force: true });
  }
};
export default benchmark;
