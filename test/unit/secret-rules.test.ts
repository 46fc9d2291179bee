/**
 * The pieces behind the rule set: the Go-to-JavaScript regex translation, the loaded gitleaks
 * rules, the keyword scanner, and Cove's own patterns that have no corpus entry of their own.
 */
import { test, describe } from 'node:test';
import assert from 'node:assert/strict';
import { SecretSet } from '../../electron/core/secrets';
import { loadGitleaksRules, shannonEntropy } from '../../electron/core/secrets/gitleaks-rules';
import { KeywordScanner } from '../../electron/core/secrets/keyword-scan';
import { isFixedShape } from '../../electron/core/secrets/rule-prefix';
import { compileRe2, re2ToJs, RegexTranslationError } from '../../electron/core/secrets/re2-to-js';

describe('Go regex syntax in JavaScript', () => {
  test('(?i) from the middle on, to the end of its group only', () => {
    const regex = compileRe2('\\b(p8e-(?i)[a-z0-9]{4})x');
    assert.ok(regex.test('p8e-AbC1x'));
    assert.ok(!regex.test('P8E-abc1x'), 'before (?i) case still counts');
    assert.ok(!compileRe2('(a(?i)b)c').test('aBC'), 'c after the group is case-sensitive again');
    assert.ok(compileRe2('(a(?i)b)c').test('aBc'));
  });

  test('(?i:…), (?-i:…) and (?s:…)', () => {
    assert.ok(compileRe2('x(?i:ab)y').test('xABy'));
    assert.ok(!compileRe2('(?i)x(?-i:ab)y').test('XABY'));
    assert.ok(compileRe2('(?i)x(?-i:ab)y').test('XabY'));
    assert.ok(compileRe2('a(?s:.)b').test('a\nb'));
    assert.ok(!compileRe2('a.b').test('a\nb'));
  });

  test('POSIX classes, \\z, (?P<name>…), a trailing - in a class under (?i), literal braces', () => {
    assert.ok(compileRe2('^[[:alnum:]]{3}$').test('a1Z'));
    assert.ok(compileRe2('ab\\z').test('ab') && !compileRe2('ab\\z').test('ab\n'));
    assert.equal(compileRe2('(?P<word>x+)').exec('xx')?.groups?.word, 'xx');
    assert.ok(compileRe2('(?i)^[a-z_-]+$').test('A-b_C'));
    assert.ok(compileRe2('^\\${{x}}$').test('${{x}}'));
  });

  test('unknown syntax is refused by name', () => {
    assert.throws(() => re2ToJs('(?U)a+'), RegexTranslationError);
    assert.throws(() => re2ToJs('[[:nonsense:]]'), /unknown POSIX class/);
  });

  test('every vendored gitleaks rule loads, with its keywords and allowlists', () => {
    const loaded = loadGitleaksRules();
    assert.deepEqual(
      loaded.skipped.filter((rule) => !rule.id.startsWith('kingfisher.')),
      [],
    );
    assert.ok(loaded.rules.length >= 200, `${loaded.rules.length} rules`);
    assert.ok(loaded.rules.some((rule) => rule.id === 'generic-api-key' && rule.sticky && rule.allowlists.length >= 2));
    assert.ok(loaded.global.length > 0);
  });

  test('Shannon entropy as gitleaks computes it', () => {
    assert.equal(shannonEntropy('aaaa'), 0);
    assert.equal(shannonEntropy('abcd'), 2);
  });
});

describe('the keyword scanner', () => {
  test('every occurrence, overlapping and in any ASCII case, with its start', () => {
    const scanner = new KeywordScanner(['sk-', 'sk-ant-', 'ant', 'key']);
    const hits: [string, number][] = [];
    const words = ['sk-', 'sk-ant-', 'ant', 'key'];
    scanner.scan('My SK-ANT-x and a KEY, é key', (keyword, start) => hits.push([words[keyword]!, start]));
    assert.deepEqual(
      hits.sort((a, b) => a[1] - b[1] || a[0].localeCompare(b[0])),
      [
        ['sk-', 3],
        ['sk-ant-', 3],
        ['ant', 6],
        ['key', 18],
        ['key', 25],
      ],
    );
  });
});

