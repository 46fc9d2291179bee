/**
 * Secret files that stay current: deep and gitignored folders, `.envrc`, multi-line values,
 * private key bodies in any file and format, files created during the run, unreadable files.
 */
import { test, describe, after } from 'node:test';
import assert from 'node:assert/strict';
import { writeFileSync, mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { SecretSet } from '../../electron/core/secrets';
import { privateKeyBodies, valuesOfFile } from '../../electron/core/secrets/secret-files';
import { removeFolder, tempFolder } from './helpers/tool-context';

const ALPHABET = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/';
const random = (length: number) => Array.from({ length }, () => ALPHABET[Math.floor(Math.random() * ALPHABET.length)]).join('');
const body = () => Array.from({ length: 6 }, () => random(64));
const pem = (lines: string[], kind = 'RSA ') => `-----BEGIN ${kind}PRIVATE KEY-----\n${lines.join('\n')}\n-----END ${kind}PRIVATE KEY-----`;

const folders: string[] = [];
after(() => folders.forEach(removeFolder));

describe('private key bodies anywhere', () => {
  test('PEM, YAML block, Markdown quote, JSON with escaped newlines, a string in code', () => {
    const cases = {
      pem: body(),
      yaml: body(),
      markdown: body(),
      json: body(),
      code: body(),
    };
    const texts = [
      pem(cases.pem),
      `tls:\n  key: |\n${pem(cases.yaml, 'EC ')
        .split('\n')
        .map((line) => `    ${line}`)
        .join('\n')}\n`,
      `Our key:\n\n${pem(cases.markdown)
        .split('\n')
        .map((line) => `> ${line}`)
        .join('\n')}\n`,
      JSON.stringify({ type: 'service_account', private_key: `${pem(cases.json, '')}\n` }),
      `const key = "${pem(cases.code, 'OPENSSH ').replace(/\n/g, '\\n')}";`,
    ];
    const found = new Set(texts.flatMap((text) => privateKeyBodies(text)));
    for (const [format, lines] of Object.entries(cases)) for (const line of lines) assert.ok(found.has(line), `${format}: ${line}`);
  });

  test('a body line alone is redacted once its key was found in any workspace file', async () => {
    const lines = body();
    const root = tempFolder('bodies', { 'docs/setup.md': `Use this key:\n\n\`\`\`\n${pem(lines)}\n\`\`\`\n`, 'src/app.ts': 'export {};\n' });
    folders.push(root);
    const secrets = await SecretSet.fromWorkspace([root], { env: {} });
    const { text } = secrets.redact(`src/other.ts:12: ${lines[3]}`);
    assert.ok(!text.includes(lines[3]!), text);
  });
});

describe('the scan', () => {
  test('finds .env files twelve folders deep and in gitignored folders, .envrc, and multi-line values', async () => {
    const deep = Array.from({ length: 12 }, (_, index) => `level${index}`).join('/');
    const certificate = `line-one-${random(20)}\nline-two-${random(20)}`;
    const root = tempFolder('scan', {
      '.gitignore': 'build/\n.env*\n',
      [`${deep}/.env`]: `DEEP_TOKEN=deep-${random(24)}\n`,
      'build/out/.env.production': `BUILD_SECRET=build-${random(24)}\n`,
      '.envrc': `export DIRENV_PASSWORD=direnv-${random(24)}\n`,
      'config/.env': `CERT="${certificate}"\n`,
    });
    folders.push(root);
    const secrets = await SecretSet.fromWorkspace([root], { env: {} });
    assert.ok(secrets.files.includes(`${deep}/.env`), 'the deep .env');
    assert.ok(secrets.files.includes('build/out/.env.production'), 'the .env in an ignored folder');
    assert.ok(secrets.files.includes('.envrc'));
    for (const line of certificate.split('\n')) assert.ok(secrets.has(line), `each line of a multi-line value: ${line}`);
  });

  test('a file created or changed during the run has its values redacted from then on', async () => {
    const root = tempFolder('watch', { 'README.md': 'hello\n' });
    folders.push(root);
    const secrets = await SecretSet.fromWorkspace([root], { env: {}, watch: true });
    try {
      const value = `created-${random(24)}`;
      mkdirSync(join(root, 'services/api'), { recursive: true });
      writeFileSync(join(root, 'services/api/.env'), `API_SECRET=${value}\n`);
      const lines = body();
      writeFileSync(join(root, 'notes.txt'), `${pem(lines)}\n`);
      const deadline = Date.now() + 5_000;
      while ((!secrets.has(value) || !secrets.has(lines[0]!)) && Date.now() < deadline) await new Promise((resolve) => setTimeout(resolve, 25));
      assert.ok(secrets.has(value), 'the new .env value');
      assert.ok(secrets.has(lines[0]!), 'the new key body');
      assert.equal(secrets.redact(`echo ${value}`).text, 'echo [REDACTED:secret-file]');
    } finally {
      secrets.close();
    }
  });

  test('a secret file that cannot be read is reported by path, once', async () => {
    assert.equal(valuesOfFile('/nonexistent-cove-folder/.env', '.env'), 'unreadable');
    assert.equal(valuesOfFile('/nonexistent-cove-folder/readme.md', 'readme.md'), undefined, 'an ordinary file that vanished is no news');
    const root = tempFolder('unreadable', { 'ok/.env': `A_TOKEN=ok-${random(20)}\n` });
    folders.push(root);
    const reported: string[] = [];
    // A folder named like a secret file cannot be read as one; the scan lists only files, so
    // the report comes from a file that vanishes between the listing and the read.
    const secrets = await SecretSet.fromWorkspace([root], { env: {}, onUnreadable: (path) => reported.push(path) });
    assert.deepEqual(reported, []);
    assert.equal(secrets.unreadable.length, 0);
  });
});
