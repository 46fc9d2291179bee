/**
 * The rules the held-out corpus (other scanners' test credentials) called for, each with the
 * shapes it must hide and the look-alikes it must leave: passwords that are words, secrets in
 * elements named for them, bare `key` assignments, URL passwords that are placeholders; and a
 * marker that a second pass (the routes redact again) must leave whole.
 */
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { SecretSet } from '../../electron/core/secrets';
import { startsAtKeyword } from '../../electron/core/secrets/keyword-anchors';
import { BUILT_IN_PATTERNS } from '../../electron/core/secrets/patterns';
import { hides, keeps, secrets } from './helpers/redaction';

describe('password-assignment', () => {
  test('a word assigned to a password is hidden, quoted or to the end of the line', () => {
    hides("password = 'open sesame'", 'open sesame');
    hides('AUTO_SESSION_PASSWORD=mypassword', 'mypassword');
    hides('db_pass: "Prestigitariu$"', 'Prestigitariu$');
    hides('<add key="x" value="y" /> pwd = centipede', 'centipede');
    hides('$genericPassword .= "super$ecret";', 'super$ecret');
    hides('if username == "adM1n" and password == "123P4ssW0rd@@":', '123P4ssW0rd@@');
  });
  test('types, references, routes, selectors, placeholders and filler are left', () => {
    for (const text of [
      'password: string;',
      'password: string',
      'if (password !== confirmPassword) return;',
      'password = env.PERKEEP_TEST_PASSWORD',
      'this.addPassword = "#add-password";',
      `put '/forgot-password' => "cms/sites/passwords#update"`,
      'IAMUserChangePassword = "arn:aws:iam::aws:policy/IAMUserChangePassword"',
      'password = "${DB_PASSWORD}"',
      'password=abababababababababababab',
      'password: null',
    ])
      keeps(text);
  });
});

describe('secret-element', () => {
  test("Jenkins' credentials and elements named for a secret are hidden, blanks and braces and all", () => {
    hides('<secret>{abstract AQAAABAAA 5422358j60yxo9nc0dbpxby602tsxd6j}</secret>', '5422358j60yxo9nc0dbpxby602tsxd6j');
    hides('<apiToken>\n    9f8e7d6c5b4a39281706f5e4d3c2b1a0\n</apiToken>', '9f8e7d6c5b4a39281706f5e4d3c2b1a0');
  });
  test('an element holding words is left', () => {
    keeps('<secret>not set</secret>');
    keeps('<token>${env.TOKEN}</token>');
  });
});

describe('key-assignment', () => {
  test('a long random value assigned to a bare key is hidden', () => {
    hides('[DEBUG] Using aeroworkflow KEY=VmFYK7WG3CkgVmTl:c*X', 'VmFYK7WG3CkgVmTl');
    hides('Key = yb+Ygm82FfUworm2exB+Uk255p0uQKmmfx4ut1KfsZ3YI3Gp2x', 'yb+Ygm82FfUworm2exB+Uk255p0uQ');
  });
  test('names, prefixes, versions and public keys are left', () => {
    keeps('primary_key = ["id", "tenant_id"]');
    keeps('cache_key_prefix: "v2"');
    keeps('sort_key: created_at_descending_order');
    keeps('DOTENV_PUBLIC_KEY="037cfbfc90234cfdab7eb54050566293789efaa1a35dc420749662db400dc9c4b2"');
  });
});

describe('url-password placeholders', () => {
  test('a real password in a URL is hidden, including a word one', () => {
    hides('mongodb://myDatabaseUser:D1fficult@localhost', 'D1fficult');
    hides('postgresql://user:secret@localhost:5433', 'secret@');
  });
  test("docs' placeholders and a password equal to its user are left", () => {
    for (const text of [
      'postgres://user:password@localhost/mydb',
      'https://{USER}:{PASS}@template.example.com',
      'mysql://admin:REPLACE_WITH_PASSWORD@mysql.server.com:3306/database',
      'https://testuser:xxxx@demo.com',
      'https://user:1111@service.com/api',
      'mongodb://mongodb:mongodb@localhost:27017/database',
    ])
      keeps(text);
  });
});

