/**
 * The held-out corpus: real example credentials from other scanners' own tests (noseyparker,
 * secretlint, trufflehog, detect-secrets; test/fixtures/secrets/scanner-corpus.json, built by
 * scripts/build-scanner-corpus.mjs), none generated from the regexes Cove redacts with. Each
 * sample is used as its suite wrote it, and its secret again in several of the corpus' syntaxes
 * and file types; the look-alikes are those suites' negative cases plus shapes from real code.
 */
import { readFileSync } from 'node:fs';
import { fill, SYNTAXES, type Sample } from './secret-corpus';

interface Held {
  source: string;
  path: string;
  format: string;
  name: string;
  text: string;
  secret: string;
  /** Only as its suite wrote it: its name is on an earlier line of the text (a list under it, a `<value>` after its `<name>`). */
  asWritten?: true;
}
interface HeldLookAlike {
  source: string;
  path: string;
  format: string;
  text: string;
}
export interface Corpus {
  sources: Record<string, { repo: string; licence: string; commit: string }>;
  samples: Held[];
  lookAlikes: HeldLookAlike[];
}

const corpusFile = (name: string) => JSON.parse(readFileSync(new URL(`../fixtures/secrets/${name}`, import.meta.url), 'utf8')) as Corpus;
/** One example per rule (scanner-corpus.json), and whole files of configuration and code (config-corpus.json, built by scripts/build-config-corpus.mjs). */
const parts = [corpusFile('scanner-corpus.json'), corpusFile('config-corpus.json')];
export const heldOut: Corpus = {
  sources: Object.assign({}, ...parts.map((part) => part.sources)) as Corpus['sources'],
  samples: parts.flatMap((part) => part.samples),
  lookAlikes: parts.flatMap((part) => part.lookAlikes),
};

/** Syntaxes per secret besides its suite's own text. */
const SYNTAXES_PER_SECRET = 3;

/** The provider's word for a syntax's name (`np.github.1` → github, `trufflehog:openai` → openai). */
function identifier(format: string): string {
  const rest = format.split(':')[1] ?? format;
  return (rest.startsWith('np.') ? rest.split('.')[1]! : rest.split('/')[0]!).replace(/[^A-Za-z0-9]/g, '_');
}

/**
 * Connection strings whose suite names the whole string (trufflehog's jdbc, Azure's connection
 * strings and SAS tokens) or its host (noseyparker's postgres and mongodb rules, whose last group
 * is the host): the credential in one is its password, key or signature, and one without holds
 * none (`jdbc:sqlite:/data/test.db`, `jdbc:mysql://host:3306/db`).
 */
const CONNECTION_FORMATS = new Set([
  'trufflehog:jdbc',
  'trufflehog:azureappconfigconnectionstring',
  'trufflehog:azuresastoken',
  'noseyparker:np.postgres.1',
  'noseyparker:np.mongodb.1',
  'noseyparker:np.generic.10',
]);
const CREDENTIAL_PARTS = [/:\/\/[^\s:/@]*:([^\s@/]+)@/, /(?:password|pwd)\s*=\s*([^;&"'\s]+)/i, /\bSecret=([^;"'\s]+)/, /[?&]sig=([^&"'\s]+)/];
function credentialIn(held: Held): string | undefined {
  for (const where of [held.secret, held.text]) {
    for (const part of CREDENTIAL_PARTS) {
      const found = part.exec(where)?.[1];
      if (found) return found;
    }
  }
  return undefined;
}

/**
 * What a suite's rule matched that refers to a secret without holding one: a shell or PowerShell
 * variable (`$ESXipass`), cmd's `%nothing%`, a Ruby interpolation, a constant's name
 * (`SOME_PASSWORD`). A redactor that hid these would hide every `password: $DB_PASS` in code.
 */
