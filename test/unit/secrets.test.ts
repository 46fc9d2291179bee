import { test, describe, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { SecretSet, environmentSecrets, isSecretFile, redactDeep, secretValuesOf } from '../../electron/core/secrets';
import { readFileTool } from '../../electron/core/tools/read-file';
import { makeContext, removeFolder, tempFolder, textOf } from './helpers/tool-context';

interface Positive {
  name: string;
  text: string;
  secret: string;
  keep?: string[];
}

const corpus = JSON.parse(readFileSync(new URL('../fixtures/secrets/corpus.json', import.meta.url), 'utf8')) as {
  positives: Positive[];
  negatives: string[];
};

describe('built-in patterns: the corpus', () => {
  const secrets = new SecretSet();
  for (const positive of corpus.positives) {
    test(`redacts ${positive.name}: ${positive.text.slice(0, 50).replace(/\n/g, '⏎')}`, () => {
      const { text, count } = secrets.redact(positive.text);
      assert.ok(!text.includes(positive.secret), `still visible in: ${text}`);
      // Where gitleaks' rule and Cove's pattern both match, either name may be shown.
      assert.match(text, /\[REDACTED:[a-z0-9-]+\]/, `nothing redacted in: ${text}`);
      assert.ok(count >= 1);
      for (const kept of positive.keep ?? []) assert.ok(text.includes(kept), `lost ${JSON.stringify(kept)} in: ${text}`);
    });
  }
  for (const negative of corpus.negatives) {
    test(`leaves alone: ${negative.slice(0, 60).replace(/\n/g, '⏎')}`, () => {
      // Text a tool already redacted stays as it is, and its markers still count.
      const markers = negative.match(/\[REDACTED:[a-z0-9-]+\]/g)?.length ?? 0;
      assert.deepEqual(secrets.redact(negative), { text: negative, count: markers });
    });
  }

  test('the whole corpus at once: every positive redacted, every negative intact', () => {
    const text = [...corpus.positives.map((p) => p.text), ...corpus.negatives].join('\n');
    const redacted = secrets.redact(text).text;
    for (const positive of corpus.positives) assert.ok(!redacted.includes(positive.secret), positive.secret);
    for (const negative of corpus.negatives) assert.ok(redacted.includes(negative), negative);
  });
});

describe('known values', () => {
  test('replaced wherever they appear, longest first, counted', () => {
    const secrets = new SecretSet({
      values: [
        { value: 'abc123secret', label: 'secret-file' },
        { value: 'abc123secret-extended', label: 'environment' },
      ],
    });
    assert.deepEqual(secrets.redact('a=abc123secret-extended b=abc123secret (abc123secret)'), {
      text: 'a=[REDACTED:environment] b=[REDACTED:secret-file] ([REDACTED:secret-file])',
      count: 3,
    });
  });

  test('regex characters in values are literal, and short values are refused', () => {
    const secrets = new SecretSet();
    assert.equal(secrets.add('p@ss.w*rd(1)'), true);
    assert.equal(secrets.add('true'), false);
    assert.deepEqual(secrets.redact('x p@ss.w*rd(1) pXssXwwrd(1) true'), { text: 'x [REDACTED:secret] pXssXwwrd(1) true', count: 1 });
  });
});

describe('secret files', () => {
  test('which files are secret', () => {
    const secret = ['.env', 'config/.env.local', '.env.production', 'certs/server.pem', 'tls.key', '.ssh/id_rsa', 'id_ed25519', 'id_ecdsa_sk'];
    const ordinary = ['.env.example', '.env.sample', '.env.template', 'id_rsa.pub', 'env.ts', 'keys.ts', 'README.md', 'environment'];
    for (const path of secret) assert.equal(isSecretFile(path), true, path);
    for (const path of ordinary) assert.equal(isSecretFile(path), false, path);
    assert.equal(
      isSecretFile('config/credentials.yml', (path) => path === 'config/credentials.yml'),
      true,
    );
  });

  test('.env values: quotes, export, comments, multi-line; short and ordinary values skipped', () => {
    const env = [
      '# a comment',
      'export API_URL=https://api.example.com',
      'NODE_ENV=production',
      'DEBUG=true',
      'PORT=3000',
      'DB_PASSWORD="pa ss word 1"',
      "SINGLE='single-quoted-9'",
      'UNQUOTED=plainvalue42 # trailing comment',
      'SHORT=ab1',
      'DB_PASS=hunter',
      'MULTI="line one of the value',
      'line two of the value"',
      'EMPTY=',
    ].join('\n');
    assert.deepEqual(secretValuesOf(env), [
      'pa ss word 1',
      'single-quoted-9',
      'plainvalue42',
      'hunter',
      'line one of the value\nline two of the value',
      'line one of the value',
      'line two of the value',
    ]);
  });

  test('JSON, PEM and bare token files', () => {
    assert.deepEqual(secretValuesOf('{"client_id": "12345", "client_secret": "s3cr3t-value", "region": "europe", "nested": {"token": "tok-123456"}}'), ['s3cr3t-value', 'tok-123456']);
    assert.deepEqual(secretValuesOf('-----BEGIN PRIVATE KEY-----\nMIIEvQIBADANBgkqhkiG9w0BAQEF\nshort\n-----END PRIVATE KEY-----\n'), ['MIIEvQIBADANBgkqhkiG9w0BAQEF']);
    assert.deepEqual(secretValuesOf('FAKE-raw-token-0123456789\n'), ['FAKE-raw-token-0123456789']);
  });

  test('environment variables with secret names', () => {
    assert.deepEqual(
      environmentSecrets({
        MY_API_KEY: 'abcd1234efgh',
        GITHUB_TOKEN: 'short',
        SOME_PASSWORD: 'pa55word!',
        AWS_SECRET_ACCESS_KEY: 'wJalrXUtnFEMI/K7MDENG',
        GOOGLE_APPLICATION_CREDENTIALS: '/home/me/key.json',
        TOKENIZERS_PARALLELISM: 'false',
        HOME: '/root',
        EDITOR: 'vim-with-plugins-123',
      }),
      ['abcd1234efgh', 'pa55word!', 'wJalrXUtnFEMI/K7MDENG'],
    );
  });
});

describe('SecretSet.fromWorkspace', () => {
  let root: string;
  before(() => {
    root = tempFolder('secrets', {
      '.gitignore': '.env*\ndist/\n',
      '.env': 'OPENAI_KEY=value-from-root-env-1\nNODE_ENV=production\n',
      '.env.example': 'OPENAI_KEY=placeholder-value-123\n',
      'packages/api/.env.local': 'STRIPE=nested-env-value-2\n',
      'dist/.env': 'BUILT=ignored-folder-value-3\n',
      'node_modules/pkg/.env': 'DEP=dependency-value-4\n',
      'certs/id_rsa': '-----BEGIN OPENSSH PRIVATE KEY-----\nb3BlbnNzaC1rZXktdjEAAAAABG5vbmUAAAAEbm9uZQ\n-----END OPENSSH PRIVATE KEY-----\n',
      'certs/id_rsa.pub': 'ssh-ed25519 AAAAC3NzaC1lZDI1NTE5AAAAIFAKEpublic0123 me@host\n',
      'config/credentials.json': '{"service": {"password": "json-config-value-5"}}\n',
      'src/app.ts': 'console.log(process.env.OPENAI_KEY);\n',
    });
  });
  after(() => removeFolder(root));

  test('loads values of secret files (gitignored ones and those in ignored folders too), skips templates and node_modules', async () => {
    const secrets = await SecretSet.fromWorkspace([root], { extraGlobs: ['config/credentials.json'], env: { SERVICE_TOKEN: 'environment-value-6' } });
    assert.deepEqual([...secrets.files].sort(), ['.env', 'certs/id_rsa', 'config/credentials.json', 'dist/.env', 'packages/api/.env.local']);
    for (const value of [
      'value-from-root-env-1',
      'nested-env-value-2',
      'ignored-folder-value-3',
      'b3BlbnNzaC1rZXktdjEAAAAABG5vbmUAAAAEbm9uZQ',
      'json-config-value-5',
      'environment-value-6',
    ]) {
      assert.ok(secrets.has(value), value);
    }
    for (const value of ['placeholder-value-123', 'dependency-value-4', 'production']) assert.ok(!secrets.has(value), value);
    const { text, count } = secrets.redact('key=value-from-root-env-1 env=production token=environment-value-6');
    assert.equal(text, 'key=[REDACTED:secret-file] env=production token=[REDACTED:environment]');
    assert.equal(count, 2);
  });

  test('read_file of .env works, and its values come out redacted by the redactor', async () => {
    const secrets = await SecretSet.fromWorkspace([root], { env: {} });
    const result = await readFileTool.execute({ path: '.env' }, makeContext([root], secrets));
    const shown = secrets.redact(textOf(result)).text;
    assert.match(shown, /^\[\.env#[0-9a-z]{6}\]\n1│OPENAI_KEY=\[REDACTED:secret-file\]\n2│NODE_ENV=production$/);
  });
});

describe('redactDeep', () => {
  test('every string inside a JSON value, keys kept, input unchanged', () => {
    const secrets = new SecretSet({ values: [{ value: 'topsecret-1', label: 'secret' }] });
    const input = { a: 'x topsecret-1', list: ['topsecret-1', 3, null, { deep: 'topsecret-1!' }], n: 1, flag: true };
    const { value, count } = redactDeep(input, secrets);
    assert.deepEqual(value, { a: 'x [REDACTED:secret]', list: ['[REDACTED:secret]', 3, null, { deep: '[REDACTED:secret]!' }], n: 1, flag: true });
    assert.equal(count, 3);
    assert.equal(input.a, 'x topsecret-1');
  });
});
