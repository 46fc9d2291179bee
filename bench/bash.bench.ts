/**
 * The bash tool's overhead on a large output: the tool running `seq 1 1000000` (PTY, end-marker
 * handshake, ANSI cleaning, head/tail cap, coalesced UI updates) against a bare node-pty spawn
 * that only reads the same output to the end.
 */
import { mkdtempSync, realpathSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pty from 'node-pty';
import { MemorySnapshotStore, NO_SECRETS, type ToolContext } from '../electron/core/agent/types';
import { bashTool } from '../electron/core/tools/bash';
import { compare, type Benchmark } from './support';

const COMMAND = 'seq 1 1000000';

function barePty(cwd: string): Promise<void> {
  return new Promise((resolve, reject) => {
    const child = pty.spawn('/bin/bash', ['-c', COMMAND], {
      name: 'xterm-256color',
      cols: 120,
      rows: 30,
      cwd,
      env: { PATH: process.env.PATH ?? '/usr/bin:/bin' },
    });
    let bytes = 0;
    child.onData((chunk) => (bytes += chunk.length));
    child.onExit(({ exitCode }) => (exitCode === 0 && bytes > 0 ? resolve() : reject(new Error(`bare pty exited ${exitCode}`))));
  });
}

function context(cwd: string): ToolContext {
  return {
    toolCallId: 'bench',
    toolName: 'bash',
    signal: new AbortController().signal,
    onUpdate: () => {},
    onProgress: () => {},
    workspaceRoots: [cwd],
    secrets: NO_SECRETS,
    sessionId: 'bench',
    cwd,
    snapshots: new MemorySnapshotStore(),
  };
}

const benchmark: Benchmark = async () => {
  const workspace = realpathSync(mkdtempSync(join(tmpdir(), 'cove-bench-bash-')));
  try {
    return [
      await compare({
        name: `bash: ${COMMAND}`,
        goal: 1.5,
        runs: 9,
        baseline: { label: 'bare node-pty', run: () => barePty(workspace) },
        cove: {
          label: 'bash tool',
          run: async () => {
            const result = await bashTool.execute({ command: COMMAND }, context(workspace));
            if ((result.details as { exitCode: number | null }).exitCode !== 0) throw new Error('seq failed');
          },
        },
      }),
    ];
  } finally {
    rmSync(workspace, { recursive: true, force: true });
  }
};
export default benchmark;
