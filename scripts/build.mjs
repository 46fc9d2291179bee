// Builds everything into dist/: the `cove` command (dist/cli.js), the renderer (dist/renderer/)
// and the desktop main process and preload (dist/desktop/). Native modules stay external: they
// are loaded from node_modules at run time (built for Electron separately by `npm start`).
import { build } from 'esbuild';
import { mkdirSync, writeFileSync } from 'node:fs';
import { buildDesktop } from './build-desktop.mjs';
import { buildRenderer } from './build-renderer.mjs';

const nodeExternal = ['better-sqlite3', 'node-pty', 'electron', '@modelcontextprotocol/sdk', 'sharp'];
// ESM output that still loads the CommonJS dependencies esbuild bundles.
const banner = {
  js: "import { createRequire as __coveCreateRequire } from 'node:module'; const require = __coveCreateRequire(import.meta.url);",
};

mkdirSync('dist', { recursive: true });
writeFileSync('dist/package.json', JSON.stringify({ type: 'module' }) + '\n');

await build({
  entryPoints: { cli: 'electron/cli/main.ts' },
  outdir: 'dist',
  // Each command is a chunk of its own, loaded when it runs (see electron/cli/main.ts).
  splitting: true,
  // Chunks sit beside cli.js: code that finds files relative to its own module (the renderer
  // for `cove serve`) must see the same folder from every chunk.
  chunkNames: 'cli-[name]-[hash]',
  bundle: true,
  platform: 'node',
  target: 'node20',
  format: 'esm',
  sourcemap: true,
  external: nodeExternal,
  banner,
  logLevel: 'warning',
});

await Promise.all([buildRenderer(), buildDesktop()]);
