/**
 * A provider's word and its value bare on a line (bare-values.ts), as people paste keys and other
 * scanners' suites write them, tested with values of its own (not the corpus's) beside the real
 * output of the same shape that must pass untouched. Each `hides` failed on the rules before it.
 */
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { bareValue, namesProvider } from '../../electron/core/secrets/bare-values';
import { NOT_A_PROVIDER, PROVIDER_NAMES } from '../../electron/core/secrets/provider-names';
import { hides, keeps } from './helpers/redaction';

describe("a provider's name and a random value, as a line of its own", () => {
  test('with a blank, `:`, `=`, `|` or ` - ` between, quoted or not, the name alone or with a credential word', () => {
    hides('airtable Rk4vT9wXq2LmZ7sBn3Jd', 'Rk4vT9wXq2LmZ7sBn3Jd');
    hides("  calendly 'hT4kLq9ZmW2xRv7NcP5s' 'https://calendly.example.net'", 'hT4kLq9ZmW2xRv7NcP5s');
    hides('pagerduty: "q8wz3kx7m2np5rt9vb4c-1hd6fj"', 'q8wz3kx7m2np5rt9vb4c-1hd6fj');
    hides('\t\tdeepgram = "c7d2k9x4m1q8z3w6r5t0p-y8u2i7o4e1a6s3d9f"', 'c7d2k9x4m1q8z3w6r5t0p-y8u2i7o4e1a6s3d9f');
    hides('bugsnag | X7QP2MZK9RWT4VNB', 'X7QP2MZK9RWT4VNB');
    hides("todoist - 'Wq3e_Rt7yU-iO9pAsD2f'", 'Wq3e_Rt7yU-iO9pAsD2f');
    hides('    "clockify": "LpQwErTyUiOpAsDf9Z",', 'LpQwErTyUiOpAsDf9Z');
  });
  test('mixed case with one digit, or none, when the case changes as a draw changes it', () => {
    hides('pipedrive "KqWnZbRtYpLx3Hvd"', 'KqWnZbRtYpLx3Hvd');
  });
  test('a second word that says what the value is, and any character inside quotes', () => {
    hides("wistia token - 'Gf8]Kd2:mQ;7,xZ4~vB$9pL#w`3nR'", 'Gf8]Kd2:mQ;7,xZ4~vB$9pL#w`3nR');
    hides('loginradius id Tz8Kq2Wm5Xn9Lp3V', 'Tz8Kq2Wm5Xn9Lp3V');
  });
  test("in braces as an element's content (credentials.xml as scanners' tests write it)", () => {
    hides('  <id>{rebrandly Bq7Xw2Lk9Mz4Rt8Vn3Pd6Hs1Jf}</id>', 'Bq7Xw2Lk9Mz4Rt8Vn3Pd6Hs1Jf');
  });
  test("later values on the line, once its first is a credential, with a word of their own or the line's", () => {
    hides('shotstack Hk3Zq8Wm2Lx7Rv5T Nb6Yc1Jd9Pf4Gs8K', 'Nb6Yc1Jd9Pf4Gs8K');
    hides("nozbe 'u3k8x1m6q9w2z5r7' nozbe 'p4n7v2b8c5x1z9m3'", 'p4n7v2b8c5x1z9m3');
  });
});

describe('hex digits and UUIDs after a word', () => {
  test('are a key under a provider the rule sets know, alone or with a credential word after it', () => {
    assert.ok(namesProvider('pagerduty') && namesProvider('postmark_token') && namesProvider('sendgridKey') && namesProvider('plaid'));
    assert.ok(!namesProvider('commit') && !namesProvider('tracker') && !namesProvider('linearGradient') && !namesProvider('segment'));
    hides('pagerduty: 3b9f2c7e1a5d4f8b9c0e6a2d7f1b3c5e', '3b9f2c7e1a5d4f8b9c0e6a2d7f1b3c5e');
    hides('plaid 7c5e9a0d4f6b3b9f2c7e1a5d', '7c5e9a0d4f6b3b9f2c7e1a5d');
    hides('postmark "5d8c2f1a-9b3e-4c7d-8a6f-2e1b0c9d8f7a",', '5d8c2f1a-9b3e-4c7d-8a6f-2e1b0c9d8f7a');
    hides("mailgun 'Zx8Qw3Er7Ty2Ui9Op4As' pass '9e2c7a4f1b8d3e6c0a5f2b7d9e4c1a8f-1a2b3c4d-5e6f7a8b'", '9e2c7a4f1b8d3e6c0a5f2b7d9e4c1a8f-1a2b3c4d-5e6f7a8b');
  });
  test('are hashes, commits and ids under any other word', () => {
    keeps('commit 3b9f2c7e1a5d4f8b9c0e6a2d7f1b3c5e9a0d4f6b');
    keeps('tree 9a0d4f6b3b9f2c7e1a5d4f8b9c0e6a2d7f1b3c5e\nparent 1a5d4f8b9c0e6a2d7f1b3c5e9a0d4f6b3b9f2c7e');
    keeps('checksum = "0e6a2d7f1b3c5e9a0d4f6b3b9f2c7e1a5d4f8b9c0e6a2d7f1b3c5e9a0d4f6b3b"');
    keeps('    "gitHead": "7f1b3c5e9a0d4f6b3b9f2c7e1a5d4f8b9c0e6a2d",');
    keeps('tracker: 5d8c2f1a-9b3e-4c7d-8a6f-2e1b0c9d8f7a');
    keeps('segment 5d8c2f1a-9b3e-4c7d-8a6f-2e1b0c9d8f7a');
    keeps('X-Request-Id: 5d8c2f1a-9b3e-4c7d-8a6f-2e1b0c9d8f7a');
  });
});