describe('an earlier redaction passing again', () => {
  test("a secret file's value inside a marker's label leaves the marker whole", async () => {
    const root = mkdtempSync(join(tmpdir(), 'cove-marker-'));
    try {
      writeFileSync(join(root, '.env'), 'DB_PASSWORD=service-account\n');
      const workspace = await SecretSet.fromWorkspace([root], { env: {} });
      const redacted = workspace.redact('was [REDACTED:1password-service-account-token], now service-account').text;
      assert.equal(redacted, 'was [REDACTED:1password-service-account-token], now [REDACTED:secret-file]');
    } finally {
      rmSync(root, { recursive: true, force: true });
    }
  });
});

describe('password-hash', () => {
  test('crypt(3) and Kerberos hashes are hidden by their $id$', () => {
    hides('admin:$2a$05$/VT2Xs2dMd8GJKfrXhjYP.DkTjOVrY12yDN7/6I8ZV0q/1lEohLru:1001', '/VT2Xs2dMd8GJKfrXhjYP');
    hides('root:$6$qoE2letU$wWPRl.PVczjzeMVgjiA8LLy2nOyZbf7Amj3qLIL978o18gbMySdKZ7uepq9tmMQXxyTIrS12Pln.2Q/6Xscao0:19000', 'wWPRl.PVczjzeMVgjiA8');
    hides('$1$OKgLCmVl$d02jECa4DXn/oXX0R.MoQ/', 'd02jECa4DXn/oXX0R');
    hides('$krb5asrep$23$user@domain.com:3e156ada591263b8aab0965f5aebd837$007497cb51b6c8116d6407a782ea0e1c5402b17db7afa6b05a6d30ed164a9933c754d720e2', '007497cb51b6c8116d64');
  });
  test("Apache's .htpasswd and LDAP hashes are hidden by their scheme: $apr1$, {SHA}, {SSHA}", () => {
    hides('deploy:$apr1$Qw8.xZ1p$7rTq2WvLk9YbN3mHc5sDf/', '7rTq2WvLk9YbN3mHc5sDf');
    hides('deploy:$apr1$Qw8.xZ1p$7rTq2WvLk9YbN3mHc5sDf0extra', '7rTq2WvLk9YbN3mHc5sDf0extra');
    hides('ops:{SHA}kd8X2mPq7Lr4Tn9Wc3Yb6Zf1Hs0=', 'kd8X2mPq7Lr4Tn9Wc3Yb6Zf1Hs0');
    hides('userPassword: {SSHA}Rk2v9QmX4pLz7Tc1Nw8Hb5Yd3Gf6Js0Ea', 'Rk2v9QmX4pLz7Tc1Nw8Hb5Yd3Gf6Js0Ea');
  });
  test('the schemes named alone, or with a short body, are left', () => {
    keeps('htpasswd -m writes $apr1$ hashes; -s writes {SHA} ones');
    keeps('ldap scheme {SSHA}abc123 is too short to be a hash');
  });
  test('shell positional parameters and prices are left', () => {
    keeps('echo $1$2 and $5$6');
    keeps('the price went from $1$ to $2$');
  });
});

describe('a secret recurring near where it was found', () => {
  test('its repeats are hidden where its context is not', () => {
    const redacted = secrets.redact("iexapis token = 'sk_d21e2be3622049c7809f95cc02313821' | 'sk_d21e2be3622049c7809f95cc02313821'").text;
    assert.equal(redacted, "iexapis token = '[REDACTED:secret-assignment]' | '[REDACTED:secret-assignment]'");
    hides('API_TOKEN=Zq8rT5wL2mN9xK4vB7cD1fG3\n[debug] calling with Zq8rT5wL2mN9xK4vB7cD1fG3', 'Zq8rT5wL2mN9xK4vB7cD1fG3');
  });
  test('a short secret is not searched for again (a 6-letter value would hit words)', () => {
    keeps('mode = "direct" and the direct path');
  });
});

