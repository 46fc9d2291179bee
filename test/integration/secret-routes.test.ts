/**
 * The secret corpus through every route of a real `cove run --json`: the tool results the
 * scripted model server receives, the system prompt it receives (AGENTS.md and CLAUDE.md hold
 * secrets too), the JSON events on stdout (toolExecutionUpdate included), and the SQLite files
 * on disk, read as bytes. Needs `node scripts/build.mjs` first.
 */
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { block, reply } from '../support/model-server';
import { cliFixture } from '../support/cove-cli';
import { credentialSamples, lookAlikes, writeCorpusWorkspace, type Sample } from '../support/secret-corpus';

function leaked(redacted: string, samples: readonly Sample[]): string[] {
  // A marker's label may share letters with a secret (`[REDACTED:aws-amazon-bedrock-api-key-…]`).
  const text = redacted.replace(/\[REDACTED:[a-z0-9-]+\]/g, '[REDACTED]');
  return samples.flatMap((sample) => {
    for (let start = 0; start + 12 <= sample.secret.length; start += 3) {
      const piece = sample.secret.slice(start, start + 12);
      if (text.includes(piece)) return [`${sample.format} (${sample.file}): …${piece}…`];
    }
    return sample.secret.length < 12 && text.includes(sample.secret) ? [sample.format] : [];
  });
}

/** Where the first leaks are, with the text before them (which says which route and format). */
function leakContexts(text: string, samples: readonly Sample[]): string[] {
  return leaked(text, samples)
    .slice(0, 3)
    .map((leak) => {
      const at = text.indexOf(leak.split('…')[1]!);
      return text.slice(Math.max(0, at - 200), at + 60);
    });
}

describe('secrets through every route of cove run', () => {
  test('tool results, system prompt, events, UI stream and store: zero leaks; look-alikes intact', async () => {
    const samples = credentialSamples();
    const alikes = lookAlikes();
    const files = [...new Set(samples.map((sample) => sample.file))];
    const prompted = samples.filter((_, index) => index % 37 === 0);
    const f = await cliFixture([
      reply.message([
        ...files.slice(0, 8).map((path, index) => block.toolUse('read_file', { path }, { id: `toolu_read_${index}` })),
        block.toolUse('bash', { command: `cat ${files.join(' ')} look-alikes.txt` }, { id: 'toolu_cat' }),
        block.toolUse('bash', { command: 'for f in keys/*.pem; do tail -n 3 "$f"; sleep 0.2; done' }, { id: 'toolu_slow' }),
        block.toolUse('search', { pattern: 'TOKEN|token|KEY' }, { id: 'toolu_search' }),
      ]),
      reply.text('done'),
    ]);
    try {
      writeCorpusWorkspace(f.workspace, samples, alikes, prompted);
      const result = await f.home.run(['run', '--json', '--permission-mode', 'bypass', '--workspace', f.workspace, 'show me the config']);
      assert.equal(result.code, 0, result.stderr);
      assert.ok(f.server.requests.length >= 2, 'the model was asked twice');

      const system = JSON.stringify(f.server.requests[0]!.body.system);
      assert.match(system, /Deploy with these/, 'the instructions reached the system prompt');
      assert.deepEqual(leaked(system, prompted), [], 'system prompt');
      const toModel = f.server.requests.map((request) => request.rawBody).join('\n');
      assert.deepEqual(leaked(toModel, samples), [], 'requests to the model');
      assert.deepEqual(leakContexts(result.stdout, samples), [], 'JSON events');
      assert.ok(
        result.events.some((event) => event.type === 'toolExecutionUpdate'),
        'the UI stream was exercised',
      );
      for (const name of readdirSync(f.home.path).filter((entry) => entry.startsWith('cove.db'))) {
        assert.deepEqual(leaked(readFileSync(join(f.home.path, name), 'latin1'), samples), [], name);
      }
      const shown = alikes.filter((text) => toModel.includes(JSON.stringify(text).slice(1, -1)));
      assert.ok(shown.length >= alikes.length * 0.98, `look-alikes changed on the way: ${alikes.filter((text) => !shown.includes(text)).join('\n')}`);
    } finally {
      await f.close();
    }
  });
});
