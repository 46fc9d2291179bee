// Packaging checked on paper, as far as it goes without an Electron binary: the electron-builder
// config passes electron-builder's own validator, asarUnpack covers every native file, afterPack
// runs against a fake packed app, node-pty's spawn-helper gets its execute bit (node-pty#850), and
// the deb/rpm after-install script decides chrome-sandbox's mode from the kernel's real
// settings, run for real in bubblewrap with a simulated /proc/sys/kernel and /opt.
import { test, describe } from 'node:test';
import assert from 'node:assert/strict';
import { chmodSync, existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { join, relative, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import picomatch from 'picomatch';

const require = createRequire(import.meta.url);
const root = resolve('.');

interface SpawnHelperScript {
  spawnHelpers(nodePtyDir: string): string[];
  makeSpawnHelpersExecutable(nodePtyDir: string): string[];
}
interface AfterPackScript {
  finishPackage(
    context: { electronPlatformName: string; arch: number; appOutDir: string; packager: { getResourcesDir(appOutDir: string): string } },
    options: { sqliteBinding(): Promise<string>; log(line: string): void; platform: string; arch: string },
  ): Promise<void>;
}
const spawnHelper = (await import(pathToFileURL(resolve('scripts/spawn-helper.mjs')).href)) as SpawnHelperScript;
const afterPack = (await import(pathToFileURL(resolve('build/after-pack.mjs')).href)) as AfterPackScript;

function tempDir(t: { after(fn: () => void): void }, prefix: string): string {
  const dir = mkdtempSync(join(tmpdir(), prefix));
  t.after(() => rmSync(dir, { recursive: true, force: true }));
  return dir;
}

function writeFile(path: string, content: string, mode = 0o644): void {
  mkdirSync(join(path, '..'), { recursive: true });
  writeFileSync(path, content);
  chmodSync(path, mode);
}

const modeOf = (path: string) => statSync(path).mode & 0o7777;

function filesUnder(dir: string): string[] {
  return readdirSync(dir, { recursive: true, withFileTypes: true })
    .filter((entry) => entry.isFile())
    .map((entry) => join(entry.parentPath, entry.name));
}

async function builderConfig(file = 'build/electron-builder.yml'): Promise<Record<string, unknown>> {
  const { getConfig } = require('app-builder-lib/out/util/config/config') as { getConfig(projectDir: string, configPath: string, options: null): Promise<Record<string, unknown>> };
  return getConfig(root, file, null);
}

async function validate(config: Record<string, unknown>): Promise<void> {
  const { validateConfiguration } = require('app-builder-lib/out/util/config/config') as { validateConfiguration(config: unknown, logger: { isEnabled: boolean }): Promise<void> };
  await validateConfiguration(config, { isEnabled: false });
}

describe("node-pty's spawn-helper (node-pty#850)", () => {
  test('the fixer makes every helper of a fake node-pty executable, and a second run changes nothing', (t) => {
    const nodePty = tempDir(t, 'cove-node-pty-');
    const prebuilt = join(nodePty, 'prebuilds/darwin-arm64/spawn-helper');
    const built = join(nodePty, 'build/Release/spawn-helper');
    writeFile(prebuilt, 'helper');
    writeFile(built, 'helper', 0o600);
    writeFile(join(nodePty, 'prebuilds/darwin-arm64/pty.node'), 'addon');
    assert.deepEqual(spawnHelper.spawnHelpers(nodePty).sort(), [built, prebuilt].sort());
    assert.deepEqual(spawnHelper.makeSpawnHelpersExecutable(nodePty).sort(), [built, prebuilt].sort());
    assert.equal(modeOf(prebuilt), 0o755);
    // Execute only where reading was allowed: a private helper stays private.
    assert.equal(modeOf(built), 0o700);
    assert.equal(modeOf(join(nodePty, 'prebuilds/darwin-arm64/pty.node')), 0o644, 'only spawn-helper is touched');
    assert.deepEqual(spawnHelper.makeSpawnHelpersExecutable(nodePty), []);
  });

  test('every spawn-helper in the installed node-pty is executable (npm install runs the fixer)', () => {
    const helpers = spawnHelper.spawnHelpers(resolve('node_modules/node-pty'));
    assert.ok(
      helpers.some((path) => path.includes('darwin')),
      'node-pty ships macOS prebuilds with a spawn-helper',
    );
    for (const path of helpers) assert.equal(modeOf(path) & 0o111, 0o111, `${path} is not executable: run node scripts/spawn-helper.mjs`);
  });

  test('package.json runs the fixer after npm install', () => {
    const scripts = (JSON.parse(readFileSync('package.json', 'utf8')) as { scripts: Record<string, string> }).scripts;
    assert.match(scripts.postinstall ?? '', /node scripts\/spawn-helper\.mjs/);
    assert.match(readFileSync('scripts/start.mjs', 'utf8'), /makeSpawnHelpersExecutable\(/);
  });
});

describe('the electron-builder config', () => {
  test("passes electron-builder's own schema validation, and a wrong key is refused", async () => {
    const config = await builderConfig();
    await validate(config);
    const wrong = structuredClone(config) as { deb: Record<string, unknown> };
    wrong.deb.afterInstal = 'build/linux/after-install.tpl';
    await assert.rejects(validate(wrong), /configuration\.deb/);
  });

  test('names files that exist: hooks, scripts, profiles, icon', async () => {
    const config = (await builderConfig()) as Record<string, Record<string, unknown> | string>;
    const deb = config.deb as Record<string, string>;
    const rpm = config.rpm as Record<string, string>;
    const files = [config.afterPack as string, config.icon as string, deb.afterInstall, deb.afterRemove, deb.appArmorProfile, rpm.afterInstall, rpm.afterRemove, rpm.appArmorProfile];
    for (const resource of (config.linux as { extraResources: Array<{ from: string }> }).extraResources) files.push(resource.from);
    for (const file of files) assert.ok(file && existsSync(resolve(file)), `${file} is named in the config but missing`);
    assert.deepEqual((config.linux as { target: string[] }).target, ['AppImage', 'deb', 'rpm']);
  });

  test('appId is the AppUserModelID main gives Windows, or its notifications never show', async () => {
    const { APP_ID } = await import('../../electron/desktop/desktop-config');
    assert.equal((await builderConfig()).appId, APP_ID);
  });

  test("asarUnpack covers every native file of better-sqlite3 and node-pty, and would miss spawn-helper without node-pty's pattern", async () => {
    const patterns = (await builderConfig()).asarUnpack as string[];
    const native = ['better-sqlite3', 'node-pty']
      .flatMap((name) => filesUnder(resolve('node_modules', name)))
      .map((path) => relative(root, path))
      .filter((path) => path.endsWith('.node') || path.endsWith('spawn-helper') || path.endsWith('.dll') || path.endsWith('.exe'));
    assert.ok(native.some((path) => path.endsWith('better_sqlite3.node')));
    assert.ok(native.some((path) => path.endsWith('spawn-helper')));
    const unpacked = picomatch(patterns, { dot: true });
    for (const path of native) assert.ok(unpacked(path), `${path} would be packed inside app.asar, where it cannot be loaded`);
    const withoutNodePty = picomatch(
      patterns.filter((pattern) => !pattern.includes('node-pty')),
      { dot: true },
    );
    assert.ok(native.some((path) => path.endsWith('spawn-helper') && !withoutNodePty(path)));
  });
});

describe('afterPack against a fake packed app', () => {
  function fakeMacApp(t: { after(fn: () => void): void }) {
    const appOutDir = tempDir(t, 'cove-packed-');
    const resources = join(appOutDir, 'Cove.app/Contents/Resources');
    const unpacked = join(resources, 'app.asar.unpacked/node_modules');
    writeFile(join(unpacked, 'better-sqlite3/build/Release/better_sqlite3.node'), 'node build');
    writeFile(join(unpacked, 'node-pty/prebuilds/darwin-arm64/spawn-helper'), 'helper');
    writeFile(join(unpacked, 'node-pty/prebuilds/darwin-x64/spawn-helper'), 'helper');
    const binding = join(appOutDir, 'electron-better_sqlite3.node');
    writeFile(binding, 'electron build');
    const context = { electronPlatformName: 'darwin', arch: 3, appOutDir, packager: { getResourcesDir: () => resources } };
    return { context, unpacked, binding };
  }

  test('copies the Electron build of better-sqlite3 in and makes spawn-helper executable on macOS', async (t) => {
    const { context, unpacked, binding } = fakeMacApp(t);
    const logged: string[] = [];
    await afterPack.finishPackage(context, { sqliteBinding: async () => binding, log: (line) => logged.push(line), platform: 'darwin', arch: 'arm64' });
    assert.equal(readFileSync(join(unpacked, 'better-sqlite3/build/Release/better_sqlite3.node'), 'utf8'), 'electron build');
    assert.equal(modeOf(join(unpacked, 'node-pty/prebuilds/darwin-arm64/spawn-helper')), 0o755);
    assert.match(logged.join('\n'), /darwin-arm64\/spawn-helper executable/);
  });

  test('fails naming the file and asarUnpack when a native file was packed into the archive', async (t) => {
    const { context, unpacked, binding } = fakeMacApp(t);
    rmSync(join(unpacked, 'node-pty'), { recursive: true });
    await assert.rejects(
      afterPack.finishPackage(context, { sqliteBinding: async () => binding, log: () => {}, platform: 'darwin', arch: 'arm64' }),
      /spawn-helper is missing from the package or not executable .*darwin-arm64\/spawn-helper.*asarUnpack/,
    );
    rmSync(join(unpacked, 'better-sqlite3'), { recursive: true });
    await assert.rejects(
      afterPack.finishPackage(context, { sqliteBinding: async () => binding, log: () => {}, platform: 'darwin', arch: 'arm64' }),
      /better-sqlite3 is missing from the package .*asarUnpack/,
    );
  });

  test('refuses to package for another platform than the one it runs on', async (t) => {
    const { context, binding } = fakeMacApp(t);
    await assert.rejects(afterPack.finishPackage(context, { sqliteBinding: async () => binding, log: () => {}, platform: 'linux', arch: 'x64' }), /package darwin-arm64 on such a machine/);
  });
});