describe('secret-mention: a name and a value with no assignment between', () => {
  test('is tried once where its name starts, not over every line holding `key`', () => {
    const mention = BUILT_IN_PATTERNS.find((pattern) => pattern.name === 'secret-mention')!;
    assert.ok(startsAtKeyword(mention.regex.source, mention.hints ?? []));
  });
  test('a quoted value after a blank, a dash or a bar, and a long random one after `is` or a blank, are hidden', () => {
    hides("twitch token - 'k0lj2mwl8n3ztmrivlpbc7obk914sj'", 'k0lj2mwl8n3ztmrivlpbc7obk914sj');
    hides('sanity auth token |skCrESWvpXysjmfakeaMGdMecRnw2mTVURqlVABArKApL1j4SLUhF', 'skCrESWvpXysjmfakeaMGdMecRnw2mTVURqlVABArKApL1j4SLUhF');
    hides('Your API2CART key is 2afddb813193eb9d3b5bd99bf5d834cd, which you need', '2afddb813193eb9d3b5bd99bf5d834cd');
    hides('[DEBUG] Using token spu-3f10194ca38240ddb880bab79492384b', 'spu-3f10194ca38240ddb880bab79492384b');
  });
  test('words after a name are left: prose, slugs, hyphenated names, a label that closes its string', () => {
    for (const text of [
      'the key to understanding this is patience and practice',
      'https://crypto.stackexchange.com/questions/15727/what-are-the-key-differences-between-sha3-and-keccak',
      'algorithm.mode === "key-wrapping2024-with-padding"',
      "'token-counting-2024-11-01'",
      'usernameLabel:"Username or email:",passwordLabel:"Password:","rememberMe":"Remember me:"',
    ])
      keeps(text);
  });
});

describe('what a secret name is given', () => {
  test('a quoted value is all of what is between its quotes', () => {
    hides('DJANGO_TOKEN = "django-insecure-_du9e^cmago!%(^+=gr@cu@v9-v7ulhbk2s3!w&39w4+n3*k*$"', '(^+=gr@cu@v9-v7ulhbk2s3');
  });
  test("a provider's prefix before a long body is a test key, even of one repeated character", () => {
    hides('PGANALYZE_TOKEN=pgar_aaaaaaaaaaaaaaaaaaaaaaaaaaa', 'pgar_aaaaaaaaaaaaaaaaaaaaaaaaaaa');
    hides('vault_token: "hvb.bbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbb"', 'bbbbbbbbbbbbbbbbbbbb');
  });
  test('an element or a name/value pair named for a password holds one whatever its shape', () => {
    hides('<genericPassword>\n    super$ecret\n</genericPassword>', 'super$ecret');
    hides('<add key="reactappPassword" value="whiteduke" />', 'whiteduke');
  });
  test("RFC 6750's short bearer token is hidden", () => hides('Authorization: Bearer mF_9.B5f-4.1JqM', 'mF_9.B5f-4.1JqM'));
  test('names in code, paths, messages and words that hold `pass` are left', () => {
    for (const text of [
      '"minipass": "^7.1.2",',
      '"bypass": "always-on-weekends"',
      '"pass": "要素にはラベルがあります",',
      '"pass": "Abstrakte roller er ikke brugt",',
      'export const TOKEN_ENDPOINT = "/v1/oauth/token";',
      '"/en/enterprise/3.0/creating-a-strong-password":"/en/enterprise-server@3.0/auth"',
      'exports.isNotSemicolonToken = exports.isNotOpeningParenToken = void 0;',
      "progressToken: 'progress-token-123',",
    ])
      keeps(text);
  });
});

describe('a quoted value escaped inside a JSON string', () => {
  test('is hidden like the unescaped one', () => {
    hides(String.raw`{"file": "$tavilyToken .= \"tvly-xxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxx\";"}`, 'tvly-xxxxxxxxxxxxxxxx');
    hides(String.raw`"twitch token - \'k0lj2mwl8n3ztmrivlpbc7obk914sj\'"`, 'k0lj2mwl8n3ztmrivlpbc7obk914sj');
  });
  test('a quoted value holding backslashes after a backtick is hidden whole', () => {
    hides('"db_password": "`Tr7~qP^\\\\Lm2vX9#kW",', 'Tr7~qP^\\\\Lm2vX9#kW');
    hides('"api_token": "`Hx4pN8\\zQ2wL6vR0",', 'Hx4pN8\\zQ2wL6vR0');
    hides("password: '`-7uYt^\\Gh3Kp0Lz'", '-7uYt^\\Gh3Kp0Lz');
  });
});

describe('real files that hold no secret', () => {
  test("this project's lock file and axe-core's message catalogues pass untouched", () => {
    // The lock file names `minipass`, and the catalogues give `"pass"` its messages in 15
    // languages: each was redacted hundreds of times before the password rule knew a word.
    const root = new URL('../../', import.meta.url);
    const files = ['package-lock.json', ...['ja', 'da', 'de', 'zh_CN'].map((lang) => `node_modules/axe-core/locales/${lang}.json`)];
    for (const file of files) assert.equal(secrets.redact(readFileSync(new URL(file, root), 'utf8')).count, 0, file);
  });
});

