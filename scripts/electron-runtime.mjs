// What `npm start` and the Electron end-to-end test need to run the desktop app from a checkout:
//
// 1. The Electron binary. The package is installed without its postinstall download (see
//    "allowScripts" in package.json), so it may be missing; `ensureElectronBinary` runs the
//    package's own install.js once, quietly, and reports why when it still is not there.
// 2. better-sqlite3 built for Electron's ABI. node_modules keeps the build for Node, which the
//    CLI and `npm test` use; Electron loads a copy rebuilt under node_modules/.cache/ (ignored by
//    git, and gone with node_modules, whose versions it is built for), whose path reaches the
//    main process in COVE_SQLITE_BINDING (electron/desktop/desktop-config.ts).
//    node-pty uses N-API, which is ABI-stable, so it runs under Electron unchanged.
import { spawn } from 'node:child_process';
import { cpSync, createWriteStream, existsSync, mkdirSync, readFileSync, renameSync, rmSync } from 'node:fs';
import { createRequire } from 'node:module';
import { homedir } from 'node:os';
import { join, resolve } from 'node:path';

const require = createRequire(import.meta.url);
const root = resolve(import.meta.dirname, '..');

/** The Electron executable when it is installed, else null. */
export function electronBinary() {
  try {
    // The package's main is the executable's path; it throws when the download never happened.
    const path = require('electron');
    return typeof path === 'string' && existsSync(path) ? path : null;
  } catch {
    return null;
  }
}

export function electronVersion() {
  return JSON.parse(readFileSync(join(root, 'node_modules/electron/package.json'), 'utf8')).version;
}

/** Runs a command with its output collected (to a log file when given), resolving to its exit. */
function quietly(command, args, { cwd = root, env = process.env, logFile } = {}) {
  return new Promise((done) => {
    const child = spawn(command, args, { cwd, env, stdio: ['ignore', 'pipe', 'pipe'] });
    const log = logFile ? createWriteStream(logFile, { flags: 'a' }) : null;
    let output = '';
    const collect = (chunk) => {
      output = (output + chunk).slice(-20_000);
      log?.write(chunk);
    };
    child.stdout.on('data', collect);
    child.stderr.on('data', collect);
    child.on('error', (error) => done({ code: 1, output: `${output}${error.message}\n` }));
    child.on('close', (code) => {
      log?.end();
      done({ code: code ?? 1, output });
    });
  });
}

/**
 * The Electron executable, downloading it once when missing. Resolves to { path } or to
 * { reason } (one line) when it cannot be had. `onSlow` is called when the download takes more
 * than a moment, so a real download is not silent.
 */
export async function ensureElectronBinary({ onSlow = () => {} } = {}) {
  const existing = electronBinary();
  if (existing) return { path: existing };
  const slow = setTimeout(onSlow, 2_000);
  const result = await quietly(process.execPath, [join(root, 'node_modules/electron/install.js')]);
  clearTimeout(slow);
  const path = electronBinary();
  if (path) return { path };
  const firstError = result.output
    .split('\n')
    .find((line) => /error/i.test(line))
    ?.replace(/^\s*\w*Error:\s*/, '')
    .trim();
  return { reason: firstError ? `its binary could not be downloaded: ${firstError}` : 'its binary could not be downloaded' };
}

/**
 * The path of a better_sqlite3.node built for the installed Electron, building it the first
 * time (prebuilt download first, compiling with node-gyp against Electron's headers second).
 * Throws with the build log's path when neither works.
 */
export async function electronSqliteBinding({ onBuild = () => {} } = {}) {
  const source = join(root, 'node_modules/better-sqlite3');
  const sqliteVersion = JSON.parse(readFileSync(join(source, 'package.json'), 'utf8')).version;
  const version = electronVersion();
  const nativeDir = join(root, 'node_modules/.cache/cove-electron-native');
  const target = join(nativeDir, `better-sqlite3-${sqliteVersion}-electron-${version}-${process.platform}-${process.arch}`);
  const binding = join(target, 'build/Release/better_sqlite3.node');
  if (existsSync(binding)) return binding;

  onBuild(`Building better-sqlite3 ${sqliteVersion} for Electron ${version} (once)…`);
  mkdirSync(nativeDir, { recursive: true });
  const staging = `${target}.tmp-${process.pid}`;
  const logFile = `${target}.log`;
  rmSync(staging, { recursive: true, force: true });
  rmSync(logFile, { force: true });
  // A copy without the Node build, so the one in node_modules stays untouched.
  cpSync(source, staging, { recursive: true, filter: (path) => path !== join(source, 'build') });
  const arch = `--arch=${process.arch}`;
  const prebuilt = await quietly(process.execPath, [join(root, 'node_modules/prebuild-install/bin.js'), '--runtime=electron', `--target=${version}`, arch], { cwd: staging, logFile });
  if (prebuilt.code !== 0 || !existsSync(join(staging, 'build/Release/better_sqlite3.node'))) {
    const compiled = await quietly(
      process.execPath,
      [
        join(root, 'node_modules/node-gyp/bin/node-gyp.js'),
        'rebuild',
        '--release',
        `--target=${version}`,
        arch,
        '--dist-url=https://electronjs.org/headers',
        // Electron's headers in their own folder, apart from Node's.
        `--devdir=${join(homedir(), '.electron-gyp')}`,
      ],
      { cwd: staging, logFile },
    );
    if (compiled.code !== 0) {
      rmSync(staging, { recursive: true, force: true });
      throw new Error(`better-sqlite3 could not be built for Electron ${version}; see ${logFile}`);
    }
  }
  rmSync(target, { recursive: true, force: true });
  renameSync(staging, target);
  return binding;
}
