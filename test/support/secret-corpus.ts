/**
 * The credential corpus: every format gitleaks tests its rules with
 * (test/fixtures/secrets/gitleaks-formats.json, from scripts/build-secret-corpus.mjs), with a
 * token body generated from the format's regex on each run, written in several syntaxes and
 * file types; Cove's own formats (private keys in several containers, URL passwords with `@`,
 * curl --user, assignments in many languages); and look-alikes that must pass untouched.
 */
import { appendFileSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import RandExp from 'randexp';
import { loadGitleaksRules, shannonEntropy, type Rule } from '../../electron/core/secrets/gitleaks-rules';
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
export const SYNTAXES: { file: string; template: string }[] = [
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
  { file: 'config/app.toml', template: '[{i}]\ntoken = "{s}"' },
  { file: 'Dockerfile', template: 'ENV {I}_TOKEN={s}' },
  { file: 'infra/main.tf', template: '  {i}_token = "{s}"' },
  { file: 'src/Settings.cs', template: 'var {i}Token = "{s}";' },
  { file: 'scripts/setup.ps1', template: '$env:{I}_TOKEN = "{s}"' },
  { file: 'src/config.ts', template: "export const config = { {i}Token: '{s}' };" },
  { file: 'config/App.config', template: '<add key="{i}Token" value="{s}" />' },
  { file: 'src/Settings.kt', template: 'val {i}Token = "{s}"' },
];

/**
 * Where nothing names the provider: a prefixed secret must be found by its prefix alone
 * (`SERVICE_CREDENTIAL=NRJS-…`, a key pasted in prose or a manifest).
 */
const NEUTRAL_SYNTAXES: { file: string; template: string }[] = [
  { file: 'deploy/service.env', template: 'SERVICE_CREDENTIAL={s}' },
  { file: 'notes/handover.md', template: 'The staging account uses `{s}` until Friday.' },
  { file: 'k8s/secret.yaml', template: '  data:\n    value: {s}' },
];

/** Syntaxes per format: enough to vary, few enough that the corpus stays quick. */
const SYNTAXES_PER_FORMAT = 5;

/**
 * Seeded (mulberry32), so a failure is the same on every run and machine; COVE_CORPUS_SEED picks
 * another corpus to explore with, and a failing run prints the seed it used.
 */
export const CORPUS_SEED = Number(process.env.COVE_CORPUS_SEED ?? 20261201) >>> 0;
let state = CORPUS_SEED;

/** Starts the generator again from `seed`, to explore many corpora in one process. */
export function seedCorpus(seed: number): void {
  state = seed >>> 0;
}
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

/** A body as plain as the format allows, every choice its first (`NRJS-000…`): a test key is still a key. */
function plainSecret(pattern: string): string {
  const generator = new RandExp(new RegExp(re2ToJs(pattern)));
  generator.max = 8;
  let turn = 0;
  // Mostly the first choice, now and then the second, so a body is plain but not one character.
  generator.randInt = (low: number, high: number) => Math.min(high, low + (turn++ % 5 === 4 ? 1 : 0));
  return generator.gen();
}

const ALPHANUMERIC = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789';
const random = (length: number, alphabet = ALPHANUMERIC) => Array.from({ length }, () => alphabet[Math.floor(nextRandom() * alphabet.length)]).join('');
const hex = (length: number) => random(length, '0123456789abcdef');
const base64 = (length: number) => random(length, `${ALPHANUMERIC}+/`);

export function fill(template: string, identifier: string, secret: string): string {
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
    samples.push(
      ...key.lines.slice(0, 2).map((line) => ({ format: `private-key-${kind.trim() || 'pkcs8'}`, secret: line, text: key.body, file: `keys/${kind.trim().toLowerCase() || 'pkcs8'}.pem` })),
    );
  }
  const json = pem('');
  add('private-key-in-json', json.lines[3]!, JSON.stringify({ type: 'service_account', private_key: `${json.body}\n` }), 'config/service-account.json');
  const yaml = pem('RSA ');
  add(
    'private-key-in-yaml',
    yaml.lines[5]!,
    `tls:\n  key: |\n${yaml.body
      .split('\n')
      .map((line) => `    ${line}`)
      .join('\n')}`,
    'deploy/values.yaml',
  );
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

/** By id; a rule's prefix-only twin (same id) is not the one its samples are checked against. */
const rules = new Map<string, Rule>();
for (const rule of loadGitleaksRules().rules) if (!rules.has(rule.id)) rules.set(rule.id, rule);

/**
 * Shapes gitleaks' samples lack, from other scanners' detectors and tests (see
 * electron/core/secrets/scanner-rules.ts for each one's source).
 */
const SCANNER_FORMATS: Format[] = [
  { rule: 'trello-token', identifier: 'trello', pattern: '[a-zA-Z0-9-]{32}' },
  { rule: 'trello-token', identifier: 'trello', pattern: '[a-zA-Z0-9-]{64}' },
  { rule: 'trello-token-atta', identifier: 'board', pattern: 'ATTA[a-f0-9]{64}[A-F0-9]{8}' },
  { rule: 'figma-token', identifier: 'figma', pattern: 'figd_[A-Za-z0-9_-]{40}' },
  { rule: 'docker-hub-token', identifier: 'docker', pattern: 'dckr_pat_[A-Za-z0-9_-]{27}' },
  { rule: 'vercel-token', identifier: 'vercel', pattern: 'vc[pk]_[A-Za-z0-9]{24}' },
  { rule: 'cloudflare-token', identifier: 'cloudflare', pattern: 'cfut_[A-Za-z0-9]{40}[0-9a-f]{8}' },
  { rule: 'vault-recovery-token', identifier: 'vault', pattern: 'hvr\\.[A-Za-z0-9_-]{95}' },
  { rule: 'supabase-token', identifier: 'supabase', pattern: 'sbp_[a-z0-9]{40}' },
  { rule: 'netlify-token', identifier: 'netlify', pattern: 'nfp_[A-Za-z0-9]{36}' },
  { rule: 'render-api-key', identifier: 'render', pattern: 'rnd_[A-Za-z0-9]{32}' },
  { rule: 'hubspot-token', identifier: 'hubspot', pattern: 'pat-na1-[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}' },
  { rule: 'doppler-token', identifier: 'doppler', pattern: 'dp\\.st\\.[a-z0-9_]{8}\\.[A-Za-z0-9]{40}' },
  { rule: 'mailchimp-api-key', identifier: 'mailchimp', pattern: '[0-9a-f]{32}-us[0-9]{1,2}' },
  { rule: 'pinecone-api-key', identifier: 'pinecone', pattern: 'pcsk_[A-Za-z0-9]{6}_[A-Za-z0-9]{50}' },
];

function scannerSamples(): Sample[] {
  return SCANNER_FORMATS.flatMap((format, index) => {
    const secret = sampleSecret(format, index);
    const syntaxes = [0, 1, 2, 3].map((offset) => SYNTAXES[(index * 2 + offset * 5) % SYNTAXES.length]!);
    // Trello's plain keys are told only by the name beside them; the others by their shape.
    if (!format.pattern.startsWith('[')) syntaxes.push(NEUTRAL_SYNTAXES[index % NEUTRAL_SYNTAXES.length]!);
    return syntaxes.map((syntax) => ({ format: format.rule, secret, text: fill(syntax.template, format.identifier, secret), file: syntax.file }));
  });
}

/** Formats whose secret begins with a provider prefix: also plain (low entropy) and under a neutral name. */
function prefixedSamples(format: Format, index: number): Sample[] {
  const prefix = rules.get(format.rule)?.prefix;
  if (!prefix) return [];
  const secret = plainSecret(format.pattern);
  if (!secret.toLowerCase().startsWith(prefix.toLowerCase()) || /[\\"'`\s]/.test(secret)) return [];
  const neutral = NEUTRAL_SYNTAXES[index % NEUTRAL_SYNTAXES.length]!;
  const named = SYNTAXES[index % SYNTAXES.length]!;
  return [
    { format: `${format.rule}-plain`, secret, text: fill(named.template, format.identifier, secret), file: named.file },
    { format: `${format.rule}-plain`, secret, text: fill(neutral.template, format.identifier, secret), file: neutral.file },
    { format: `${format.rule}-unnamed`, secret: sampleSecret(format, index), text: '', file: neutral.file },
  ].map((sample) => (sample.text === '' ? { ...sample, text: fill(neutral.template, format.identifier, sample.secret) } : sample));
}

export function credentialSamples(): Sample[] {
  const samples: Sample[] = [];
  formats.forEach((format, index) => {
    const secret = sampleSecret(format, index);
    for (let offset = 0; offset < SYNTAXES_PER_FORMAT; offset++) {
      const syntax = SYNTAXES[(index + offset * 3) % SYNTAXES.length]!;
      samples.push({ format: format.rule, secret, text: fill(syntax.template, format.identifier, secret), file: syntax.file });
    }
    samples.push(...prefixedSamples(format, index));
  });
  return [...samples, ...scannerSamples(), ...coveSamples()];
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
    `<add key="webpages:Version" value="3.0.0.0" />`,
    `<add key="ClientValidationEnabled" value="true" />`,
    `- name: TOKEN_TTL_SECONDS\n  value: "${Math.floor(nextRandom() * 9000)}"`,
    `{ "name": "api_token", "value": "\${{ secrets.API_TOKEN }}" }`,
    `instance_type = "t1.micro"`,
    `ATTACHMENT_COUNT=${Math.floor(nextRandom() * 90)}`,
    `See the trello board https://trello.com/b/${random(8)}/roadmap for the plan.`,
    `docker pull node:20-alpine@sha256:${hex(64)}`,
    `vcpkg install openssl:x64-linux zlib:x64-linux`,
    `hubspot form id ${uuid()}`,
  ];
}

/**
 * Writes a corpus into a workspace for the route tests: each sample appended to its file, the
 * look-alikes to look-alikes.txt, and `prompted` into AGENTS.md, so they reach the system prompt.
 */
export function writeCorpusWorkspace(workspace: string, samples: readonly Sample[], alikes: readonly string[], prompted: readonly Sample[]): void {
  for (const sample of samples) {
    const path = join(workspace, sample.file);
    mkdirSync(dirname(path), { recursive: true });
    appendFileSync(path, `${sample.text}\n`);
  }
  writeFileSync(join(workspace, 'look-alikes.txt'), `${alikes.join('\n')}\n`);
  writeFileSync(join(workspace, 'AGENTS.md'), `# Rules\nDeploy with these:\n${prompted.map((sample) => sample.text).join('\n')}\n`);
}
