// Bundles the Node entry points with esbuild. Native modules stay external: they are loaded
// from node_modules at run time (rebuilt for Electron by `npm start`, untouched for Node).
import { build } from 'esbuild';
import { mkdirSync, writeFileSync } from 'node:fs';

const nodeExternal = ['better-sqlite3', 'node-pty', 'electron', '@modelcontextprotocol/sdk'];
// ESM output that still loads the CommonJS dependencies esbuild bundles.
const banner = {
  js: "import { createRequire as __coveCreateRequire } from 'node:module'; const require = __coveCreateRequire(import.meta.url);",
};

mkdirSync('dist', { recursive: true });
writeFileSync('dist/package.json', JSON.stringify({ type: 'module' }) + '\n');

await build({
  entryPoints: { cli: 'electron/cli/main.ts' },
  outdir: 'dist',
  bundle: true,
  platform: 'node',
  target: 'node20',
  format: 'esm',
  sourcemap: true,
  external: nodeExternal,
  banner,
  logLevel: 'warning',
});
