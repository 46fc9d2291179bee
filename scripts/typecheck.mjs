// Type-checks each project on its own, so each keeps its own libs: shared has neither Node nor
// DOM types, the core has Node types and no DOM, the renderer has the DOM and no Node types.
// The compiler is TypeScript 7 (`@typescript/native`); the `typescript` name holds TypeScript 6,
// whose JavaScript API typescript-eslint still needs.
import { spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';

const compiler = 'node_modules/@typescript/native/bin/tsc';
if (!existsSync(compiler)) {
  process.stderr.write(`${compiler} is missing: run \`npm install\` (package.json now installs TypeScript 7 as @typescript/native)\n`);
  process.exit(1);
}
const projects = ['shared', 'electron', 'electron/desktop', 'renderer', 'test'];
let failed = false;
for (const project of projects) {
  if (!existsSync(`${project}/tsconfig.json`)) continue;
  const result = spawnSync(process.execPath, [compiler, '-p', project], { stdio: 'inherit' });
  if (result.status !== 0) {
    process.stderr.write(`type errors in ${project}\n`);
    failed = true;
  }
}
process.exit(failed ? 1 : 0);