describe("what a provider's name is followed by that is no key", () => {
  test('a digest, a file name, a path, an address, a version, a date', () => {
    keeps('algolia sha512-Qm7vX2kL9pR4tZ8wN3bY6cF1hJ5dG0aE2sK7xV9mL4pQ8rT3wZ6yB1nC5fH0jD2gA==');
    keeps('sentry main.9c1b3f2a7e4d.js 1.2 MiB [emitted]');
    keeps('sentry: created dist/bundle-k7Qz2Xw9.js in 1.4s');
    keeps('twilio: ./config/twilio-k7Qz2Xw9Lp4.json');
    keeps('sendgrid https://api.sendgrid.com/v3/mail/send');
    keeps('heroku: v14.2.0-canary.61');
    keeps('stripe released 2024-03-18T09:41:27.512Z');
    keeps('notion rsa4096/3F2A9C1B2D3E4F5A');
  });
  test('names in code, and the ids, digests and versions a word says it is', () => {
    keeps('stripe: getElementsByTagName');
    keeps('    "datadog": "DOMHighResTimeStamp",');
    keeps('slack COMPRESSED_RGBA_ASTC_10x10_KHR');
    keeps('pagerduty_id: Tz8Kq2Wm5Xn9Lp3V');
    keeps('  mapboxVersion: "Xq7Lp2Vn9Rt4Kz8WmB3c"');
  });
  test('a fake typed as a walk, and a draw where the name should be', () => {
    keeps('okta: 00Qx7Lm2Kp-ABCDEFGHIJKL-9RtVw3Zq');
    keeps('Hq7ZmW2xRv7NcP5s okta 3kLq9ZmW2xRv7NcP');
  });
  test('judged by the value rules: placeholders, paths, URLs', () => {
    assert.ok(!bareValue('${PROVIDER_API_TOKEN}', 'airtable'));
    assert.ok(!bareValue('/usr/local/share/air9table/v2k7', 'airtable'));
    assert.ok(!bareValue('https://x7k2.example.com/q9z', 'airtable'));
    assert.ok(bareValue('Rk4vT9wXq2LmZ7sBn3Jd', 'airtable'));
  });
});

describe('real output of the same shape', () => {
  test('lock files, git, keys that are public', () => {
    keeps('  integrity sha512-Qm7vX2kL9pR4tZ8wN3bY6cF1hJ5dG0aE2sK7xV9mL4pQ8rT3wZ6yB1nC5fH0jD2gA==');
    keeps('  "packageManager": "pnpm@9.4.0+sha512.f549b8a52c9d2b8536762f99c0722205efc5af913e77835dbccc3b0b0b2ca9e7dc8022b78062c17291c48e88749c70ce88eb5a74f1fa8c4bf5e18bb46c8bd83a"');
    keeps('ssh-ed25519 AAAAC3NzaC1lZDI1NTE5AAAAIKq7Xw2Lk9Mz4Rt8Vn3Pd6Hs1JfQm7vX2kL9pR4t dev@box');
    keeps('golang.org/x/net v0.21.0 h1:Qm7vX2kL9pR4tZ8wN3bY6cF1hJ5dG0aE2sK7xV9mL4p=');
    keeps('  "license": "BSD-3-Clause",');
  });
});

describe('the providers that wake the rule', () => {
  test("are the vendored rule sets' providers, written out", () => {
    const rules = (file: string) => (JSON.parse(readFileSync(new URL(`../../electron/core/secrets/rules/${file}`, import.meta.url), 'utf8')) as { rules: { id: string }[] }).rules;
    const names = new Set<string>();
    for (const { id } of rules('kingfisher.json')) names.add(id.split('.')[1]!);
    for (const { id } of rules('gitleaks.json')) names.add(id.split('-')[0]!);
    const expected = [...names].filter((name) => name.length >= 4 && !NOT_A_PROVIDER.includes(name)).map((name) => name.replace(/[^a-z0-9]/g, ''));
    assert.deepEqual([...PROVIDER_NAMES].sort(), [...new Set(expected)].sort());
  });
});
