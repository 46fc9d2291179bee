/**
 * A provider prefix is context enough: prefixed secrets are redacted with low-entropy bodies and
 * under names that do not name the provider; the shapes other scanners test and gitleaks lacks
 * (scanner-rules.ts) are found, each beside a near miss that is not.
 */
import { test, describe } from 'node:test';
import assert from 'node:assert/strict';
import { SecretSet } from '../../electron/core/secrets';
import { loadGitleaksRules } from '../../electron/core/secrets/gitleaks-rules';
import { distinctivePrefix, secretPart } from '../../electron/core/secrets/rule-prefix';

const secrets = new SecretSet();
const redacted = (text: string) => secrets.redact(text).text;

describe('provider prefixes in gitleaks rules', () => {
  test('the prefix is read from the secret group, across alternatives, and only when distinctive', () => {
    const part = secretPart(`(?i)[\\w.-]{0,50}?(?:new-relic|newrelic)(?:[ \\t\\w.-]{0,20})[\\s'"]{0,3}(?:=|:)[\\x60'"\\s=]{0,5}(NRJS-[a-f0-9]{19})(?:[\\x60'"\\s;]|$)`, 1);
    assert.equal(part?.group, 'NRJS-[a-f0-9]{19}');
    assert.equal(part?.flags, '(?i)');
    assert.equal(distinctivePrefix(part!.group), 'NRJS-');
    assert.equal(distinctivePrefix('\\b((?:AKIA|ASIA)[A-Z2-7]{16})\\b'), 'AKIA');
    assert.equal(distinctivePrefix('\\b((?:A3T[A-Z0-9]|AKIA)[A-Z2-7]{16})\\b'), 'A3T', 'the shortest alternative');
    assert.equal(distinctivePrefix('(?:live|test)[a-z]{10}'), '', 'lower-case words');
    assert.equal(distinctivePrefix('hf_(?i:[a-z]{34})'), 'hf_');
    assert.equal(distinctivePrefix('4b1d[A-Za-z0-9]{38}'), '', 'hex digits begin hashes too');
    assert.equal(distinctivePrefix('SK[0-9a-fA-F]{32}'), '', 'two letters are a word');
    assert.equal(distinctivePrefix('(?:sgp_[a-f0-9]{40}|[a-f0-9]{40})'), '', 'one alternative has no prefix');
    assert.equal(distinctivePrefix('[\\w.-]{0,50}?(?:token)'), '');
  });

  test('prefixed rules lose their entropy floor; name-bound ones gain a twin that wants no name', () => {
    const rules = loadGitleaksRules().rules;
    const nrjs = rules.filter((rule) => rule.id === 'new-relic-browser-api-token');
    assert.equal(nrjs.length, 2);
    assert.ok(nrjs.every((rule) => rule.entropy === 0));
    assert.deepEqual(nrjs[1]!.keywords, ['nrjs-']);
    const generic = rules.find((rule) => rule.id === 'generic-api-key')!;
    assert.ok(generic.entropy > 0, 'the generic rule keeps its floor');
    assert.equal(rules.find((rule) => rule.id === 'twilio-api-key')!.entropy, 3, 'SK alone is no prefix');
  });

  test('low-entropy bodies and unnamed places are redacted', () => {
    for (const text of [
      'NR_BROWSER_TOKEN=NRJS-30aa0a2bbbbbbbbbbbb',
      'new_relic_token = "NRJS-30aa0a2bbbbbbbbbbbb"',
      'Use `NRAK-AAAAAAAAAAAAAAAAAAAAAAAAAAA` for the dashboards.',
      `GH=ghp_${'a'.repeat(35)}b`,
      `ops_eyJ${'a'.repeat(250)}`,
    ]) {
      const out = redacted(text);
      assert.match(out, /\[REDACTED:[a-z0-9-]+\]/, text);
      assert.ok(!/NRJS-30aa|NRAK-AAAA|ghp_aaaa|ops_eyJaaaa/.test(out), out);
    }
  });

  test('a hash that merely contains a prefix-like run is left alone', () => {
    const sha = `commit 4b1d${'a1b2c3d4e5'.repeat(3)}abcdef`;
    assert.equal(redacted(sha), sha);
  });
});

