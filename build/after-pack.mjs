// electron-builder afterPack hook: makes the packaged app's native files usable.
// - better-sqlite3 built for Electron: electron-builder's own npmRebuild would rebuild the
//   project's node_modules in place, replacing the Node build that the CLI and `npm test` load;
//   so npmRebuild is off and the packaged copy gets the Electron build that
//   scripts/electron-runtime.mjs makes (and caches) for `npm start`. node-pty is N-API.
// - macOS: node-pty's spawn-helper gets its execute bit back (node-pty#850, see
//   scripts/spawn-helper.mjs); node-pty runs it from app.asar.unpacked.
import { accessSync, constants, copyFileSync, existsSync } from 'node:fs';
import { join } from 'node:path';
import { electronSqliteBinding } from '../scripts/electron-runtime.mjs';
import { makeSpawnHelpersExecutable } from '../scripts/spawn-helper.mjs';

// electron-builder's Arch enum, by value.
const ARCH_NAMES = ['ia32', 'x64', 'armv7l', 'arm64', 'universal'];

export async function afterPack(context) {
  await finishPackage(context, {
    sqliteBinding: () => electronSqliteBinding({ onBuild: (line) => process.stdout.write(`  • ${line}\n`) }),
    log: (line) => process.stdout.write(`  • ${line}\n`),
  });
}

/** afterPack with what it builds and where it runs passed in, so a fake app folder can be packed in a test. */
export async function finishPackage(context, { sqliteBinding, log, platform = process.platform, arch = process.arch }) {
  const targetArch = ARCH_NAMES[context.arch];
  if (context.electronPlatformName !== platform || targetArch !== arch) {
    throw new Error(`Cove builds its native modules for the machine it packages on (${platform}-${arch}); package ${context.electronPlatformName}-${targetArch} on such a machine.`);
  }
  const unpacked = join(context.packager.getResourcesDir(context.appOutDir), 'app.asar.unpacked');
  const sqliteTarget = join(unpacked, 'node_modules/better-sqlite3/build/Release/better_sqlite3.node');
  if (!existsSync(sqliteTarget)) throw new Error(`better-sqlite3 is missing from the package (${sqliteTarget}); check asarUnpack in build/electron-builder.yml`);
  copyFileSync(await sqliteBinding(), sqliteTarget);

  if (platform !== 'darwin') return;
  const nodePty = join(unpacked, 'node_modules/node-pty');
  for (const path of makeSpawnHelpersExecutable(nodePty)) log(`made ${path} executable (node-pty#850)`);
  const helper = join(nodePty, 'prebuilds', `darwin-${arch}`, 'spawn-helper');
  const built = join(nodePty, 'build/Release/spawn-helper');
  const used = existsSync(built) ? built : helper;
  try {
    accessSync(used, constants.X_OK);
  } catch {
    throw new Error(`node-pty's spawn-helper is missing from the package or not executable (${used}); check asarUnpack in build/electron-builder.yml`);
  }
}
