/**
 * What a checkpoint adds to a mutating call in a 20,000-file git repository, against a bare
 * `git status` on the same tree (the least any tool that asks "what changed?" must pay). Each
 * run first edits one file, as the call before it would have, so both sides see a warm tree
 * with one change; the checkpoint is recorded through the same middleware a session uses.
 */
import { execFileSync, spawn } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { SessionCheckpoints } from '../electron/core/checkpoints/session-checkpoints';
import { DEFAULT_CHECKPOINT_SETTINGS } from '../electron/core/checkpoints/settings';
import type { ToolCallRequest } from '../electron/core/agent/types';
import { compare, writeSourceTree, type BenchmarkResult } from './support';

const TREE = join(tmpdir(), 'cove-bench-checkpoints-tree-v1');
const FOLDERS = 25;
const SUBFOLDERS = 20;
const FILES_PER_FOLDER = 40;

function ensureRepository(): number {
  const total = FOLDERS * SUBFOLDERS * FILES_PER_FOLDER;
  const marker = join(TREE, '.git', 'cove-bench-complete');
  if (existsSync(marker)) return total;
  writeSourceTree(TREE, { folders: FOLDERS, subfolders: SUBFOLDERS, filesPerFolder: FILES_PER_FOLDER }, (index) => `export const value${index} = ${index};\n`);
  const env = { ...process.env, GIT_CONFIG_GLOBAL: '/dev/null', GIT_AUTHOR_NAME: 'bench', GIT_AUTHOR_EMAIL: 'b@b', GIT_COMMITTER_NAME: 'bench', GIT_COMMITTER_EMAIL: 'b@b' };
  execFileSync('git', ['init', '-q'], { cwd: TREE, env });
  execFileSync('git', ['add', '-A'], { cwd: TREE, env });
  execFileSync('git', ['commit', '-q', '-m', 'tree'], { cwd: TREE, env });
  writeFileSync(marker, '');
  return total;
}

function gitStatus(): Promise<void> {
  return new Promise((resolve, reject) => {
    const child = spawn('git', ['status', '--porcelain'], { cwd: TREE, stdio: ['ignore', 'pipe', 'ignore'], env: { ...process.env, GIT_CONFIG_GLOBAL: '/dev/null' } });
    child.stdout.resume();
    child.on('error', reject);
    child.on('close', (code) => (code === 0 ? resolve() : reject(new Error(`git status exited ${code}`))));
  });
}

function call(toolCallId: string): ToolCallRequest {
  return {
    sessionId: 'bench',
    toolCallId,
    toolName: 'edit_file',
    args: {},
    sensitivity: 'mutating',
    workspaceRoots: [TREE],
    signal: new AbortController().signal,
    messages: [],
    runPrompts: [],
    userRequest: () => undefined,
  };
}

/**
 * Collects the checkpoint events a session emits, and checks that the one for `toolCallId`
 * recorded a commit of the tree: the middleware allows the call even when the checkpoint failed
 * (unless settings require one), so "allow" alone would time a failure as a checkpoint.
 */
function checkpointLog() {
  const events: Array<{ toolCallId?: string; roots?: Array<{ commit?: string }>; problems?: string[] }> = [];
  return {
    emit: (event: unknown) => void events.push(event as (typeof events)[number]),
    assertRecorded(toolCallId: string) {
      const event = events.find((candidate) => candidate.toolCallId === toolCallId);
      if (!event || event.roots?.length !== 1 || !event.roots[0]?.commit) {
        throw new Error(`checkpoints.bench: no checkpoint was recorded before ${toolCallId}: ${JSON.stringify(event ?? 'no event')}`);
      }
    },
  };
}

export default async function checkpointsBenchmark(): Promise<BenchmarkResult[]> {
  const files = ensureRepository();
  const home = mkdtempSync(join(tmpdir(), 'cove-bench-checkpoints-home-'));
  try {
    const log = checkpointLog();
    const checkpoints = new SessionCheckpoints({ coveHome: home, sessionId: 'bench', workspaceRoots: [TREE], settings: DEFAULT_CHECKPOINT_SETTINGS, emit: log.emit });
    let edits = 0;
    const edit = () => writeFileSync(join(TREE, 'pkg3', 'mod4', 'file5.ts'), `export const edited = ${edits++};\n`);
    // The first checkpoint of a workspace copies all of it; every later one is what a call pays.
    const start = process.hrtime.bigint();
    await checkpoints.middleware.beforeTool(call('first'));
    log.assertRecorded('first');
    const firstMs = Number(process.hrtime.bigint() - start) / 1e6;
    let calls = 0;
    const comparison = await compare({
      name: `checkpoint before a call, ${files}-file git repository, one file edited`,
      goal: 3,
      runs: 11,
      baseline: {
        label: 'git status',
        run: async () => {
          edit();
          await gitStatus();
        },
      },
      cove: {
        label: 'checkpoint',
        run: async () => {
          edit();
          const id = `call${calls++}`;
          const decision = await checkpoints.middleware.beforeTool(call(id));
          if (decision.action !== 'allow') throw new Error(`the checkpoint was not recorded: ${JSON.stringify(decision)}`);
          log.assertRecorded(id);
        },
      },
    });
    await checkpoints.finishRun();
    // Each run's first checkpoint walks the tree and starts the watcher (a later run in the same
    // workspace, so the shadow repository exists): what `cove run`'s first mutating call pays; the
    // app and `cove serve` take it at the run's start, while the model thinks.
    const runStarts: number[] = [];
    for (let run = 0; run < 5; run++) {
      const next = new SessionCheckpoints({ coveHome: home, sessionId: `bench${run}`, workspaceRoots: [TREE], settings: DEFAULT_CHECKPOINT_SETTINGS, emit: log.emit });
      edit();
      const began = process.hrtime.bigint();
      await next.middleware.beforeTool(call(`run${run}`));
      runStarts.push(Number(process.hrtime.bigint() - began) / 1e6);
      log.assertRecorded(`run${run}`);
      await next.finishRun();
    }
    const runStartMs = [...runStarts].sort((a, b) => a - b)[Math.floor(runStarts.length / 2)]!;
    return [
      comparison,
      {
        kind: 'measurement',
        name: "a run's first checkpoint (median, shadow repository exists)",
        value: runStartMs,
        unit: 'ms',
        goal: undefined,
        detail: `${files} files; a walk of the tree with git status and the watcher started; median of ${runStarts.length}`,
      },
      {
        kind: 'measurement',
        name: 'checkpoint cost per call (median, warm tree)',
        value: comparison.coveMs,
        unit: 'ms',
        goal: 50,
        detail: `${files} files; the first checkpoint of the workspace took ${firstMs.toFixed(0)} ms`,
      },
    ];
  } finally {
    rmSync(home, { recursive: true, force: true });
  }
}
