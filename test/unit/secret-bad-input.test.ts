/**
 * Bad input for redaction and the file tools: a 1 GB (sparse) file, a binary, a million lines of
 * near-secrets (names that wake every rule, values that almost qualify). Each ends with a clear
 * answer; the test's own timeout is the bound on time, the heap check the bound on memory.
 */
import { test, describe, after } from 'node:test';
import assert from 'node:assert/strict';
import { closeSync, openSync, ftruncateSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { SecretSet } from '../../electron/core/secrets';
import { readFileTool } from '../../electron/core/tools/read-file';
import { searchTool } from '../../electron/core/tools/search';
import { makeContext, removeFolder, tempFolder, textOf } from './helpers/tool-context';

const root = tempFolder('bad-input');
after(() => removeFolder(root));

function nearSecrets(lines: number): string {
  const shapes = [
    (n: number) => `api_key = "k${n % 100}"`,
    (n: number) => `token: ${'a'.repeat(30)}${n % 10}`,
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
    const error = await readFileTool.execute({ path: 'huge.log' }, makeContext([root], new SecretSet())).then(() => undefined, (caught: unknown) => caught as Error);
    assert.match(error?.message ?? '', /1\.0 GB, over the 10 MB limit/);
  });

  test('a binary is refused by its first bytes', { timeout: 10_000 }, async () => {
    writeFileSync(join(root, 'blob.bin'), Buffer.from([0x7f, 0x45, 0x4c, 0x46, 0, 1, 2, 3, 0, 0, 0x41]));
    const error = await readFileTool.execute({ path: 'blob.bin' }, makeContext([root], new SecretSet())).then(() => undefined, (caught: unknown) => caught as Error);
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
    assert.match(text, /near\.txt:2: token: a{30}1/);
  });
});
