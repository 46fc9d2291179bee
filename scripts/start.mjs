// `npm start`: builds, then opens the desktop app in Electron. Where Electron's binary cannot be
// had (it is downloaded from GitHub on first use; see scripts/electron-runtime.mjs), it says so
// in one line and runs `cove serve` instead, which prints the URL to open in a browser; so it
// does where Linux would refuse Electron's sandbox (scripts/linux-sandbox.mjs), with the fix.
import { spawn, spawnSync } from 'node:child_process';
import { join, resolve } from 'node:path';
import { electronSqliteBinding, ensureElectronBinary } from './electron-runtime.mjs';
import { chromiumSandboxProblem } from './linux-sandbox.mjs';
import { installedNodePty, makeSpawnHelpersExecutable } from './spawn-helper.mjs';

const root = resolve(import.meta.dirname, '..');
const say = (line) => process.stdout.write(`${line}\n`);

/** Runs a command in the foreground and leaves with its exit, passing signals on. */
function foreground(command, args, env = process.env) {
  const child = spawn(command, args, { cwd: root, env, stdio: 'inherit' });
  const forward = (signal) => {
    // From a terminal, Ctrl-C already reaches the child (same process group); passing it on
    // would make it two. Sent to this process alone, it must be passed on.
    if (signal === 'SIGINT' && process.stdin.isTTY) return;
    child.kill(signal);
  };
  const signals = ['SIGINT', 'SIGTERM', 'SIGHUP'];
  for (const signal of signals) process.on(signal, forward);
  child.on('error', (error) => {
    process.stderr.write(`could not start ${command}: ${error.message}\n`);
    process.exit(1);
  });
  child.on('exit', (code, signal) => {
    for (const name of signals) process.off(name, forward);
    if (signal) process.kill(process.pid, signal);
    else process.exit(code ?? 1);
  });
}

const built = spawnSync(process.execPath, [join(root, 'scripts/build.mjs')], { cwd: root, stdio: 'inherit' });
if (built.status !== 0) process.exit(built.status ?? 1);

// An install made with --ignore-scripts skipped our postinstall; the bash tool needs the bit.
const nodePty = installedNodePty();
for (const path of nodePty ? makeSpawnHelpersExecutable(nodePty) : []) say(`Made ${path} executable (node-pty#850).`);

const electron = await ensureElectronBinary({ onSlow: () => say('Downloading Electron (once)…') });
const sandboxProblem = electron.path ? chromiumSandboxProblem({ electronPath: electron.path }) : null;
const serveInstead = () => foreground(process.execPath, [join(root, 'bin/cove.js'), 'serve', ...process.argv.slice(2)]);
if (!electron.path) {
  say(`Electron is not available here (${electron.reason}); starting the browser host instead.`);
  serveInstead();
} else if (sandboxProblem) {
  say(`Electron cannot start here: ${sandboxProblem.reason}.`);
  say(`Run this once, then npm start again:\n  ${sandboxProblem.fix}`);
  say('Starting the browser host instead.');
  serveInstead();
} else {
  let binding;
  try {
    binding = await electronSqliteBinding({ onBuild: say });
  } catch (error) {
    process.stderr.write(`${error.message}\n`);
    process.exit(1);
  }
  // Chromium refuses to run as root with its OS sandbox on (containers, CI). The pages still
  // get no Node.js: `sandbox: true` and contextIsolation are Electron's, not the OS's.
  const rootFlags = process.getuid?.() === 0 ? ['--no-sandbox'] : [];
  // The project folder, not dist/desktop/main.js: Electron then takes the app's name and version
  // from package.json (whose "main" is dist/desktop/main.js).
  foreground(electron.path, [...rootFlags, '.', ...process.argv.slice(2)], { ...process.env, COVE_SQLITE_BINDING: binding });
}