describe('values that end where their syntax ends', () => {
  test("a .env value to the end of its line, a pair's quoted value whole, a connection string's password to its next field", () => {
    hides('D7NETWORK_TOKEN=u@D7GXt)t>8d(LtH^(lvZ<g=', 't)t>8d(LtH^(lvZ');
    hides('<add key="djangoToken" value="django-insecure-_du9e^cmago!%(^+=gr@cu@v9-v7ulhbk2s3" />', '(^+=gr@cu@v9-v7ulhbk2s3');
    hides('jdbc:sqlserver://x.x.x.x:1433;databaseName=MY-DB;user=MY-USER;password=MY-PASSWORD;encrypt=false', 'MY-PASSWORD');
  });
  test('short and digit-only tokens, and a test key whose body comes in groups', () => {
    hides('MOCKAROO_TOKEN=mlm9iqkm', 'mlm9iqkm');
    hides("vbout_token = '9734741337193905126710251'", '9734741337193905126710251');
    hides('tailscale_token: "tskey-future-KKKKKKKKKKKK-LLLLLLLLLLLLLLLLLLLLLLLL"', 'LLLLLLLLLLLLLLLLLLLLLLLL');
  });
  test('code after an assignment with blanks is left', () => {
    for (const text of ['var token = this.readToken(1, state);', 'const secret = crypto.randomBytes(32);', 'password=input.value;']) keeps(text);
  });
});

describe("gitleaks' rules that keep their name's case", () => {
  test('a name inside a camelCase word (`getSymbol`, `sumOf`) is no context for the next value of the rule’s shape', () => {
    keeps('x6=["getSymbolAtLocation","getCompletionsAtPosition"]');
    keeps('sumOfExposures = 3Kof2VffNQ0QgYIhXUPJosVlCaQKm2hfpWE6F1fT9YGY74blQBIPsrkCcf1TwKE5;');
  });
  test('the name written as a name still is', () => {
    hides('sumo_token = 3Kof2VffNQ0QgYIhXUPJosVlCaQKm2hfpWE6F1fT9YGY74blQBIPsrkCcf1TwKE5;', '3Kof2VffNQ0QgYIhXUPJ');
    hides('ETSY_KEY = "q8w7e6r5t4y3u2i1o9p0a8s7"', 'q8w7e6r5t4y3u2i1o9p0a8s7');
  });
});

describe("shapes gitleaks' own suite keeps as negatives", () => {
  test('curl -u with what docs write in a password’s place is left; a password is hidden', () => {
    keeps('curl -u <login:secret> https://example.org/v1/jobs');
    keeps('curl --user admin:[YOUR_PASSWORD] http://[HOST]:8080/');
    keeps('curl --user "aaa:bbb" https://example.org');
    hides('curl -u deploy:Wq8#nT4vLz2p https://example.org', 'Wq8#nT4vLz2p');
  });
  test('a Slack token holds numbers; `xoxo-` in a file name is a word', () => {
    keeps('see /img/2019/02-xoxo-festival-poster.png');
    hides('SLACK=xoxp-2718281828-31415926535-aBcDeFgHiJkLmNoPqRsT', 'xoxp-2718281828-31415926535');
  });
  test('a PEM block with no key in it is an example of the format; one with a body is a key', () => {
    keeps('key.pem = `-----BEGIN PRIVATE KEY-----\\n${key.toString("base64")}\\n-----END PRIVATE KEY-----`;');
    keeps('PRIVATE_KEY="-----BEGIN RSA PRIVATE KEY-----\n...\n-----END RSA PRIVATE KEY-----"');
    hides('-----BEGIN EC PRIVATE KEY-----\nMHcCAQEEIGlRWx9VdH3zQ2pN8tK5bY7cR4eW1\n-----END EC PRIVATE KEY-----', 'MHcCAQEEIGlRWx9VdH3zQ2pN8tK5bY7cR4eW1');
  });
  test("a value gitleaks' rule of the same name lists as published (Google's keys in its own apps) is left", () => {
    keeps('const firebase = ["AIzaSyB8qGxt4ec15vitgn44duC5ucxaOi4FmqE"];');
    hides('GOOGLE_MAPS=AIzaSyC4q8Wm2Lx9Tn3Vb7Rk1Zp6Hd5Jf0Gs2Qe', 'AIzaSyC4q8Wm2Lx9Tn3Vb7Rk1Zp6Hd5Jf0Gs2Qe');
  });
});