describe('shapes gitleaks lacks', () => {
  const cases: { name: string; hit: string; secret: string; miss: string }[] = [
    {
      name: 'trello-token',
      hit: 'TRELLO_TOKEN="OZlHFhAa-BcjSmwlArEfKqEdIKwuqXOT"',
      secret: 'OZlHFhAa-BcjSmwlArEfKqEdIKwuqXOT',
      miss: 'See the trello board https://trello.com/b/AbCd1234/roadmap',
    },
    { name: 'trello-token', hit: `token: ATTA${'9f'.repeat(32)}0A1B2C3D`, secret: `ATTA${'9f'.repeat(32)}`, miss: 'ATTACHMENT_COUNT=12' },
    { name: 'figma-token', hit: `FIGMA=figd_${'Ab3_'.repeat(11)}`, secret: `figd_${'Ab3_'.repeat(11)}`, miss: 'figd_short' },
    { name: 'docker-hub-token', hit: `echo dckr_pat_${'x1Y2z'.repeat(6)} | docker login`, secret: `dckr_pat_${'x1Y2z'.repeat(6)}`, miss: 'docker pull node:20' },
    { name: 'vercel-token', hit: `VERCEL=vcp_${'a1B2'.repeat(7)}`, secret: `vcp_${'a1B2'.repeat(7)}`, miss: 'vcpkg install zlib' },
    { name: 'cloudflare-token', hit: `CF=cfut_${'Q7w'.repeat(13)}Qab12cd34`, secret: `cfut_${'Q7w'.repeat(14)}`, miss: 'cfut_12' },
    { name: 'vault-token', hit: `VAULT_TOKEN=hvr.${'Zx9-'.repeat(24)}`, secret: `hvr.${'Zx9-'.repeat(24)}`, miss: 'hvr.example.com' },
    { name: 'supabase-token', hit: `sbp_${'0a1b2c3d4e'.repeat(4)}`, secret: `sbp_${'0a1b2c3d4e'.repeat(4)}`, miss: 'sbp_short' },
    { name: 'netlify-token', hit: `NETLIFY_AUTH=nfp_${'Kk3'.repeat(12)}`, secret: `nfp_${'Kk3'.repeat(12)}`, miss: 'nfp_docs' },
    { name: 'render-api-key', hit: `rnd_${'Rr7'.repeat(10)}ab`, secret: `rnd_${'Rr7'.repeat(10)}ab`, miss: 'rnd_seed = 4' },
    {
      name: 'hubspot-token',
      hit: 'HUBSPOT=pat-na1-1a2b3c4d-1a2b-1a2b-1a2b-1a2b3c4d5e6f',
      secret: 'pat-na1-1a2b3c4d-1a2b-1a2b-1a2b-1a2b3c4d5e6f',
      miss: 'hubspot form id 1a2b3c4d-1a2b-1a2b-1a2b-1a2b3c4d5e6f',
    },
    { name: 'doppler-token', hit: `DOPPLER_TOKEN=dp.st.dev.${'Dd4'.repeat(14)}`, secret: `dp.st.dev.${'Dd4'.repeat(14)}`, miss: 'dp.st.example' },
    { name: 'mailchimp-api-key', hit: `key: ${'0123456789abcdef'.repeat(2)}-us6`, secret: `${'0123456789abcdef'.repeat(2)}-us6`, miss: 'region: us6' },
    { name: 'pinecone-api-key', hit: `PINECONE=pcsk_abc123_${'Pp5'.repeat(14)}`, secret: `pcsk_abc123_${'Pp5'.repeat(14)}`, miss: 'pcsk_docs' },
  ];
  for (const { name, hit, secret, miss } of cases) {
    test(`${name}: ${hit.slice(0, 30)}…`, () => {
      const out = redacted(hit);
      assert.ok(!out.includes(secret.slice(0, 20)), out);
      assert.match(out, /\[REDACTED:[a-z0-9-]+\]/);
      assert.equal(redacted(miss), miss);
    });
  }

  test('a name and its value in two fields of one entry', () => {
    const value = 'q8Zt3vLm9xPw2RkY';
    for (const text of [`<add key="PaymentApiToken" value="${value}" />`, `- name: DEPLOY_TOKEN\n  value: ${value}`, `{"name": "api_key", "value": "${value}"}`]) {
      assert.ok(!redacted(text).includes(value), text);
    }
    assert.equal(redacted('<add key="TokenLifetime" value="3600" />'), '<add key="TokenLifetime" value="3600" />');
  });
});
