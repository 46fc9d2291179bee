/**
 * The corpus (test/support/secret-corpus.ts) through the redactor and through the tools as a
 * session uses them: read_file, search and bash (model copy and UI stream), with the workspace's
 * secret set. Zero leaks; at most 2% of look-alikes touched.
 */
import { test, describe, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { appendFileSync, mkdirSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { SecretSet } from '../../electron/core/secrets';
import { bashTool } from '../../electron/core/tools/bash';
import { readFileTool } from '../../electron/core/tools/read-file';
import { searchTool } from '../../electron/core/tools/search';
import { CORPUS_SEED, credentialSamples, lookAlikes, seedCorpus, type Sample } from '../support/secret-corpus';
import { makeContext, removeFolder, tempFolder, textOf } from './helpers/tool-context';

/** The first 12-character piece of `secret` that `text` still holds. */
function leakedPiece(redacted: string, secret: string): string | undefined {
  // A marker's label may share letters with a secret (`[REDACTED:aws-amazon-bedrock-api-key-…]`).
  const text = redacted.replace(/\[REDACTED:[a-z0-9-]+\]/g, '[REDACTED]');
  if (secret.length < 12) return text.includes(secret) ? secret : undefined;
  for (let start = 0; start + 12 <= secret.length; start += 3) {
    const piece = secret.slice(start, start + 12);
    if (text.includes(piece)) return piece;
  }
  return undefined;
}

function leaks(text: string, samples: readonly Sample[]): string[] {
  return samples.flatMap((sample) => {
    const piece = leakedPiece(text, sample.secret);
    return piece ? [`${sample.format} (${sample.file}): …${piece}…`] : [];
  });
}

const samples = credentialSamples();
const alikes = lookAlikes();

describe('the corpus through the redactor', () => {
  const secrets = new SecretSet();

  test(`at least 150 formats, each in several syntaxes and file types`, () => {
    const formats = new Set(samples.map((sample) => sample.format));
    assert.ok(formats.size >= 150, `${formats.size} formats`);
    assert.ok(new Set(samples.map((sample) => sample.file)).size >= 10);
    assert.ok(alikes.length >= 50, `${alikes.length} look-alikes`);
  });

  test('every sample redacted on its own: zero leaks', () => {
    const leaked = samples.flatMap((sample) => leaks(secrets.redact(sample.text).text, [sample]));
    assert.deepEqual(leaked, [], `corpus seed ${CORPUS_SEED} (COVE_CORPUS_SEED)`);
  });

  test('at most 2% of look-alikes touched, alone and among the samples', () => {
    const touched = alikes.filter((text) => secrets.redact(text).text !== text);
    assert.ok(touched.length <= Math.floor(alikes.length * 0.02), `touched: ${JSON.stringify(touched, null, 1)}`);
    const mixed = [...samples.map((sample) => sample.text), ...alikes].join('\n');
    const redacted = secrets.redact(mixed).text;
    assert.deepEqual(leaks(redacted, samples), []);
    const lost = alikes.filter((text) => !redacted.includes(text));
    assert.ok(lost.length <= Math.floor(alikes.length * 0.02), `look-alikes changed among samples: ${JSON.stringify(lost, null, 1)}`);
  });
});

describe('the fast path against the exhaustive one', () => {
  // Every rule run over the whole text as gitleaks runs it (SecretSetOptions.exhaustive): a
  // shortcut that skipped a rule, a keyword or a place would hide fewer characters somewhere here.
  const fast = new SecretSet();
  const slow = new SecretSet({ exhaustive: true });
  const hidden = (text: string) => text.replace(/\[REDACTED:[a-z0-9-]+\]/g, '[REDACTED]');

  test('the same characters redacted in every sample and look-alike, on this corpus and five more seeds', () => {
    const differ: string[] = [];
    for (const seed of [CORPUS_SEED, 1, 2, 3, 98, 124]) {
      seedCorpus(seed);
      for (const text of [...credentialSamples().map((sample) => sample.text), ...lookAlikes()]) {
        if (hidden(fast.redact(text).text) !== hidden(slow.redact(text).text)) differ.push(`seed ${seed}: ${text}`);
      }
    }
    seedCorpus(CORPUS_SEED);
    assert.deepEqual(differ, []);
  });
});

describe('the corpus through the tools', () => {
  let root: string;
  let secrets: SecretSet;
  const files = new Map<string, Sample[]>();
  before(async () => {
    root = tempFolder('corpus');
    for (const sample of samples) {
      const path = join(root, sample.file);
      mkdirSync(dirname(path), { recursive: true });
      appendFileSync(path, `${sample.text}\n`);
      files.set(sample.file, [...(files.get(sample.file) ?? []), sample]);
    }
    appendFileSync(join(root, 'look-alikes.txt'), `${alikes.join('\n')}\n`);
    secrets = await SecretSet.fromWorkspace([root], { env: {} });
  });
  after(() => removeFolder(root));

  test('read_file of every file, whole and from an offset', async () => {
    const leaked: string[] = [];
    for (const [file, held] of files) {
      const ctx = makeContext([root], secrets);
      leaked.push(...leaks(textOf(await readFileTool.execute({ path: file }, ctx)), held));
      const lines = held.reduce((count, sample) => count + sample.text.split('\n').length, 0);
      if (lines >= 3) leaked.push(...leaks(textOf(await readFileTool.execute({ path: file, offset: 3, limit: 5 }, ctx)), held));
    }
    assert.deepEqual(leaked, []);
  });

  test('search hits on secrets and on key body lines', async () => {
    const ctx = makeContext([root], secrets);
    const text = textOf(await searchTool.execute({ pattern: '[A-Za-z0-9+/_-]{20,}' }, ctx));
    assert.deepEqual(
      leaks(
        text,
        samples.filter((sample) => text.includes(sample.file)),
      ),
      [],
    );
    const body = samples.find((sample) => sample.format === 'private-key-RSA')!;
    const hit = textOf(await searchTool.execute({ pattern: body.secret.slice(0, 16).replace(/[+/]/g, '.') }, ctx));
    assert.deepEqual(leaks(hit, [body]), [], hit);
  });

  test('bash cat, tail and grep: the model copy and every UI update', async () => {
    const ctx = makeContext([root], secrets);
    const commands = ['cat .env config/settings.yaml keys/rsa.pem', 'tail -n 4 keys/ec.pem', 'grep -rh TOKEN . | head -50', "sed -n '3,6p' keys/openssh.pem"];
    for (const command of commands) {
      const result = await bashTool.execute({ command }, ctx);
      assert.deepEqual(leaks(textOf(result), samples), [], command);
    }
    const streamed = ctx.updates.map((update) => JSON.stringify(update)).join('\n');
    assert.deepEqual(leaks(streamed, samples), []);
  });
});