const REFERENCE = /^["'\\]*(?:\$\w+|%\w+%|\$\{[^}]*\}|#\{[^}]*\}|[A-Z]+(?:_[A-Z]+)+)["'\\]*\s*$/;

/**
 * The suites' samples, references left out; a connection string by its credential, and only as
 * its suite wrote it (written under a token's name, its password alone would be a word there).
 */
function heldSamples(): (Held & { asWritten?: true })[] {
  return heldOut.samples.flatMap((held) => {
    if (REFERENCE.test(held.secret)) return [];
    if (!CONNECTION_FORMATS.has(held.format)) return [held];
    const secret = credentialIn(held);
    return secret ? [{ ...held, secret, asWritten: true as const }] : [];
  });
}

export function heldOutSamples(): Sample[] {
  const samples: Sample[] = [];
  heldSamples().forEach((held, index) => {
    const file = `held-out/${held.source}.txt`;
    samples.push({ format: held.format, secret: held.secret, text: held.text, file });
    // A secret with blanks, quotes or backslashes (a PEM block, a JSON blob) only goes as written.
    if (held.asWritten || /[\s"'`\\]/.test(held.secret)) return;
    // A password is written under a password's name: a word like `centipede` is a password there,
    // not a token (the syntaxes' names say token).
    const password = /password|passwd|basic ?auth|credential/i.test(held.name);
    for (let offset = 0; offset < SYNTAXES_PER_SECRET; offset++) {
      const syntax = SYNTAXES[(index + offset * 7) % SYNTAXES.length]!;
      const template = password ? syntax.template.replace(/token/g, 'password').replace(/Token/g, 'Password').replace(/TOKEN/g, 'PASSWORD') : syntax.template;
      samples.push({ format: held.format, secret: held.secret, text: fill(template, identifier(held.format), held.secret), file: `held-out/${syntax.file}` });
    }
  });
  return samples;
}

/**
 * The suites' negative cases that are credentials all the same, which a redactor must hide: a
 * rule's negative only because that rule's pattern cannot reach it (noseyparker's own FIXME
 * note on the first), or a test key the same shape as that suite's positive one character
 * shorter or with a `test` tail (secretlint's sk_live_ with 23 A's beside its positive with 24).
 */
const NOT_LOOK_ALIKES: readonly string[] = [
  'aws_secret_key: OOzkR1+hF+1ABCsIFDJMEUtqmtnZ1234567890',
  "    client_credential='5pX8Q~MmTI8OMBJFVqMlFR4DE3Spz6Qm.xO.Gbf-'",
  "    secret_access_key = 'abcdefg12346+FJQCK'",
  '<add key="ClearTextPassword" value="eyJ0eXAiOiAiVENWMiJ9.RkNWLXdXS3M1RVBfencxM4A0WmJzdVlCQzFj.OGY1OWRkNGMtYTUxYS04ZDYwLWFiZGYtZWE5MWFhZWJiODhh" />',
  'mongodb://myDatabaseUser:D1fficultP%40ssw0rd@%2Ftmp%2Fmongodb-27017.sock',
  ' --set global.licenseKey=a1b2c3d4e5f6g7h8i9j0k1l2m3n4o5p6q7r8NRAL `',
  ' --set newrelic-pixie.apiKey=px-api-a1b2c3d4-e5f6-g7h8-i8j0-k0l3m3n4o0p5 `',
  ' --set pixie-chart.deployKey=px-dep-d4c3b2a1-f6e5-h8g7-j1i8-p5o0n5m3l2k1 `',
  '-export NPM_TOKEN="007e65c7-635d-4d54-8294-f360cb8e2e3f"',
  'TWITCH_STREAM_KEY = "126031192_IgvUabrXbWSihj2ENnA59G1F8"',
  '<add key="ConnectionString_B2B" value="Server=awsbman-t,1433;Database=B2B;User ID=b2buser;Password=#gets0m3;Trusted_Connection=False" />',
  'sk_live_AAAAAAAAAAAAAAAAAAAAAAA',
  'sk_test_BBBBBBBBBBBBBBBBBBBBBBB',
  'gsk_aBcDeFgHiJkLmNoPqRsT1234567890abcdefghijklmnopqrstuvWXYZ',
  'sk-sUeBP9asw6GiYHXqtg70abcdefghJuLwJFco90bOpU0Ntest',
  // noseyparker's own positive example holds the same password quoted.
  'password = super$ecret',
  // whispers keeps these as compliant: a password all the same (a weak one), and an unquoted
  // value that is a variable in Python but the password itself in an .ini or .env file, which
  // output does not tell apart.
  '        Database=webstore;Server=localhost;Uid=root;Password=admin;',
  'password = asdf',
];
/** Those whose start is enough to name them (the long OpenAI test keys ending in `test`). */
const NOT_LOOK_ALIKE_STARTS = ['sk-proj-f5-UKZNwZTgzRb8', 'sk-svcacct-f5-UKZNwZTgzRb8', 'sk-admin-f5-UKZNwZTgzRb8'];
const isLookAlike = (text: string) => !NOT_LOOK_ALIKES.includes(text.trimEnd()) && !NOT_LOOK_ALIKE_STARTS.some((start) => text.startsWith(start));

/** Shapes from real code that look random and are not secrets. */
const FROM_REAL_CODE: readonly string[] = [
  '    "node_modules/react": {\n      "version": "18.2.0",\n      "resolved": "https://registry.npmjs.org/react/-/react-18.2.0.tgz",\n      "integrity": "sha512-/3IjMdb2L9QbBdWiW5e3P2/npwMBaU9mHCSCUzNln0ZCYbcfTsGbTJrU/kGemdH2IWmB2ioZ+zkxtmq6g09fGQ==",',
  'lodash@^4.17.21:\n  version "4.17.21"\n  resolved "https://registry.yarnpkg.com/lodash/-/lodash-4.17.21.tgz#679591c564c3bffaae8454cf0b3df370c3d6911c"\n  integrity sha512-v2kDEe57lecTulaDIuNTPy3Ry4gLGJ6Z1O3vE1krgXZNrsQ+LFTGHVxVjcXPs17LhbZVGedAJv8XZ1tvj5FvSg==',
  'name = "serde"\nversion = "1.0.193"\nsource = "registry+https://github.com/rust-lang/crates.io-index"\nchecksum = "25dd9975e68d0cb5aa1120c288333fc98731bd1dd12f561e468ea4728c042b89"',
  'golang.org/x/crypto v0.17.0 h1:r8bRNjWL3GshPW3gkd+RpvzWrZAwPS49OmTGZ/uhM4k=\ngolang.org/x/crypto v0.17.0/go.mod h1:gCAAfMLgwOJRpTjQ2zCCt2OcSfYMTeZVSRtQlPC7Nq4=',
  'commit 8f14e45fceea167a5a36dedd4bea2543a1d0c1b7\nAuthor: Ada Lovelace <ada@example.com>\nDate:   Tue Oct 3 10:22:31 2023 +0200',
  'Merge: 1a2b3c4 5d6e7f8',
  '<img alt="logo" src="data:image/png;base64,iVBORw0KGgoAAAANSUhEUgAAABAAAAAQCAYAAAAf8/9hAAAABHNCSVQICAgIfAhkiAAAAAlwSFlzAAAOxAAADsQBlSsOGwAAABl0RVh0U29mdHdhcmUAd3d3Lmlua3NjYXBlLm9yZ5vuPBoAAAE=" />',
  'FROM node:20-alpine@sha256:2d07db07a2df6830718ae2a47db6fedce6745f5bcd174c398f2acdda90a11c03',
  '"id": "3f2504e0-4f89-41d3-9a0c-0305e82c3301",',
  'X-Request-Id: 9b2c7f3e-1d4a-4e5b-8c6d-7e8f9a0b1c2d',
  'sha256sum: e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855  empty.txt',
  'integrity="sha384-oqVuAfXRKap7fdgcCY5uykM6+R9GqQ8K/uxy9rx7HNQlGYl1kPzQho1wx4JwY8wC" crossorigin="anonymous"',
  '  "packageManager": "pnpm@8.15.1+sha256.245fe901f8e7fa8782d7f17d32b6a83995e2ae03984cb5b62b8949bfdc27c7b5"',
  'ssh-ed25519 AAAAC3NzaC1lZDI1NTE5AAAAIOMqqnkVzrm0SdG6UOoqKLsabgH5C9okWi0dh2l9GKJl ada@laptop',
  'ETag: "33a64df551425fcc55e4d42a148795d9f25f89d4"',
  'pip install requests==2.31.0 --hash=sha256:58cd2187c01e70e6e26505bca751777aa9f2ee0b7f4300988b709f44e013003f',
];

export function heldOutLookAlikes(): { origin: string; text: string }[] {
  return [
    ...heldOut.lookAlikes.filter((alike) => isLookAlike(alike.text)).map((alike) => ({ origin: `${alike.source} ${alike.path} (${alike.format})`, text: alike.text })),
    ...FROM_REAL_CODE.map((text) => ({ origin: 'real code', text })),
  ];
}
