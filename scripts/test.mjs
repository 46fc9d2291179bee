// `npm test`: lint (import layers and formatting included), type-check every project, build, then run every test
// file with node's test runner. Extra arguments pick suites: unit, integration, e2e.
import { spawnSync } from 'node:child_process';
import { readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';

const suites = process.argv.slice(2);
const chosen = suites.length > 0 ? suites : ['unit', 'integration', 'e2e'];

function run(label, command, args) {
  process.stdout.write(`\n> ${label}\n`);
  const result = spawnSync(command, args, { stdio: 'inherit' });
  if (result.status !== 0) {
    process.stderr.write(`\n${label} failed (exit ${result.status ?? result.signal})\n`);
    process.exit(result.status ?? 1);
  }
}

function testFiles(dir) {
  let found = [];
  let entries;
  try {
    entries = readdirSync(dir);
  } catch {
    return found;
  }
  for (const name of entries.sort()) {
    const path = join(dir, name);
    if (statSync(path).isDirectory()) found = found.concat(testFiles(path));
    else if (name.endsWith('.test.ts')) found.push(path);
  }
  return found;
}

if (suites.length === 0) {
  run('lint', 'npm', ['run', '--silent', 'lint']);
  run('type-check', process.execPath, ['scripts/typecheck.mjs']);
}
run('build', process.execPath, ['scripts/build.mjs']);

const files = chosen.flatMap((suite) => testFiles(join('test', suite)));
if (files.length === 0) {
  process.stderr.write(`no test files under test/${chosen.join(', test/')}\n`);
  process.exit(1);
}
run(`tests (${files.length} files)`, process.execPath, ['--import', 'tsx', '--test', '--test-reporter=spec', '--test-concurrency=2', ...files]);
