// Builds everything into dist/: the `cove` command (dist/cli.js), the renderer (dist/renderer/)
// and the desktop main process and preload (dist/desktop/). Native modules stay external: they
// are loaded from node_modules at run time (built for Electron separately by `npm start`).
import { build } from 'esbuild';
import { copyFileSync, mkdirSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { basename } from 'node:path';
import { buildDesktop } from './build-desktop.mjs';
import { buildRenderer } from './build-renderer.mjs';
import { zodEnglishOnly } from './zod-english-only.mjs';
import { copySecretRules } from './copy-secret-rules.mjs';

const nodeExternal = ['better-sqlite3', 'node-pty', 'electron', '@modelcontextprotocol/sdk', 'sharp'];
// ESM output that still loads the CommonJS dependencies esbuild bundles.
const banner = {
  js: "import { createRequire as __coveCreateRequire } from 'node:module'; const require = __coveCreateRequire(import.meta.url);",
};

mkdirSync('dist', { recursive: true });
writeFileSync('dist/package.json', JSON.stringify({ type: 'module' }) + '\n');

const cli = await build({
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
  // What this build wrote, so the chunks of earlier builds can be told apart and removed.
  metafile: true,
  plugins: [zodEnglishOnly],
});

// Chunk names carry a content hash, so every change leaves the old ones behind. They are removed
// once the new ones are written (not before): dist/ is never without a working `cove`, and a
// `cove serve` started from this build keeps every chunk it may still load.
const written = new Set(Object.keys(cli.metafile.outputs).map((path) => basename(path)));
for (const name of readdirSync('dist')) {
  if (/^cli-.+\.js(\.map)?$/.test(name) && !written.has(name)) rmSync(`dist/${name}`);
}

await Promise.all([buildRenderer(), buildDesktop()]);
// gitleaks' generated rules, read from beside the CLI's chunks (buildDesktop copies the app's).
copySecretRules('dist');

// The bash grammar for the permission engine (electron/core/permissions/shell-parser.ts), which
// looks for it beside its own bundle: dist/ for the CLI's chunks, dist/desktop/ for the app.
for (const [from, name] of [
  ['node_modules/web-tree-sitter/tree-sitter.wasm', 'tree-sitter.wasm'],
  ['node_modules/tree-sitter-bash/tree-sitter-bash.wasm', 'tree-sitter-bash.wasm'],
]) {
  for (const folder of ['dist', 'dist/desktop']) copyFileSync(from, `${folder}/${name}`);
}
