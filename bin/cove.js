#!/usr/bin/env node
// The `cove` command. The code lives in dist/, built by `npm run build` (and by `npm install`).
import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

const cli = fileURLToPath(new URL('../dist/cli.js', import.meta.url));
if (!existsSync(cli)) {
  process.stderr.write('cove: not built yet; run `npm run build` in the Cove folder first\n');
  process.exit(1);
}
await import(cli);
