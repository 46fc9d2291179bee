// `cove run` in text mode after a stream is cut and retried: nothing of the discarded attempt may
// stay, whether stdout is a file (a pipe here) or a terminal (a real PTY, drawn by xterm's own
// headless terminal so that what is checked is what a person would see).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawn as spawnPty } from 'node-pty';
import xterm from '@xterm/headless';
import { block, reply } from '../support/model-server';
import { cliFixture, COVE_BIN } from '../support/cove-cli';

const PARTIAL = 'Half of a first attempt that wraps over several rows of a narrow terminal, then breaks off';
const WHOLE = 'The retried reply, whole and alone.';

function script() {
  return [reply.cut({ partial: reply.message([block.text(PARTIAL, { chunks: 6 })]) }), reply.text(WHOLE, { chunks: 3 })];
}

test('stdout to a file or pipe holds only the retried reply', async () => {
  const f = await cliFixture(script());
  try {
    const result = await f.home.run(['run', '--workspace', f.workspace, 'Answer me']);
    assert.equal(result.code, 0, result.stderr);
    assert.equal(result.stdout, `${WHOLE}\n`);
    assert.match(result.stderr, /retrying \(attempt 2 of/);
  } finally {
    await f.close();
  }
});

test('on a terminal the attempt streams live and is erased when it is retried', async () => {
  const f = await cliFixture(script());
  const columns = 30;
  const terminal = new xterm.Terminal({ cols: columns, rows: 40, allowProposedApi: true });
  try {
    const pty = spawnPty(process.execPath, [COVE_BIN, 'run', '--workspace', f.workspace, 'Answer me'], {
      cols: columns,
      rows: 40,
      cwd: f.workspace,
      env: f.home.env() as Record<string, string>,
    });
    let raw = '';
    const written: Promise<void>[] = [];
    pty.onData((data) => {
      raw += data;
      written.push(new Promise((resolve) => terminal.write(data, resolve)));
    });
    const code = await new Promise<number>((resolve) => pty.onExit(({ exitCode }) => resolve(exitCode)));
    await Promise.all(written);
    assert.equal(code, 0, raw);
    // The attempt was drawn before it was discarded: it streamed live.
    assert.match(raw.replace(/\r\n/g, ''), /Half of a first/);
    const buffer = terminal.buffer.active;
    const screen = Array.from({ length: buffer.length }, (_, row) => buffer.getLine(row)?.translateToString(true) ?? '').join('\n');
    assert.doesNotMatch(screen, /Half|first attempt|breaks off|narrow/);
    assert.match(screen.replace(/\n/g, ''), /The retried reply, whole and alone\./);
    assert.match(screen, /retrying/);
  } finally {
    terminal.dispose();
    await f.close();
  }
});
