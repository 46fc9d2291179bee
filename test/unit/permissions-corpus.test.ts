import { test, describe, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { mkdirSync, mkdtempSync, realpathSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { PermissionEngine } from '../../electron/core/permissions';
import { loadShellParser } from '../../electron/core/permissions/shell-parser';
import { CORPUS, type CorpusRow } from '../fixtures/permissions/corpus';

/** A workspace with the files and links the corpus names, a home folder and a folder outside both. */
function makeWorld() {
  const base = realpathSync(mkdtempSync(join(tmpdir(), 'cove-corpus-')));
  const root = join(base, 'workspace');
  const home = join(base, 'home');
  const outside = join(base, 'outside');
  for (const dir of [root, home, outside, join(root, 'src'), join(root, 'docs'), join(root, 'secrets')]) mkdirSync(dir, { recursive: true });
  writeFileSync(join(root, 'src', 'app.ts'), 'export {};\n');
  writeFileSync(join(root, 'docs', 'a.md'), '# a\n');
  writeFileSync(join(root, 'secrets', 'key'), 'k\n');
  writeFileSync(join(root, 'package.json'), '{}\n');
  writeFileSync(join(outside, 'notes.txt'), 'n\n');
  symlinkSync(outside, join(root, 'outside-link'));
  symlinkSync('/etc', join(root, 'etc-link'));
  symlinkSync('secrets', join(root, 'link-to-secrets'));
  return { base, root, home, outside };
}

function fill(value: unknown, world: { root: string; home: string; outside: string }): unknown {
  if (typeof value === 'string') return value.replaceAll('{root}', world.root).replaceAll('{home}', world.home).replaceAll('{outside}', world.outside);
  if (value && typeof value === 'object') return Object.fromEntries(Object.entries(value).map(([key, inner]) => [key, fill(inner, world)]));
  return value;
}

function title(row: CorpusRow): string {
  const what = typeof row.args.command === 'string' ? JSON.stringify(row.args.command) : JSON.stringify(row.args);
  const rules = [...row.allow.map((rule) => `+${rule}`), ...row.ask.map((rule) => `?${rule}`), ...row.deny.map((rule) => `-${rule}`)];
  return `${row.mode} ${row.tool} ${what} [${rules.length > 4 ? 'standard rules' : rules.join(' ')}] → ${row.expect}`;
}

describe('permission corpus', () => {
  let world: ReturnType<typeof makeWorld>;
  before(async () => {
    world = makeWorld();
    await loadShellParser();
  });
  after(() => rmSync(world.base, { recursive: true, force: true }));

  test('has at least 150 rows', () => {
    assert.ok(CORPUS.length >= 150, `only ${CORPUS.length} rows`);
  });

  for (const row of CORPUS) {
    test(title(row), () => {
      const engine = new PermissionEngine({
        mode: row.mode,
        workspaceRoots: [world.root],
        extraRules: { allow: row.allow, ask: row.ask, deny: row.deny },
        home: world.home,
      });
      const decision = engine.decide({
        sessionId: 'session',
        toolCallId: 'call',
        toolName: row.tool,
        args: fill(row.args, world),
        sensitivity: row.sensitivity,
      });
      const explained = decision.outcome === 'ask' ? decision.reasons.join(' | ') : decision.reason;
      assert.equal(decision.outcome, row.expect, `got ${decision.outcome}: ${explained}`);
      if (row.reason) assert.ok(explained.includes(row.reason), `expected the reason to mention ${JSON.stringify(row.reason)}, got: ${explained}`);
    });
  }
});
