/**
 * The credential corpus: every format gitleaks tests its rules with
 * (test/fixtures/secrets/gitleaks-formats.json, from scripts/build-secret-corpus.mjs), with a
 * token body generated from the format's regex on each run, written in several syntaxes and
 * file types; Cove's own formats (private keys in several containers, URL passwords with `@`,
 * curl --user, assignments in many languages); and look-alikes that must pass untouched.
 */
import { readFileSync } from 'node:fs';
import RandExp from 'randexp';
import { loadGitleaksRules, shannonEntropy } from '../../electron/core/secrets/gitleaks-rules';
import { re2ToJs } from '../../electron/core/secrets/re2-to-js';

interface Format {
  rule: string;
  identifier: string;
  pattern: string;
}

export interface Sample {
  format: string;
  /** The secret: no 12-character piece of it may survive redaction. */
  secret: string;
  text: string;
  /** Where the sample is written in a workspace. */
  file: string;
}

const formats = (JSON.parse(readFileSync(new URL('../fixtures/secrets/gitleaks-formats.json', import.meta.url), 'utf8')) as { formats: Format[] }).formats;

/** Syntaxes and the file each is written to; {i} the identifier, {I} in capitals, {s} the secret. */
const SYNTAXES: { file: string; template: string }[] = [
  { file: '.env', template: '{I}_TOKEN={s}' },
  { file: 'config/settings.yaml', template: '{i}_token: "{s}"' },
  { file: 'config/settings.json', template: '{\n  "{i}_token": "{s}"\n}' },
  { file: 'src/main.go', template: '{i}Token := "{s}"' },
  { file: 'scripts/deploy.py', template: "{i}_token = '{s}'" },
  { file: 'Makefile', template: '{I}_TOKEN ::= "{s}"' },
  { file: 'web/index.php', template: '${i}Token .= "{s}";' },
  { file: 'config/app.rb', template: '  "{i}_token" => "{s}",' },
  { file: 'scripts/setup.sh', template: 'export {I}_TOKEN="{s}"' },
  { file: 'docs/setup.md', template: '```\n{I}_TOKEN={s}\n```' },
  { file: 'config/app.ini', template: '{i}Token = {s}' },
  { file: 'src/Config.java', template: 'String {i}Token = "{s}";' },
  { file: 'config/pom.xml', template: '<{i}Token>\n    {s}\n</{i}Token>' },
  { file: 'conf/build.mk', template: '{I}_TOKEN ?= {s}' },
];

/** Syntaxes per format: enough to vary, few enough that the corpus stays quick. */
const SYNTAXES_PER_FORMAT = 4;

/**
 * Seeded (mulberry32), so a failure is the same on every run and machine; COVE_CORPUS_SEED picks
 * another corpus to explore with, and a failing run prints the seed it used.
 */
export const CORPUS_SEED = Number(process.env.COVE_CORPUS_SEED ?? 20261201) >>> 0;
let state = CORPUS_SEED;
function nextRandom(): number {
  state = (state + 0x6d2b79f5) >>> 0;
  let t = state;
  t = Math.imul(t ^ (t >>> 15), t | 1);
  t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
  return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
}
const randomInt = (low: number, high: number) => low + Math.floor(nextRandom() * (high - low + 1));

function generate(pattern: string): string {
  const generator = new RandExp(new RegExp(re2ToJs(pattern)));
  generator.max = 8;
  generator.randInt = randomInt;
  return generator.gen();
}

const ALPHANUMERIC = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789';
const random = (length: number, alphabet = ALPHANUMERIC) => Array.from({ length }, () => alphabet[Math.floor(nextRandom() * alphabet.length)]).join('');
const hex = (length: number) => random(length, '0123456789abcdef');
const base64 = (length: number) => random(length, `${ALPHANUMERIC}+/`);

function fill(template: string, identifier: string, secret: string): string {
  const name = identifier.replace(/[^A-Za-z0-9]/g, '_');
  return template.replaceAll('{i}', name).replaceAll('{I}', name.toUpperCase()).replaceAll('{s}', secret);
}

