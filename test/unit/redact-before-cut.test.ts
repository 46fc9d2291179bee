/**
 * Redaction comes before every cut: bash's head/tail cap, its UI chunks (by time and by size),
 * read_file's pages and line cuts, search's windows. Each test puts a secret exactly where the
 * cut falls and checks that not even its first characters survive.
 */
import { test, describe, after } from 'node:test';
import assert from 'node:assert/strict';
import { SecretSet } from '../../electron/core/secrets';
import { HOLD_BACK_LIMIT, HOLD_BACK_MS, ModelOutput, UiStream, type UiUpdate } from '../../electron/core/tools/bash-output';
import { MAX_LINE_CHARS, readFileTool } from '../../electron/core/tools/read-file';
import { searchTool } from '../../electron/core/tools/search';
import { makeContext, removeFolder, tempFolder, textOf } from './helpers/tool-context';

const ALPHABET = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789';
/** A fresh random body each run, so no test can pass by knowing the secret. */
const random = (length: number) => Array.from({ length }, () => ALPHABET[Math.floor(Math.random() * ALPHABET.length)]).join('');
const githubToken = () => `ghp_${random(36)}`;
const keyBody = () => Array.from({ length: 12 }, () => random(64));
const pem = (lines: string[]) => `-----BEGIN RSA PRIVATE KEY-----\n${lines.join('\n')}\n-----END RSA PRIVATE KEY-----`;

/** No 12-character piece of `secret` is in `text`. */
function assertNoPiece(text: string, secret: string, where: string): void {
  for (let start = 0; start + 12 <= secret.length; start += 4) {
    assert.ok(!text.includes(secret.slice(start, start + 12)), `${where}: a piece of the secret survived: …${secret.slice(start, start + 12)}…`);
  }
}

const folders: string[] = [];
after(() => folders.forEach(removeFolder));

describe('bash output to the model', () => {
  test('a token across the head cut is redacted whole, not cut first', () => {
    const secrets = new SecretSet();
    for (let shift = -30; shift <= 30; shift += 7) {
      const token = githubToken();
      const output = new ModelOutput({ headChars: 200, tailChars: 200 }, secrets);
      const line = `${'x'.repeat(200 + shift - 6)} token=${token} end`;
      output.push(`${line}\n`);
      output.push(`${'filler line\n'.repeat(100)}`);
      const { text } = output.finish();
      assertNoPiece(text, token.slice(4), `shift ${shift}`);
    }
  });

  test('a private key whose BEGIN line falls before the tail keeps its body lines redacted', () => {
    const secrets = new SecretSet();
    const body = keyBody();
    const output = new ModelOutput({ headChars: 100, tailChars: 500 }, secrets);
    output.push(`${'noise\n'.repeat(200)}${pem(body)}\nok\n`);
    const { text, truncated } = output.finish();
    assert.ok(truncated);
    for (const line of body) assertNoPiece(text, line, 'tail');
  });

  test('chunks that split a PEM block and a token mid-way change nothing', () => {
    const secrets = new SecretSet();
    const body = keyBody();
    const token = githubToken();
    const all = `start\n${pem(body)}\nGITHUB_TOKEN=${token}\n`;
    const output = new ModelOutput(undefined, secrets);
    for (let at = 0; at < all.length; at += 37) output.push(all.slice(at, at + 37));
    const { text } = output.finish();
    for (const secret of [...body, token]) assertNoPiece(text, secret, 'chunked');
    assert.match(text, /^start\n/);
  });
});

describe('bash output to the UI', () => {
  test('a token printed slowly is held until it is complete, then redacted', async () => {
    const secrets = new SecretSet();
    const token = githubToken();
    const updates: UiUpdate[] = [];
    const stream = new UiStream((update) => updates.push(update), Date.now(), 10, undefined, secrets);
    try {
      stream.push('export GITHUB_TOKEN=');
      stream.push(token.slice(0, 14));
      await new Promise((resolve) => setTimeout(resolve, HOLD_BACK_MS + 200));
      const early = updates.find((update) => update.chunk.includes('export GITHUB_TOKEN='));
      assert.ok(early, 'the open line is shown up to its last word');
      assert.equal(early.lineOpen, true, 'and marked as a line still open');
      stream.push(`${token.slice(14)}\nnext\n`);
      stream.flush();
    } finally {
      stream.dispose();
    }
    const shown = updates.map((update) => update.chunk).join('');
    assertNoPiece(shown, token.slice(4), 'ui');
    assert.ok(!shown.includes(token.slice(0, 14)), 'the first part of the token was never sent on its own');
    assert.match(shown, /\[REDACTED:[a-z-]+\]/);
  });

  test('a line over the hold-back limit is cut between words, so a token at the limit stays whole', () => {
    const secrets = new SecretSet();
    const token = githubToken();
    const updates: UiUpdate[] = [];
    const stream = new UiStream((update) => updates.push(update), Date.now(), 10, undefined, secrets);
    const filler = 'word '.repeat(Math.ceil(HOLD_BACK_LIMIT / 5));
    stream.push(`${filler.slice(0, HOLD_BACK_LIMIT - 10)} ${token} ${filler}`);
    stream.flush(false);
    stream.push(' tail\n');
    stream.flush();
    stream.dispose();
    for (const update of updates) assertNoPiece(update.chunk, token.slice(4), 'one update');
  });
});

describe('read_file and search', () => {
  const body = keyBody();
  const token = githubToken();
  const root = tempFolder('cut', {
    'deploy/values.yaml': `service: api\ntls:\n  key: |\n${pem(body)
      .split('\n')
      .map((line) => `    ${line}`)
      .join('\n')}\nreplicas: 3\n`,
    'minified.js': `var a="${'x'.repeat(MAX_LINE_CHARS - 20)}",t="${token}";\n`,
  });
  folders.push(root);
  const secrets = new SecretSet();

  test('an offset into a key body in a YAML file shows no body line, and line numbers stay true', async () => {
    const ctx = makeContext([root], secrets);
    const text = textOf(await readFileTool.execute({ path: 'deploy/values.yaml', offset: 6, limit: 5 }, ctx));
    for (const line of body) assertNoPiece(text, line, 'page');
    assert.match(text, /^\s*6│/m, 'numbering starts at the offset asked for');
    const whole = textOf(await readFileTool.execute({ path: 'deploy/values.yaml' }, ctx));
    assert.match(whole, new RegExp(`^\\s*${body.length + 6}│replicas: 3$`, 'm'), 'the line after the key keeps its number');
  });

  test('a secret on a line cut for length does not leave its first characters', async () => {
    const text = textOf(await readFileTool.execute({ path: 'minified.js' }, makeContext([root], secrets)));
    assertNoPiece(text, token.slice(4), 'cut line');
  });

  test('a search window on a long line never starts inside a secret', async () => {
    const text = textOf(await searchTool.execute({ pattern: 't=' }, makeContext([root], secrets)));
    assertNoPiece(text, token.slice(4), 'search window');
  });
});
