// The check before the first command on macOS: a node-pty whose spawn-helper lost its execute
// bit (node-pty#850) gives an error naming the file and the fix, on a real folder on disk, and
// passes once scripts/spawn-helper.mjs has run over that folder.
import { test, describe } from 'node:test';
import assert from 'node:assert/strict';
import { chmodSync, existsSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { ToolError } from '../../electron/core/agent/types';
import { assertPtyHelper, isExecutable, ptyHelperProblem, type HelperProbe } from '../../electron/core/tools/pty-helper';

const fixer = (await import(pathToFileURL(resolve('scripts/spawn-helper.mjs')).href)) as { makeSpawnHelpersExecutable(dir: string): string[] };

function onDisk(nodePtyDir: string, platform: NodeJS.Platform = 'darwin'): HelperProbe {
  return {
    platform,
    arch: 'arm64',
    nodePtyDir,
    exists: existsSync,
    executable: isExecutable,
  };
}

describe('the spawn-helper check (node-pty#850)', () => {
  test('names the helper and the chmod that fixes it, and passes once the fixer has run', (t) => {
    const nodePty = mkdtempSync(join(tmpdir(), 'cove-pty-helper-'));
    t.after(() => rmSync(nodePty, { recursive: true, force: true }));
    const helper = join(nodePty, 'prebuilds/darwin-arm64/spawn-helper');
    mkdirSync(join(helper, '..'), { recursive: true });
    writeFileSync(helper, 'helper');
    chmodSync(helper, 0o644);
    assert.equal(
      ptyHelperProblem(onDisk(nodePty)),
      `node-pty's spawn-helper is not executable (node-pty#850), so no command can start. Run: chmod +x '${helper}' (npm install and npm start do it; an install that skipped package scripts did not)`,
    );
    assert.throws(
      () => assertPtyHelper(onDisk(nodePty)),
      (error: unknown) => error instanceof ToolError && error.kind === 'failed' && error.message.includes(helper),
    );
    fixer.makeSpawnHelpersExecutable(nodePty);
    assert.equal(ptyHelperProblem(onDisk(nodePty)), null);
  });

  test("looks at node-pty's own build first, the way node-pty loads it", (t) => {
    const nodePty = mkdtempSync(join(tmpdir(), 'cove-pty-helper-'));
    t.after(() => rmSync(nodePty, { recursive: true, force: true }));
    const built = join(nodePty, 'build/Release/spawn-helper');
    mkdirSync(join(built, '..'), { recursive: true });
    writeFileSync(built, 'helper');
    chmodSync(built, 0o600);
    assert.match(ptyHelperProblem(onDisk(nodePty)) ?? '', /build\/Release\/spawn-helper/);
  });

  test('nothing to check off macOS, or where node-pty has no helper', () => {
    assert.equal(ptyHelperProblem(onDisk('/nonexistent')), null);
    assert.equal(ptyHelperProblem({ ...onDisk('/x', 'linux'), exists: () => true, executable: () => false }), null);
    assert.equal(ptyHelperProblem({ ...onDisk('/x', 'win32'), exists: () => true, executable: () => false }), null);
  });
});
