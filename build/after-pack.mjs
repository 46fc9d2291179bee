// electron-builder afterPack hook: gives the packaged app a better-sqlite3 built for Electron.
// electron-builder's own npmRebuild would rebuild the project's node_modules in place, replacing
// the Node build that the CLI and `npm test` load; so npmRebuild is off and the packaged copy gets
// the Electron build that scripts/electron-runtime.mjs makes (and caches) for `npm start`.
// node-pty is N-API and needs nothing.
import { copyFileSync, existsSync } from 'node:fs';
import { join } from 'node:path';
import { electronSqliteBinding } from '../scripts/electron-runtime.mjs';

// electron-builder's Arch enum, by value.
const ARCH_NAMES = ['ia32', 'x64', 'armv7l', 'arm64', 'universal'];

export async function afterPack(context) {
  const arch = ARCH_NAMES[context.arch];
  if (context.electronPlatformName !== process.platform || arch !== process.arch) {
    throw new Error(
      `Cove builds its native modules for the machine it packages on (${process.platform}-${process.arch}); package ${context.electronPlatformName}-${arch} on such a machine.`,
    );
  }
  const binding = await electronSqliteBinding({ onBuild: (line) => process.stdout.write(`  • ${line}\n`) });
  const resources = context.packager.getResourcesDir(context.appOutDir);
  const target = join(resources, 'app.asar.unpacked/node_modules/better-sqlite3/build/Release/better_sqlite3.node');
  if (!existsSync(target)) throw new Error(`better-sqlite3 is missing from the package (${target}); check asarUnpack in build/electron-builder.yml`);
  copyFileSync(binding, target);
}
