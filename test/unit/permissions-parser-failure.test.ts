/**
 * When the bash grammar cannot load, every bash call asks with the reason, in every mode, and
 * headless runs deny it; the other tools are unaffected. Run in a child process whose .wasm
 * reads fail (test/fixtures/permissions/unreadable-wasm.mjs), since the parser loads once per process.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { join } from 'node:path';

const SCRIPT = `
import { PermissionEngine } from './electron/core/permissions/index.ts';
const results = [];
for (const mode of ['default', 'acceptEdits', 'bypass']) {
  const engine = new PermissionEngine({ mode, workspaceRoots: [process.cwd()], extraRules: { allow: ['bash(ls:*)'] } });
  await engine.ready();
  const call = (toolName, args, sensitivity) => ({ sessionId: 's', toolCallId: 'c', toolName, args, sensitivity });
  const decision = engine.decide(call('bash', { command: 'ls' }, 'mutating'));
  const headless = await engine.check(call('bash', { command: 'ls' }, 'mutating'), new AbortController().signal);
  const read = engine.decide(call('read_file', { path: 'package.json' }, 'readOnly'));
  results.push({ mode, outcome: decision.outcome, reasons: decision.reasons, headless, read: read.outcome });
}
console.log(JSON.stringify(results));
`;

test('a parser that fails to load makes every bash call ask, saying why', () => {
  const root = join(import.meta.dirname, '..', '..');
  const result = spawnSync(process.execPath, ['--import', 'tsx', '--import', './test/fixtures/permissions/unreadable-wasm.mjs', '--input-type=module', '-e', SCRIPT], {
    cwd: root,
    encoding: 'utf8',
  });
  assert.equal(result.status, 0, result.stderr);
  const results = JSON.parse(result.stdout.trim().split('\n').at(-1)!) as Array<{
    mode: string;
    outcome: string;
    reasons: string[];
    headless: { decision: string; reason: string };
    read: string;
  }>;
  assert.equal(results.length, 3);
  for (const entry of results) {
    assert.equal(entry.outcome, 'ask', entry.mode);
    assert.match(entry.reasons.join(), /the bash parser failed to load \(EIO: cannot read .*tree-sitter\.wasm\)/, entry.mode);
    assert.equal(entry.headless.decision, 'deny', entry.mode);
    assert.match(entry.headless.reason, /bash parser failed to load/, entry.mode);
    assert.equal(entry.read, 'allow', entry.mode);
  }
});
