// Bundles the renderer (React + zustand) for the browser with esbuild: dist/renderer/ gets
// index.html, app.js, app.css and chunks/ (code loaded on first use). index.html gets a
// modulepreload hint for every chunk the first screen needs (first-screen.mjs). Called by
// scripts/build.mjs; also runnable on its own:
//   node scripts/build-renderer.mjs [--dev]      (--dev: no minification, inline source map)
import { build } from 'esbuild';
import { mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { withPreloads } from './first-screen.mjs';

export async function buildRenderer({ outdir = 'dist/renderer', minify = true } = {}) {
  // Chunk names carry a content hash; old ones would pile up build after build.
  rmSync(join(outdir, 'chunks'), { recursive: true, force: true });
  mkdirSync(outdir, { recursive: true });
  const result = await build({
    entryPoints: { app: 'renderer/app/main.tsx' },
    outdir,
    bundle: true,
    platform: 'browser',
    // Electron 41 and the Chromium of the e2e tests are both current Chromium.
    target: ['chrome120'],
    // ES modules so that import() splits what is needed later (the syntax highlighter) into
    // chunks/ fetched on first use; <script type="module"> loads them under script-src 'self'.
    format: 'esm',
    splitting: true,
    chunkNames: 'chunks/[name]-[hash]',
    jsx: 'automatic',
    minify,
    sourcemap: minify ? false : 'inline',
    define: { 'process.env.NODE_ENV': JSON.stringify(minify ? 'production' : 'development') },
    legalComments: 'none',
    logLevel: 'warning',
    metafile: true,
  });
  writeFileSync(join(outdir, 'index.html'), withPreloads(readFileSync('renderer/index.html', 'utf8'), result.metafile, outdir));
}

if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) {
  await buildRenderer({ minify: !process.argv.includes('--dev') });
}
