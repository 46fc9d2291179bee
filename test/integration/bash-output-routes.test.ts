/**
 * Big and secret-bearing command output through a real `cove run --json`: each chunk is printed
 * once (counted against what the command printed), the store keeps a bounded copy, the model
 * gets the cleaned head and tail, and a secret split across two PTY reads, on a line over 16 KB,
 * or in the tail of a flood reaches neither stdout, the store, nor the model. Needs
 * `node scripts/build.mjs` first.
 */
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { block, reply } from '../support/model-server';
import { cliFixture, type CliFixture, type CoveResult } from '../support/cove-cli';
import type { CoveEvent } from '../../shared/events';

const ALPHABET = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789';
const random = (length: number) => Array.from({ length }, () => ALPHABET[Math.floor(Math.random() * ALPHABET.length)]).join('');

function chunks(events: CoveEvent[]): string[] {
  return events.flatMap((event) => (event.type === 'toolExecutionUpdate' ? [(event.partialResult.details as { chunk: string }).chunk] : []));
}

function storeBytes(f: CliFixture): { text: string; size: number } {
  const names = readdirSync(f.home.path).filter((entry) => entry.startsWith('cove.db'));
  return {
    text: names.map((name) => readFileSync(join(f.home.path, name), 'latin1')).join('\n'),
    size: names.reduce((sum, name) => sum + statSync(join(f.home.path, name)).size, 0),
  };
}

async function runCommand(command: string, files: Record<string, string> = {}): Promise<{ f: CliFixture; result: CoveResult }> {
  const f = await cliFixture([reply.message([block.toolUse('bash', { command })]), reply.text('done')]);
  for (const [name, text] of Object.entries(files)) writeFileSync(join(f.workspace, name), text);
  const result = await f.home.run(['run', '--json', '--permission-mode', 'bypass', '--workspace', f.workspace, 'run it']);
  assert.equal(result.code, 0, result.stderr);
  return { f, result };
}

describe('bash output through cove run --json', () => {
  const fixtures: CliFixture[] = [];
  after(async () => {
    for (const f of fixtures) await f.close();
  });

  test('several MB: each chunk printed once, a bounded store, the cleaned head and tail to the model', async () => {
    const lines = 800_000;
    // Colored, so the model's copy must be cleaned: `\x1b[32m<n>\x1b[0m` per line.
    const { f, result } = await runCommand(`seq 1 ${lines} | sed 's/.*/\\x1b[32m&\\x1b[0m/'`);
    fixtures.push(f);
    const printed = Array.from({ length: lines }, (_, i) => `\x1b[32m${i + 1}\x1b[0m\r\n`).join('').length;
    assert.ok(printed > 5_000_000, `the command printed ${printed} characters`);
    assert.ok(result.stdout.length < printed, `stdout is ${result.stdout.length} characters for ${printed} of output`);
    // Once means no line twice: the numbers the updates carry only ever grow.
    let last = 0;
    for (const chunk of chunks(result.events)) {
      for (const match of chunk.matchAll(/\x1b\[32m(\d+)\x1b\[0m/g)) {
        const value = Number(match[1]);
        assert.ok(value > last, `line ${value} came after line ${last}`);
        last = value;
      }
    }
    assert.equal(last, lines, 'the last line reached the updates');
    const end = result.events.find((event) => event.type === 'toolExecutionEnd');
    assert.ok(end && end.type === 'toolExecutionEnd');
    // Past what the store keeps, the end result carries the tail a redraw shows.
    const uiTail = (end.result.details as { uiTail?: string }).uiTail;
    if (uiTail !== undefined) assert.match(uiTail, new RegExp(`\\x1b\\[32m${lines}\\x1b\\[0m\\r\\n$`));
    assert.ok(storeBytes(f).size < 3_000_000, `the store holds ${storeBytes(f).size} bytes`);

    const toModel = f.server.requests[1]!.body.messages.at(-1)!;
    const resultText = JSON.stringify(toModel.content);
    assert.ok(!resultText.includes('\\u001b') && !resultText.includes('\\r'), 'the model gets no escapes or CRs');
    assert.match(resultText, /1\\n2\\n3\\n/);
    assert.match(resultText, new RegExp(`${lines - 1}\\\\n${lines}\\\\n\\[exit code 0\\]`));
    const omitted = /\[… ([\d,]+) characters \(([\d,]+) lines\) omitted …\]/.exec(resultText);
    assert.ok(omitted, 'a marker says what was left out');
    const shownLines = resultText.split('\\n').filter((line) => /^\d+$/.test(line) || /\d+$/.test(line)).length;
    assert.ok(Math.abs(Number(omitted[2]!.replace(/,/g, '')) + shownLines - lines) <= 3, 'the marker counts the lines left out');
  });

  describe('secrets', () => {
    const tokens = { split: `ghp_${random(36)}`, long: `ghp_${random(36)}`, tail: `ghp_${random(36)}` };
    let f: CliFixture;
    let result: CoveResult;
    before(async () => {
      const filler = 'a'.repeat(20_000);
      // The tokens are in files the command prints, as a real one would be, not in the command.
      const files = {
        'split.txt': `token=${tokens.split} end\n`,
        'long.txt': `${filler} key=${tokens.long} ${filler}\n`,
        'tail.txt': `GITHUB_TOKEN=${tokens.tail}\n`,
      };
      // The sleep after the split line lets its update go out before the long line: an update
      // over UI_BATCH_LIMIT keeps only its newest text, which would otherwise leave it out.
      const command = ['head -c 20 split.txt', 'sleep 0.3', 'tail -c +21 split.txt', 'sleep 0.3', 'cat long.txt', 'seq 1 400000', 'cat tail.txt', 'seq 1 3'].join('; ');
      ({ f, result } = await runCommand(command, files));
      fixtures.push(f);
    });

    for (const [name, token] of Object.entries(tokens)) {
      test(`a token ${name === 'split' ? 'split across two reads' : name === 'long' ? 'on a line over 16 KB' : 'in the tail of a flood'} is redacted in stdout, the store and the model's copy`, () => {
        const piece = token.slice(8, 28);
        assert.ok(!result.stdout.includes(piece), 'stdout');
        assert.ok(!storeBytes(f).text.includes(piece), 'store');
        assert.ok(
          !f.server.requests
            .map((request) => request.rawBody)
            .join('\n')
            .includes(piece),
          'model',
        );
      });
    }

    test('the output around the secrets is still there', () => {
      const shown = chunks(result.events).join('');
      assert.match(shown, /token=\[REDACTED:[a-z-]+\] end/);
      assert.match(result.stdout, /GITHUB_TOKEN=\[REDACTED/);
    });
  });
});
