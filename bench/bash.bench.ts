/**
 * The bash tool's overhead on a large output: the tool running `seq 1 1000000` (PTY, end-marker
 * handshake, ANSI cleaning, head/tail cap, coalesced UI updates) against a bare node-pty spawn
 * that only reads the same output to the end.
 */
import { mkdtempSync, realpathSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { bashTool } from '../electron/core/tools/bash';
import { assertBashRan, barePty, bashContext, resultText } from './bash-baseline';
import { compare, type Benchmark } from './support';

const COMMAND = 'seq 1 1000000';

const benchmark: Benchmark = async () => {
  const workspace = realpathSync(mkdtempSync(join(tmpdir(), 'cove-bench-bash-')));
  try {
    return [
      await compare({
        name: `bash: ${COMMAND}`,
        goal: 1.5,
        runs: 9,
        baseline: { label: 'bare node-pty', run: () => barePty(COMMAND, workspace, '1000000') },
        cove: {
          label: 'bash tool',
          run: async () => {
            const result = await bashTool.execute({ command: COMMAND }, bashContext(workspace));
            assertBashRan(resultText(result), '1000000', 'bash.bench');
          },
        },
      }),
    ];
  } finally {
    rmSync(workspace, { recursive: true, force: true });
  }
};
export default benchmark;