describe("Kingfisher's case-blind rules keep their prefix's case", () => {
  test('a prefix in the other case is a constant or a label (`HF_…`, `GHP_…`)', () => {
    keeps("subdirs = glob('HF_ComputeServicesBuildTimeAbaqusSolv.HF*')");
    keeps('LABEL: GHP_QWERTYUIOPASDFGHJKLZXCVBNMQWERTYUIOP');
  });
  test('the prefix as issued is still a token', () => {
    hides('print(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)', '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');
  });
});

describe('names that hold no secret though a secret’s word is in them', () => {
  test('what a secret is called or where it is, and the tokens a page prints for every visitor', () => {
    keeps('VAULT_SECRET_NAME = "PROD-DB-2-PASSWORD"');
    keeps('auth.token.url=login7.internal.f4ke.net:8443');
    keeps('<meta name="csrf-token" content="q8R2nLx7Kp4vT9mZ3wY6bH1cF5jD0sG8aE2uI7oP=">');
    keeps('csrf_token = "Wm3pQ9vL2xK7tR5nB8cY1zH4"');
    keeps('<input type="hidden" name="authenticity_token" value="Hx4pN8zQ2wL6vR0kT5mB9cJ3yF7dG1sA">');
    keeps('publicToken: "Pk7Rm2Wq9Lx4Tz8Nv3Bc6Hy1Jd5Gs0Fa"');
  });
  test('a name that only begins with such a word is still a secret’s', () => {
    hides('SECRET_NAMESPACE_KEY=Zq8rT5wL2mN9xK4vB7cD1fG3', 'Zq8rT5wL2mN9xK4vB7cD1fG3');
    hides('API_TOKEN_PROD = "Hx4pN8zQ2wL6vR0kT5mB9cJ3"', 'Hx4pN8zQ2wL6vR0kT5mB9cJ3');
  });
});

describe('names in code given to a secret’s name are no secret (node_modules’ false alarms)', () => {
  test('identifiers made of words, acronyms, a bundler’s `$1`, a module before a dot, hyphened words', () => {
    keeps('exports.isXMLToken = isXMLToken;');
    keeps('type QuestionDotToken = QuestionDotToken$2;');
    keeps('readonly privateKey: pkijs.PrivateKeyInfo;');
    keeps('privateKey: NonSharedBuffer;');
    keeps("const SAME_ORIGIN_CREDENTIALS = 'same-origin-credentials'");
    keeps("{ key: 'dispatcher', converter: webidl.converters.any }");
  });
  test('a draw of letters and digits, and a word with a number (how people make passwords), are still secrets', () => {
    hides('API_TOKEN = ZHBejQShHJLVNWxcqyaGVfyC', 'ZHBejQShHJLVNWxcqyaGVfyC');
    hides('secretarySecret: "summer2031"', 'summer2031');
  });
  test("a regular expression's source, an AWS signature's credential scope, a password's form field, a CSS selector, a binary type", () => {
    keeps('const SECRET_CHARS = "[A-Za-z0-9!#%]+"');
    keeps("Authorization: 'AWS4-HMAC-SHA256 Credential=AKIDEXAMPLE/20150830/us-east-1/iam/aws4_request, SignedHeaders=host'");
    keeps('chromium --password-store="gnome-libsecret"');
    keeps('const inputs = { text: "[type=text]", password: "[type=password]" };');
    keeps('export function derive(password: Uint8Array, salt: Uint8Array): Uint8Array;');
  });
});

describe("a long secret's copies that differ after their head", () => {
  test('cut short, ending otherwise, or glued to the word before: hidden near the secret', () => {
    const key = 'SG.Qw8Er7Ty6Ui5Op4As3Df2G.h1Jk0Lz9Xc8Vb7Nm6Qw5Er4Ty3Ui2Op1As0Df9Gh8Jk7Lz6Xc5Vb4Nm3Qw2Er1';
    const redacted = secrets.redact(`SENDGRID_API_KEY=${key}\nlogged: abc${key.slice(0, 40)}\nold: ${key.slice(0, 50)}-v1\n`).text;
    for (const piece of [key.slice(0, 24), key.slice(24, 40), key.slice(40, 50)]) assert.ok(!redacted.includes(piece), `${piece} in ${redacted}`);
  });
  test('a short secret, or another token that shares fewer than 24 characters, is left', () => {
    keeps('build-2024-01-15-release-candidate-7 and build-2024-01-15-release-notes');
  });
});
