/**
 * macOS: node-pty starts every command through its `spawn-helper`, which node-pty 1.1 publishes
 * without the execute bit (node-pty#850); then every bash call fails with a bare
 * "posix_spawnp failed". scripts/spawn-helper.mjs sets the bit at `npm install`, `npm start` and
 * packaging, but an install that skipped package scripts (npm's allowScripts, --ignore-scripts)
 * has not run it. This check runs before the first command and turns that failure into one that
 * names the file and the fix.
 */
import { accessSync, constants, existsSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { ToolError } from '../agent/types';

export interface HelperProbe {
  platform: NodeJS.Platform;
  arch: string;
  /** node-pty's folder; undefined when it cannot be found. */
  nodePtyDir: string | undefined;
  exists(path: string): boolean;
  executable(path: string): boolean;
}

function defaultProbe(): HelperProbe {
  let nodePtyDir: string | undefined;
  try {
    // Inside a packaged app node-pty runs its helper from app.asar.unpacked, as it does here.
    nodePtyDir = dirname(createRequire(import.meta.url).resolve('node-pty/package.json')).replace('app.asar', 'app.asar.unpacked');
  } catch {
    nodePtyDir = undefined;
  }
  return {
    platform: process.platform,
    arch: process.arch,
    nodePtyDir,
    exists: existsSync,
    executable: isExecutable,
  };
}

/** Whether this process may run the file (the probe a real folder on disk answers with). */
export function isExecutable(path: string): boolean {
  try {
    accessSync(path, constants.X_OK);
    return true;
  } catch {
    return false;
  }
}

/** Why no command can start, or null; looks where node-pty itself looks (its build, then its prebuild). */
export function ptyHelperProblem(probe: HelperProbe): string | null {
  if (probe.platform !== 'darwin' || !probe.nodePtyDir) return null;
  const candidates = [join(probe.nodePtyDir, 'build/Release/spawn-helper'), join(probe.nodePtyDir, 'prebuilds', `darwin-${probe.arch}`, 'spawn-helper')];
  const helper = candidates.find((path) => probe.exists(path));
  if (!helper || probe.executable(helper)) return null;
  return `node-pty's spawn-helper is not executable (node-pty#850), so no command can start. Run: chmod +x '${helper}' (npm install and npm start do it; an install that skipped package scripts did not)`;
}

let checked = false;

/** Throws the problem as a tool error; checks once per process, once it has passed. */
export function assertPtyHelper(probe: HelperProbe = defaultProbe()): void {
  if (checked) return;
  const problem = ptyHelperProblem(probe);
  if (problem) throw ToolError.failed(problem);
  checked = true;
}
