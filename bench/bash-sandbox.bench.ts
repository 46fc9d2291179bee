/**
 * What the OS sandbox costs bash. End to end: `cove run --permission-mode bypass` making ten bash
 * calls with the sandbox on against the same run with `"sandbox": {"enabled": false}`; per call:
 * the bash tool inside bubblewrap against the tool without it and against a bare node-pty
 * running the same command. The sandbox's own cost per call is the difference of the medians.
 */
import { mkdtempSync, realpathSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { prepareSandbox, sandboxAvailability } from '../electron/core/bash-sandbox';
import { createBashTool } from '../electron/core/tools/bash';
import { block, reply, startModelServer, type RecordedRequest } from '../test/support/model-server';
import { assertBashRan, barePty, bashContext, resultText, toolResultBlocks, toolResultBlockText } from './bash-baseline';
import { compare, runNode, type Benchmark, type BenchmarkResult } from './support';

const COMMAND = 'echo hello';
const CALLS = 10;
/** SPEC's goal for the sandbox's own cost. */
const GOAL_MS = 30;

/** Each of the run's tool_results, as the model got them: all CALLS must have run (`echo hello N` printing `hello N`). */
function checkToolResults(request: RecordedRequest | undefined, sandboxed: boolean): void {
  const results = toolResultBlocks(request);
  if (results.length !== CALLS) throw new Error(`bash-sandbox.bench: the model got ${results.length} of ${CALLS} tool results`);
  results.forEach((result, index) => {
    assertBashRan(toolResultBlockText(result), `hello ${index}`, `bash-sandbox.bench, cove run with the sandbox ${sandboxed ? 'on' : 'off'}, call ${index}`);
  });
}

async function runProcess(args: string[], env: NodeJS.ProcessEnv): Promise<void> {
  const { code, stderr } = await runNode(args, env);
  // Tool calls and their exit codes are printed on stderr.
  const ran = (stderr.match(/\[exit code 0\]/g) ?? []).length;
  if (code !== 0 || ran !== CALLS) throw new Error(`cove run exited ${code} after ${ran} of ${CALLS} bash calls: ${stderr.trim()}`);
}

const benchmark: Benchmark = async () => {
  const availability = sandboxAvailability();
  if (!availability.available) {
    process.stderr.write(`bash-sandbox: skipped, no sandbox can run here: ${availability.reason}\n`);
    return [];
  }
  // Each call differs (the engine stops a model that repeats itself exactly).
  const server = await startModelServer((request) => {
    const done = toolResultBlocks(request).length;
    return done < CALLS ? reply.message([block.toolUse('bash', { command: `${COMMAND} ${done}` })]) : reply.text('done');
  });
  const homeOn = mkdtempSync(join(tmpdir(), 'cove-bench-sandbox-on-'));
  const homeOff = mkdtempSync(join(tmpdir(), 'cove-bench-sandbox-off-'));
  writeFileSync(join(homeOff, 'settings.json'), JSON.stringify({ sandbox: { enabled: false } }));
  const workspace = realpathSync(mkdtempSync(join(tmpdir(), 'cove-bench-sandbox-ws-')));
  const env = (home: string) => ({ PATH: process.env.PATH, HOME: process.env.HOME, ANTHROPIC_API_KEY: 'bench', ANTHROPIC_BASE_URL: server.url, COVE_HOME: home });
  const run = (home: string) => async () => {
    const before = server.requests.length;
    await runProcess(['bin/cove.js', 'run', '--permission-mode', 'bypass', '--workspace', workspace, 'run it'], env(home));
    checkToolResults(server.requests.slice(before).at(-1), home === homeOn);
  };
  const sandboxed = createBashTool({ sandbox: { coveHome: homeOn } });
  const unsandboxed = createBashTool({ sandbox: { coveHome: homeOff } });
  const call = (tool: typeof sandboxed, expected: 'bubblewrap' | 'seatbelt' | 'off') => async () => {
    const result = await tool.execute({ command: COMMAND }, bashContext(workspace));
    assertBashRan(resultText(result), 'hello', `bash-sandbox.bench, the tool with the sandbox ${expected}`);
    // The tool runs a command unsandboxed when none can run (a person approved it): that must not time as "on".
    const ranIn = (result.details as { sandbox: string }).sandbox;
    if (ranIn !== expected) throw new Error(`bash-sandbox.bench: the call ran with sandbox "${ranIn}", not "${expected}"`);
  };
  try {
    const endToEnd = await compare({
      name: `cove run, ${CALLS} bash calls`,
      goal: 1.3,
      runs: 7,
      baseline: { label: 'sandbox off', run: run(homeOff) },
      cove: { label: 'sandbox on', run: run(homeOn) },
    });
    const perCall = await compare({
      name: `bash tool: ${COMMAND}`,
      goal: 2,
      runs: 21,
      baseline: { label: 'sandbox off', run: call(unsandboxed, 'off') },
      cove: { label: `sandbox on (${availability.kind})`, run: call(sandboxed, availability.kind) },
    });
    const againstBare = await compare({
      name: `bash tool in the sandbox vs bare node-pty: ${COMMAND}`,
      goal: 3,
      runs: 21,
      baseline: { label: 'bare node-pty', run: () => barePty(COMMAND, workspace, 'hello') },
      cove: { label: `sandbox on (${availability.kind})`, run: call(sandboxed, availability.kind) },
    });
    const results: BenchmarkResult[] = [endToEnd, perCall, againstBare];
    results.push({
      kind: 'measurement',
      name: 'bash sandbox cost per call, cove run',
      value: (endToEnd.coveMs - endToEnd.baselineMs) / CALLS,
      unit: 'ms',
      goal: GOAL_MS,
      detail: `(median on − median off) / ${CALLS} calls`,
    });
    results.push({
      kind: 'measurement',
      name: 'bash sandbox cost per call, tool',
      value: perCall.coveMs - perCall.baselineMs,
      unit: 'ms',
      goal: GOAL_MS,
      detail: `median ${perCall.coveMs.toFixed(1)} ms on − ${perCall.baselineMs.toFixed(1)} ms off`,
    });
    const launches = 50;
    const started = performance.now();
    for (let index = 0; index < launches; index++) {
      const prepared = prepareSandbox({ workspaceRoots: [workspace], cwd: workspace, coveHome: homeOn });
      if (prepared.state === 'on') prepared.launch.release();
    }
    results.push({
      kind: 'measurement',
      name: 'bash sandbox set-up in Cove, per call',
      value: (performance.now() - started) / launches,
      unit: 'ms',
      goal: undefined,
      detail: 'settings, policy, placeholders and their removal; the rest of the cost is bwrap itself',
    });
    return results;
  } finally {
    await server.close();
    for (const path of [homeOn, homeOff, workspace]) rmSync(path, { recursive: true, force: true });
  }
};
export default benchmark;