function pem(kind: string): { body: string; lines: string[] } {
  const lines = Array.from({ length: 8 }, () => base64(64));
  return { body: `-----BEGIN ${kind}PRIVATE KEY-----\n${lines.join('\n')}\n-----END ${kind}PRIVATE KEY-----`, lines };
}

/** Cove's own formats: what gitleaks' samples do not cover. */
function coveSamples(): Sample[] {
  const samples: Sample[] = [];
  const add = (format: string, secret: string, text: string, file: string) => samples.push({ format, secret, text, file });
  const password = () => `${random(6)}@${random(8)}!${random(4)}`;
  let secret = password();
  add('url-password-with-at', secret, `DATABASE_URL=postgres://app:${secret}@db.internal:5432/app`, 'deploy/database.conf');
  secret = random(20);
  add('curl-user', secret, `curl --user deploy:${secret} https://api.example.com/v1/items`, 'scripts/fetch.sh');
  secret = random(24);
  add('php-arrow', secret, `'password' => '${secret}',`, 'config/database.php');
  secret = random(24);
  add('make-conditional', secret, `DB_PASSWORD ?= ${secret}`, 'conf/db.mk');
  secret = random(24);
  add('creds-shell-assign', secret, `creds ::= ${secret}`, 'conf/creds.mk');
  secret = `${random(30)}${hex(10)}`;
  add('aws-secret-access-key', secret.slice(0, 40), `aws_secret_access_key = ${secret.slice(0, 40)}`, 'home/aws-credentials.ini');
  for (const kind of ['RSA ', 'EC ', 'OPENSSH ', '', 'ENCRYPTED ']) {
    const key = pem(kind);
    samples.push(...key.lines.slice(0, 2).map((line) => ({ format: `private-key-${kind.trim() || 'pkcs8'}`, secret: line, text: key.body, file: `keys/${kind.trim().toLowerCase() || 'pkcs8'}.pem` })));
  }
  const json = pem('');
  add('private-key-in-json', json.lines[3]!, JSON.stringify({ type: 'service_account', private_key: `${json.body}\n` }), 'config/service-account.json');
  const yaml = pem('RSA ');
  add('private-key-in-yaml', yaml.lines[5]!, `tls:\n  key: |\n${yaml.body.split('\n').map((line) => `    ${line}`).join('\n')}`, 'deploy/values.yaml');
  return samples;
}

/**
 * A few of gitleaks' sample regexes allow characters its rule does not (square's `\\-_` is a
 * range from `\` to `_`); gitleaks' own test only keeps samples its rule finds, and so does this.
 */
