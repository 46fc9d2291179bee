// Bundles the desktop app with esbuild:
//   dist/desktop/main.js      the Electron main process (ESM; native modules and electron external)
//   dist/desktop/preload.cjs  the preload (CommonJS: a sandboxed preload cannot load ES modules
//                             and may require only `electron`, so everything else is bundled in)
// Called by scripts/build.mjs; runnable on its own: node scripts/build-desktop.mjs
import { build } from 'esbuild';
import { mkdirSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { copySecretRules } from './copy-secret-rules.mjs';

const nodeExternal = ['better-sqlite3', 'node-pty', 'electron', '@modelcontextprotocol/sdk', 'sharp'];
// ESM output that still loads the CommonJS dependencies esbuild bundles.
const banner = {
  js: "import { createRequire as __coveCreateRequire } from 'node:module'; const require = __coveCreateRequire(import.meta.url);",
};

/**
 * The contract's request names, read by evaluating shared/contract.ts once at build time. The
 * preload gets them as a constant, so it does not bundle zod to compute `Object.keys(requests)`.
 */
export async function contractRequestNames() {
  const bundled = await build({
    entryPoints: ['shared/contract.ts'],
    bundle: true,
    write: false,
    format: 'esm',
    platform: 'neutral',
    logLevel: 'warning',
  });
  const source = bundled.outputFiles[0].text;
  const contract = await import(`data:text/javascript;base64,${Buffer.from(source).toString('base64')}`);
  return contract.REQUEST_NAMES;
}

export async function buildDesktop({ outdir = 'dist/desktop', minify = false } = {}) {
  mkdirSync(outdir, { recursive: true });
  const requestNames = await contractRequestNames();
  await Promise.all([
    build({
      entryPoints: ['electron/desktop/main.ts'],
      outfile: `${outdir}/main.js`,
      bundle: true,
      platform: 'node',
      target: 'node22',
      format: 'esm',
      sourcemap: true,
      minify,
      external: nodeExternal,
      banner,
      logLevel: 'warning',
    }),
    build({
      entryPoints: ['electron/preload/preload.ts'],
      outfile: `${outdir}/preload.cjs`,
      bundle: true,
      platform: 'browser',
      target: 'chrome120',
      format: 'cjs',
      minify,
      external: ['electron'],
      define: { COVE_REQUEST_NAMES: JSON.stringify(requestNames) },
      logLevel: 'warning',
    }),
  ]);
  copySecretRules(outdir);
}

if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) {
  await buildDesktop({ minify: process.argv.includes('--minify') });
}
