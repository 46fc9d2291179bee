/**
 * The held-out corpus (other scanners' test credentials, test/support/scanner-corpus.ts)
 * through every route of a real `cove run --json`: the tool results the scripted model server
 * receives, the system prompt (AGENTS.md holds samples), the JSON events on stdout (the UI
 * stream's toolExecutionUpdate included) and the SQLite files on disk, read as bytes. A route
 * must show no more of a secret than the redactor alone does (test/unit/scanner-corpus.test.ts
 * holds the redactor to its known-leak list). Needs `node scripts/build.mjs` first.
 */
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { SecretSet } from '../../electron/core/secrets';
import { block, reply } from '../support/model-server';
import { cliFixture } from '../support/cove-cli';
import { heldOutLookAlikes, heldOutSamples } from '../support/scanner-corpus';
import { writeCorpusWorkspace, type Sample } from '../support/secret-corpus';

const pieces = (secret: string) => (secret.length < 12 ? [secret] : Array.from({ length: Math.floor((secret.length - 12) / 3) + 1 }, (_, index) => secret.slice(index * 3, index * 3 + 12)));
const unmarked = (text: string) => text.replace(/\[REDACTED:[a-z0-9-]+\]/g, '[REDACTED]');

/**
 * A database file's text with the markers SQLite cut at a page's end joined again: a long value
 * goes on in an overflow page, after that page's 4-byte number (`[REDACTED:graf\0\0\0\x86ana-…]`),
 * and a cut label's words (`service-account`) are no secret's.
 */
const withMarkersJoined = (bytes: string) => bytes.replace(/(\[REDACTED:[a-z0-9-]*)[\x00-\x1f\x7f-\xff][\s\S]{3}([a-z0-9-]*\])/g, '$1$2');

/** Every string inside a JSON value, unescaped: a secret with a quote or backslash is found as written. */
function strings(value: unknown): string {
  if (typeof value === 'string') return value;
  if (Array.isArray(value)) return value.map(strings).join('\n');
  if (value && typeof value === 'object') return Object.values(value).map(strings).join('\n');
  return '';
}

/**
 * The samples a route shows more of than the redactor alone leaves in their own text. One pass
 * over the route looks every 12-character window up among the secrets' pieces: the routes hold
 * megabytes, and a search per piece would take minutes.
 */
function leaked(route: string, samples: readonly Sample[], alone: string): string[] {
  const text = unmarked(route);
  const owners = new Map<string, Sample[]>();
  for (const sample of samples) for (const piece of pieces(sample.secret)) owners.set(piece, [...(owners.get(piece) ?? []), sample]);
  const lengths = [...new Set([...owners.keys()].map((piece) => piece.length))];
  const found = new Map<Sample, string>();
  for (let at = 0; at < text.length; at++) {
    for (const length of lengths) {
      const held = owners.get(text.slice(at, at + length));
      if (held) for (const sample of held) if (!found.has(sample)) found.set(sample, text.slice(at, at + length));
    }
  }
  return [...found].flatMap(([sample, piece]) => {
    if (alone.includes(piece)) return [];
    const at = text.indexOf(piece);
    return [`${sample.format} (${sample.file}) ${piece}: ${JSON.stringify(text.slice(Math.max(0, at - 80), at + 20))}`];
  });
}

describe('the held-out corpus through every route of cove run', () => {
  test('tool results, system prompt, events, UI stream and store: no more than the redactor leaves; look-alikes intact', async () => {
    const samples = heldOutSamples();
    const alikes = heldOutLookAlikes().map((alike) => alike.text);
    const redactor = new SecretSet();
    // Some look-alikes hold a string that is another suite's secret (a rule's negative example
    // beside its positive one): what they show, they show alone too.
    const alone = unmarked([...samples.map((sample) => sample.text), ...alikes].map((text) => redactor.redact(text).text).join('\n'));
    const files = [...new Set(samples.map((sample) => sample.file))];
    const prompted = samples.filter((_, index) => index % 41 === 0);
    const f = await cliFixture([
      reply.message([
        ...files.map((path, index) => block.toolUse('read_file', { path, limit: 100_000 }, { id: `toolu_read_${index}` })),
        block.toolUse('bash', { command: `cat ${files.filter((file) => !file.endsWith('.txt')).join(' ')}` }, { id: 'toolu_cat' }),
        block.toolUse('read_file', { path: 'look-alikes.txt', limit: 100_000 }, { id: 'toolu_alikes' }),
        block.toolUse('bash', { command: 'for f in held-out/*.txt; do head -n 300 "$f"; sleep 0.2; done' }, { id: 'toolu_slow' }),
        block.toolUse('search', { pattern: 'TOKEN|token|KEY|key|secret|password' }, { id: 'toolu_search' }),
      ]),
      reply.text('done'),
    ]);
    try {
      writeCorpusWorkspace(f.workspace, samples, alikes, prompted);
      const result = await f.home.run(['run', '--json', '--permission-mode', 'bypass', '--workspace', f.workspace, 'show me the config']);
      assert.equal(result.code, 0, result.stderr);
      assert.ok(f.server.requests.length >= 2, 'the model was asked twice');

      const system = strings(f.server.requests[0]!.body.system);
      assert.match(system, /Deploy with these/, 'the instructions reached the system prompt');
      assert.deepEqual(leaked(system, prompted, alone), [], 'system prompt');
      // The last request holds the whole conversation; the first, what the model was first sent.
      const toModel = [f.server.requests[0]!, f.server.requests.at(-1)!].map((request) => strings(request.body)).join('\n');
      assert.deepEqual(leaked(toModel, samples, alone), [], 'requests to the model');
      assert.deepEqual(leaked(strings(result.events), samples, alone), [], 'JSON events');
      assert.ok(
        result.events.some((event) => event.type === 'toolExecutionUpdate'),
        'the UI stream was exercised',
      );
      for (const name of readdirSync(f.home.path).filter((entry) => entry.startsWith('cove.db'))) {
        assert.deepEqual(leaked(withMarkersJoined(readFileSync(join(f.home.path, name), 'latin1')), samples, alone), [], name);
      }
      // read_file numbers the lines: a look-alike is intact when each of its lines is.
      // One holding a sample's secret verbatim (`xsk_live_AAAA…` beside the .env's `sk_live_AAAA…`)
      // is hidden as that workspace's secret, rightly: in this workspace it is no look-alike.
      const values = [...new Set(samples.map((sample) => sample.secret))].filter((secret) => secret.length >= 8);
      const fair = alikes.filter((text) => !values.some((secret) => text.includes(secret)));
      const shown = fair.filter((text) => text.split('\n').every((line) => toModel.includes(line)));
      assert.ok(fair.length >= 300, `${fair.length} look-alikes hold no sample's secret`);
      assert.ok(shown.length >= fair.length * 0.98, `look-alikes changed on the way: ${fair.filter((text) => !shown.includes(text)).join('\n')}`);
    } finally {
      await f.close();
    }
  });
});
