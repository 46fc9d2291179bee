/**
 * Builds the desktop bundles (scripts/build-desktop.mjs) into a fresh folder inside the project,
 * so that the bundle's bare imports (better-sqlite3, node-pty) resolve from node_modules.
 */
import { mkdtempSync, mkdirSync, rmSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';

export interface DesktopBuild {
  /** Holds desktop/main.js, desktop/preload.cjs; the main process serves renderer/ beside them. */
  dir: string;
  main: string;
  preload: string;
  remove(): void;
}

export async function buildDesktopForTest(): Promise<DesktopBuild> {
  const cache = resolve('node_modules/.cache');
  mkdirSync(cache, { recursive: true });
  const dir = mkdtempSync(join(cache, 'cove-desktop-test-'));
  const script: { buildDesktop(options: { outdir: string }): Promise<void> } = await import(pathToFileURL(resolve('scripts/build-desktop.mjs')).href);
  await script.buildDesktop({ outdir: join(dir, 'desktop') });
  return {
    dir,
    main: join(dir, 'desktop', 'main.js'),
    preload: join(dir, 'desktop', 'preload.cjs'),
    remove: () => rmSync(dir, { recursive: true, force: true }),
  };
}
