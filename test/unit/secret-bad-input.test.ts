/**
 * Bad input for redaction and the file tools: a 1 GB (sparse) file, a binary, a million lines of
 * near-secrets (names that wake every rule, values that almost qualify). Each ends with a clear
 * answer; the test's own timeout is the bound on time, the heap check the bound on memory.
 */
import { test, describe, after } from 'node:test';
import assert from 'node:assert/strict';
import { closeSync, mkdirSync, openSync, ftruncateSync, writeFileSync } from 'node:fs';
import { randomBytes } from 'node:crypto';
import { join } from 'node:path';
import { SecretSet } from '../../electron/core/secrets';
import { bashTool } from '../../electron/core/tools/bash';
import { DEFAULT_MODEL_LIMITS, UI_BATCH_LIMIT } from '../../electron/core/tools/bash-output';
import { readFileTool } from '../../electron/core/tools/read-file';
import { searchTool } from '../../electron/core/tools/search';
import { makeContext, removeFolder, tempFolder, textOf } from './helpers/tool-context';

const root = tempFolder('bad-input');
after(() => removeFolder(root));

function nearSecrets(lines: number): string {
  const shapes = [
    (n: number) => `api_key = "k${n % 100}"`,
    // Filler in the character docs fill placeholders with (a run of `a` is a test key: patterns.ts, fillerKey).
    (n: number) => `token: ${'x'.repeat(30)}${n % 10}`,
    () => `password=${'ab'.repeat(12)}`,
    (n: number) => `AKIA${'A'.repeat(15)} ghp_${'x'.repeat(20)} sk-${n}`,
    (n: number) => `secret_key_${n} := getSecret("name")`,
    (n: number) => `-----BEGIN PRIVATE KEY----- ${n}`,
    (n: number) => `curl -u user${n} https://example.com`,
    (n: number) => `Authorization: Bearer \${TOKEN_${n}}`,
  ];
  return Array.from({ length: lines }, (_, n) => shapes[n % shapes.length]!(n)).join('\n');
}

describe('bad input', () => {
  test('a 1 GB sparse file is refused by its size, without being read', { timeout: 10_000 }, async () => {
    const path = join(root, 'huge.log');
    const fd = openSync(path, 'w');
    ftruncateSync(fd, 1024 ** 3);
    closeSync(fd);
    const error = await readFileTool.execute({ path: 'huge.log' }, makeContext([root], new SecretSet())).then(
      () => undefined,
      (caught: unknown) => caught as Error,
    );
    assert.match(error?.message ?? '', /1\.0 GB, over the 10 MB limit/);
  });

  test('a binary is refused by its first bytes', { timeout: 10_000 }, async () => {
    writeFileSync(join(root, 'blob.bin'), Buffer.from([0x7f, 0x45, 0x4c, 0x46, 0, 1, 2, 3, 0, 0, 0x41]));
    const error = await readFileTool.execute({ path: 'blob.bin' }, makeContext([root], new SecretSet())).then(
      () => undefined,
      (caught: unknown) => caught as Error,
    );
    assert.match(error?.message ?? '', /binary file/);
  });

  test('a million lines of near-secrets: redacted in bounded time and memory, none of them touched', { timeout: 120_000 }, () => {
    const text = nearSecrets(1_000_000);
    const secrets = new SecretSet();
    const heapBefore = process.memoryUsage().heapUsed;
    const { text: redacted, count } = secrets.redact(text);
    const grown = process.memoryUsage().heapUsed - heapBefore;
    assert.equal(count, 0, 'near-secrets are not secrets');
    assert.equal(redacted, text);
    assert.ok(grown < 20 * text.length, `the heap grew ${grown} bytes for ${text.length} characters`);
  });

  test('search over a file of near-secrets just under the size limit answers', { timeout: 120_000 }, async () => {
    writeFileSync(join(root, 'near.txt'), nearSecrets(200_000));
    const text = textOf(await searchTool.execute({ pattern: 'token' }, makeContext([root], new SecretSet())));
    assert.match(text, /near\.txt:2: token: x{30}1/);
  });

  test('search skips a 1 GB file and a binary by what they are, and still answers for the rest', { timeout: 60_000 }, async () => {
    const folder = join(root, 'mixed');
    mkdirSync(folder, { recursive: true });
    const fd = openSync(join(folder, 'huge.log'), 'w');
    ftruncateSync(fd, 1024 ** 3);
    closeSync(fd);
    writeFileSync(join(folder, 'blob.bin'), Buffer.concat([Buffer.from('token=ghp_'), randomBytes(64 * 1024), Buffer.from([0, 0, 0])]));
    writeFileSync(join(folder, 'notes.txt'), `token is here\nGITHUB_TOKEN=ghp_${'A1b2C3d4E5'.repeat(3)}abcdef\n`);
    const text = textOf(await searchTool.execute({ pattern: 'token', path: 'mixed' }, makeContext([root], new SecretSet())));
    assert.match(text, /notes\.txt:1: token is here/);
    assert.doesNotMatch(text, /A1b2C3d4E5/);
    assert.doesNotMatch(text, /huge\.log|blob\.bin/);
  });

  test('bash printing a binary: the model copy is cut to its limits, redacted, and the run answers', { timeout: 120_000 }, async () => {
    const secret = `ghp_${'Zz9'.repeat(12)}`;
    // Without ESC: an escape sequence left open swallows the output after it (see the report on ansi.ts).
    const noise = () => Buffer.from(randomBytes(512 * 1024).filter((byte) => byte !== 0x1b));
    writeFileSync(join(root, 'noise.bin'), Buffer.concat([noise(), Buffer.from(`\n${secret}\n`), noise()]));
    const ctx = makeContext([root], new SecretSet());
    const text = textOf(await bashTool.execute({ command: `cat noise.bin; echo; echo '${secret}'; echo done` }, ctx));
    assert.ok(text.length < DEFAULT_MODEL_LIMITS.headChars + DEFAULT_MODEL_LIMITS.tailChars + 2_000, `${text.length} characters for the model`);
    assert.match(text, /done/);
    assert.ok(!text.includes(secret) && !JSON.stringify(ctx.updates).includes(secret));
  });

  test('bash printing one 1 MB line of near-secrets: bounded for the model and the UI, no secret, no crash', { timeout: 180_000 }, async () => {
    writeFileSync(
      join(root, 'one-line.txt'),
      `${nearSecrets(40_000)
        .replaceAll('\n', ' ')
        .slice(0, 1024 * 1024)} password=Q8zt3vLm9xPw2RkY`,
    );
    const ctx = makeContext([root], new SecretSet());
    const heapBefore = process.memoryUsage().heapUsed;
    const text = textOf(await bashTool.execute({ command: 'cat one-line.txt; echo; echo finished' }, ctx));
    const streamed = JSON.stringify(ctx.updates);
    assert.ok(text.length < DEFAULT_MODEL_LIMITS.headChars + DEFAULT_MODEL_LIMITS.tailChars + 2_000, `${text.length} characters for the model`);
    // Each update carries at most one batch's newest part, whatever the line's length (JSON escaping aside).
    for (const update of ctx.updates) assert.ok(JSON.stringify(update).length < UI_BATCH_LIMIT * 2, `an update of ${JSON.stringify(update).length} characters`);
    assert.match(text, /finished/);
    assert.ok(!text.includes('Q8zt3vLm9xPw2RkY') && !streamed.includes('Q8zt3vLm9xPw2RkY'));
    assert.ok(process.memoryUsage().heapUsed - heapBefore < 400 * 1024 * 1024, 'the heap stays bounded');
  });
});