function sampleSecret(format: Format, index: number): string {
  const rule = rules.get(format.rule)?.regex;
  // Below the rule's entropy floor a string is not a secret to gitleaks either (`111…` is not a key).
  const floor = rules.get(format.rule)?.entropy ?? 0;
  const syntax = SYNTAXES[index % SYNTAXES.length]!;
  const found = (secret: string) => {
    // Quotes, backslashes and spaces are not token characters, whatever a sample regex allows.
    if (/[\\"'`\s]/.test(secret)) return false;
    if (shannonEntropy(secret) < floor) return false;
    if (!rule) return true;
    const match = new RegExp(rule.source, rule.flags.replace(/[gyd]/g, '')).exec(fill(syntax.template, format.identifier, secret));
    return match !== null && (match.slice(1).find((group) => group) ?? match[0]).includes(secret);
  };
  let secret = generate(format.pattern);
  for (let attempt = 0; attempt < 50 && !found(secret); attempt++) secret = generate(format.pattern);
  return secret;
}

const rules = new Map(loadGitleaksRules().rules.map((rule) => [rule.id, rule]));

export function credentialSamples(): Sample[] {
  const samples: Sample[] = [];
  formats.forEach((format, index) => {
    const secret = sampleSecret(format, index);
    for (let offset = 0; offset < SYNTAXES_PER_FORMAT; offset++) {
      const syntax = SYNTAXES[(index + offset * 3) % SYNTAXES.length]!;
      samples.push({ format: format.rule, secret, text: fill(syntax.template, format.identifier, secret), file: syntax.file });
    }
  });
  return [...samples, ...coveSamples()];
}

/** Text that looks random or credential-like but is not a secret: none of it may be redacted. */
export function lookAlikes(): string[] {
  const uuid = () => `${hex(8)}-${hex(4)}-4${hex(3)}-a${hex(3)}-${hex(12)}`;
  return [
    `commit ${hex(40)}`,
    `Merge: ${hex(7)} ${hex(7)}`,
    `  resolved "https://registry.yarnpkg.com/lodash/-/lodash-4.17.21.tgz#${hex(40)}"`,
    `  integrity sha512-${base64(86)}==`,
    `      "integrity": "sha512-${base64(86)}==",`,
    `"integrity": "sha1-${base64(27)}="`,
    `github.com/stretchr/testify v1.8.4 h1:${base64(43)}=`,
    `checksum = "${hex(64)}"`,
    `sha256:${hex(64)}  dist/app.js`,
    `FROM node:20@sha256:${hex(64)}`,
    `"id": "${uuid()}"`,
    `request_id=${uuid()} status=200`,
    `trace: ${uuid()} span: ${hex(16)}`,
    `const buildId = "${hex(32)}";`,
    `etag: W/"${hex(32)}"`,
    `<img src="data:image/png;base64,iVBORw0KGgo${base64(120)}">`,
    `background: url(data:image/svg+xml;base64,PHN2Zy${base64(80)});`,
    `color: #${hex(6)}; border-color: #${hex(3)};`,
    `version: 3.${Math.floor(nextRandom() * 20)}.${Math.floor(nextRandom() * 50)}`,
    `  "version": "1.2.3-beta.${Math.floor(nextRandom() * 9)}+build.${hex(7)}"`,
    `listening on 10.0.${Math.floor(nextRandom() * 250)}.${Math.floor(nextRandom() * 250)}:8080`,
    `Downloaded serde v1.0.${Math.floor(nextRandom() * 200)} (registry+https://github.com/rust-lang/crates.io-index)`,
    `source = "registry+https://github.com/rust-lang/crates.io-index"`,
    `password: string;`,
    `const token = await getAccessToken(user);`,
    `if (password !== confirmPassword) return;`,
    `token: process.env.GITHUB_TOKEN,`,
    `api_key: \${{ secrets.API_KEY }}`,
    `password = "\${DB_PASSWORD}"`,
    `AWS_SECRET_ACCESS_KEY=your-secret-access-key-here`,
    `secret_key_base: <%= ENV["SECRET_KEY_BASE"] %>`,
    `export function validateToken(token: string): boolean {`,
    `  tokens.push(nextToken());`,
    `The key ${hex(8)} was rotated on ${new Date(Date.now() - 1e9).toISOString().slice(0, 10)}.`,
    `src/auth/token-store.ts:${Math.floor(nextRandom() * 300)}: warning: unused variable`,
    `-rw-r--r--  1 user staff  ${Math.floor(nextRandom() * 9999)} Jan  3 10:22 secrets.md`,
    `git checkout -b feature/${hex(6)}`,
    `object ${hex(40)} type commit`,
    `tree ${hex(40)}`,
    `parent ${hex(40)}`,
    `ssh-ed25519 AAAAC3NzaC1lZDI1NTE5AAAAI${base64(43)} user@laptop`,
    `-----BEGIN CERTIFICATE-----`,
    `https://example.com/search?q=${random(8)}&page=2`,
    `https://github.com/acme/widgets/pull/${Math.floor(nextRandom() * 9999)}`,
    `"hash": "${hex(20)}", "size": ${Math.floor(nextRandom() * 1e6)}`,
    `md5 (dist/app.zip) = ${hex(32)}`,
    `Test Suites: ${Math.floor(nextRandom() * 40)} passed, ${Math.floor(nextRandom() * 40)} total`,
    `key: ${random(6, 'abcdefghijklmnopqrstuvwxyz')}`,
    `accessibility: { label: "Close" }`,
    `primary_key = ["id", "tenant_id"]`,
    `cache_key_prefix: "v2"`,
    `monkey_island.map(key => key.toUpperCase())`,
    `"node_modules/@types/node": { "version": "20.${Math.floor(nextRandom() * 19)}.0" }`,
    `Authorization: Bearer \${TOKEN}`,
    `ETag: "${hex(40)}"`,
  ];
}