describe("Cove's own patterns without a corpus entry", () => {
  const secrets = new SecretSet();
  test('--password and --token flags, but not --password-file or a placeholder', () => {
    for (const text of ['mysql --password=S3cr3tPw9x app', 'deploy --token q8Zr2LmP0x7K', "psql --password 'Tr0ub4dor&3'"]) {
      assert.match(secrets.redact(text).text, /\[REDACTED:/, text);
    }
    for (const text of ['pg_dump --password-file /run/secrets/db', 'login --token $TOKEN', 'run --password <password>']) {
      assert.equal(secrets.redact(text).text, text, text);
    }
  });

  test('provider prefixes gitleaks has no bare rule for: Groq, Tailscale, Google OAuth, Meta, Replicate, xAI, NVIDIA, Sentry, Bedrock', () => {
    const body = (length: number) => Array.from({ length }, (_, index) => 'aZ3kQ9xW2mP7'[index % 12]).join('');
    const tokens = [
      `gsk_${body(52)}`,
      `tskey-auth-${body(12)}-${body(30)}`,
      `ya29.${body(60)}`,
      `EAACEdEose0cBA${body(40)}`,
      `r8_${body(37)}`,
      `xai-${body(80)}`,
      `nvapi-${body(64)}`,
      `sntrys_${body(90)}`,
      `bedrock-api-key-${body(120)}`,
    ];
    for (const token of tokens) assert.equal(secrets.redact(`got ${token} ok`).text, 'got [REDACTED:provider-token] ok', token);
    assert.equal(secrets.redact('EAA is an abbreviation; r8_ is a prefix').text, 'EAA is an abbreviation; r8_ is a prefix');
  });

  test('a private key seen whole once is remembered: a body line shown alone later is redacted', () => {
    const lines = Array.from({ length: 4 }, (_, row) => Array.from({ length: 64 }, (_, index) => 'Qw3Er5Ty7Ui9Op1As'[(index * 7 + row) % 17]).join(''));
    const learning = new SecretSet();
    assert.equal(learning.redact(lines[2]!).text, lines[2], 'unknown before');
    learning.redact(`-----BEGIN PRIVATE KEY-----\n${lines.join('\n')}\n-----END PRIVATE KEY-----`);
    assert.equal(learning.redact(`@@ -3,2 +3,2 @@\n ${lines[2]}`).text, '@@ -3,2 +3,2 @@\n [REDACTED:private-key]');
  });

  test('a URL password with @ in it is redacted whole, user and host kept', () => {
    const { text } = secrets.redact('redis://cache:p@ss@w0rd@redis.internal:6379/0');
    assert.equal(text, 'redis://cache:[REDACTED:url-password]@redis.internal:6379/0');
  });
});

describe('a provider name before a value of its exact shape', () => {
  const secrets = new SecretSet();

  test('fixed shapes are told from open ones', () => {
    assert.ok(isFixedShape('[a-z0-9]{14}'));
    assert.ok(isFixedShape('[a-f0-9]{8}:[a-f0-9]{8}'));
    assert.ok(isFixedShape('sl\\.[a-z0-9\\-=_]{135}'));
    assert.ok(!isFixedShape('[a-z0-9=_\\-]{40,46}'), 'a range of lengths');
    assert.ok(!isFixedShape('(?:squ_|sqp_)?[a-z0-9]{40}'), 'an optional part');
    assert.ok(!isFixedShape('[\\w.=-]{10,150}|[a-z0-9][a-z0-9+/]{11,}={0,3}'));
  });

  // Seeds 98, 108 and 124 of the corpus: a letters-only LinkedIn body, low-entropy sidekiq values.
  for (const [name, text, secret] of [
    ['a TOML section named for the provider', '[linkedin]\ntoken = "gmooemiavbbyle"', 'gmooemiavbbyle'],
    ['the name field of a name/value pair', '<add key="linkedinToken" value="gmooemiavbbyle" />', 'gmooemiavbbyle'],
    ['a TOML section with a low-entropy hex:hex value', '[BUNDLE_ENTERPRISE__CONTRIBSYS__COM]\ntoken = "7bd6e7be:88bbb8cc"', '7bd6e7be:88bbb8cc'],
    ['the provider name right before a plain body', 'linkedin_client_id = "aaaabbbbccccdd"', 'aaaabbbbccccdd'],
  ] as const) {
    test(`redacted: ${name}`, () => {
      const redacted = secrets.redact(text).text;
      assert.ok(!redacted.includes(secret), redacted);
      assert.match(redacted, /\[REDACTED:linkedin-client-id\]|\[REDACTED:sidekiq-secret\]/);
    });
  }

  test('the same values without the provider name, or of another shape, stay', () => {
    for (const text of ['[profile]\ntoken = "gmooemiavbbyle"', '[linkedin]\ntitle = "senior engineer"', '[linkedin]\nurl = "https://linkedin.com/in/someone"']) {
      assert.equal(secrets.redact(text).text, text);
    }
  });
});

describe('the shortcuts before a rule runs', () => {
  const secrets = new SecretSet();
  const slow = new SecretSet({ exhaustive: true });

  // Where a necessary-condition check could be too strict: long blanks, a value opening with a
  // character the gap also holds, a flag in a run of name characters, a keyword far into a name.
  for (const text of [
    'password =              "Xk8vQ2mP9zLw4"',
    'db_token:=   [ "Xk8vQ2mP9zLw4"',
    'API_KEY="=Xk8vQ2mP9zLw4aa"',
    'mysql --password=S3cr3tPw9x app',
    'deploy_service_account_private_key_id_for_prod_token = "k8ZrT2mQ9xLp4VwB"',
    'curl -H "Authorization: Bearer eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiIxMjM0NTY3ODkwIn0.dozjgNryP4J3jVmNHl0w5N_XgL0n3I9PlFUP0THsR8U"',
  ]) {
    test(`redacted as the exhaustive path does: ${text.slice(0, 40)}`, () => {
      const redacted = secrets.redact(text).text;
      assert.match(redacted, /\[REDACTED:/);
      assert.equal(redacted.replace(/\[REDACTED:[a-z0-9-]+\]/g, '[R]'), slow.redact(text).text.replace(/\[REDACTED:[a-z0-9-]+\]/g, '[R]'));
    });
  }

  test('a keyword with no assignment after it, or too short a value, is not tried', () => {
    for (const text of ['const token = await client.getAccessToken(user3);', 'function key(value: string): Result<Secret> {', 'see /api/items/42 and the auth section']) {
      assert.equal(secrets.redact(text).text, text);
    }
  });
});
