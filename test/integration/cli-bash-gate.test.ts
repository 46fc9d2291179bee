/**
 * The bash gate through the built `cove run` (dist/): the tree-sitter grammar loads from beside
 * the bundle, hostile commands are refused with a readable reason and their side effects are
 * absent on disk, and ordinary work still runs.
 */
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { block, reply } from '../support/model-server';
import { cliFixture } from '../support/cove-cli';

type Case = { command: string; flags: string[]; runs: boolean; reason: RegExp | null };

const CASES: Case[] = [
  { command: 'echo made > made.txt', flags: ['--permission-mode', 'acceptEdits', '--allow', 'bash(echo:*)'], runs: true, reason: null },
  { command: "$'\\x72\\x6d' victim.txt", flags: ['--permission-mode', 'bypass', '--deny', 'bash(rm:*)'], runs: false, reason: /bash\(rm:\*\)/ },
  { command: 'flock /tmp/cove-gate.lock rm victim.txt', flags: ['--permission-mode', 'bypass', '--deny', 'bash(rm:*)'], runs: false, reason: /forbids `rm victim\.txt`/ },
  { command: 'echo x > .git/config', flags: ['--permission-mode', 'bypass'], runs: false, reason: /protected \.git\/config/ },
  { command: 'echo a\r# ; rm victim.txt', flags: ['--allow', 'bash(echo:*)'], runs: false, reason: /carriage return/ },
  { command: "sed -n '1e rm victim.txt' made.txt", flags: ['--allow', 'bash(sed -n:*)'], runs: false, reason: /sed script may write files or run commands/ },
];

describe('cove run: the bash gate', () => {
  for (const item of CASES) {
    test(`${item.flags.join(' ')}: ${JSON.stringify(item.command)} ${item.runs ? 'runs' : 'is refused'}`, async () => {
      const f = await cliFixture([reply.message([block.toolUse('bash', { command: item.command }, { id: 'toolu_gate' })]), reply.text('done')]);
      try {
        writeFileSync(join(f.workspace, 'victim.txt'), 'keep me\n');
        mkdirSync(join(f.workspace, '.git'), { recursive: true });
        writeFileSync(join(f.workspace, '.git', 'config'), '[core]\n');
        const result = await f.home.run(['run', '--json', '--workspace', f.workspace, ...item.flags, 'go']);
        assert.equal(result.code, 0, result.stderr);
        const end = result.events.find((event) => event.type === 'toolExecutionEnd');
        assert.ok(end && end.type === 'toolExecutionEnd', 'the bash call ended');
        const content = JSON.stringify(end.result.content);
        assert.ok(existsSync(join(f.workspace, 'victim.txt')), `victim.txt was removed: ${content}`);
        assert.equal(readFileSync(join(f.workspace, '.git', 'config'), 'utf8'), '[core]\n');
        if (item.runs) assert.equal(readFileSync(join(f.workspace, 'made.txt'), 'utf8'), 'made\n', content);
        if (item.reason) assert.match(content, item.reason);
        assert.doesNotMatch(content, /bash parser (failed|is still loading)/);
      } finally {
        await f.close();
      }
    });
  }
});
