// node-pty 1.1 publishes prebuilds/darwin-*/spawn-helper without its execute bit (node-pty#850),
// so on macOS every PTY spawn fails with "posix_spawnp failed". node-pty's own install script
// does not fix it, and npm keeps the mode the tarball has; so Cove sets the bit itself wherever
// the helper is used: after `npm install` (package.json postinstall), at `npm start`, and in the
// packaged app's app.asar.unpacked (build/after-pack.mjs).
// Runnable on its own: node scripts/spawn-helper.mjs [node-pty folder]
import { chmodSync, existsSync, readdirSync, statSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

/** Every spawn-helper node-pty may load: its own build, then each prebuild folder. */
export function spawnHelpers(nodePtyDir) {
  const candidates = [join(nodePtyDir, 'build/Release/spawn-helper'), join(nodePtyDir, 'build/Debug/spawn-helper')];
  const prebuilds = join(nodePtyDir, 'prebuilds');
  if (existsSync(prebuilds)) {
    for (const entry of readdirSync(prebuilds, { withFileTypes: true })) {
      if (entry.isDirectory()) candidates.push(join(prebuilds, entry.name, 'spawn-helper'));
    }
  }
  return candidates.filter((path) => existsSync(path) && statSync(path).isFile());
}

/**
 * Gives each spawn-helper the execute bit wherever it has the read bit (0644 becomes 0755), and
 * answers the paths it changed. Nothing to do on Windows, where node-pty uses ConPTY and files
 * have no mode bits.
 */
export function makeSpawnHelpersExecutable(nodePtyDir) {
  const changed = [];
  for (const path of spawnHelpers(nodePtyDir)) {
    const mode = statSync(path).mode & 0o777;
    const executable = mode | ((mode & 0o444) >> 2);
    if (executable === mode) continue;
    chmodSync(path, executable);
    changed.push(path);
  }
  return changed;
}

/** The node-pty this package loads, wherever npm put it (hoisted when Cove is itself a dependency). */
export function installedNodePty() {
  try {
    return dirname(createRequire(import.meta.url).resolve('node-pty/package.json'));
  } catch {
    return undefined;
  }
}

if (process.argv[1] && fileURLToPath(import.meta.url) === resolve(process.argv[1])) {
  const nodePtyDir = process.argv[2] ? resolve(process.argv[2]) : installedNodePty();
  if (!nodePtyDir || !existsSync(nodePtyDir)) {
    process.stderr.write(`spawn-helper: node-pty is not installed${nodePtyDir ? ` at ${nodePtyDir}` : ''}; nothing to fix\n`);
  } else {
    for (const path of makeSpawnHelpersExecutable(nodePtyDir)) process.stdout.write(`made ${path} executable (node-pty#850)\n`);
  }
}
