import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, test } from 'node:test';
import { SecretSet } from '../../electron/core/secrets';
import { detectorIndex } from '../../electron/core/secrets/detectors';
import { planGitleaksRules } from '../../electron/core/secrets/gitleaks-plan';
import { GENERATE_COMMAND, GENERATED_RULES_PATH, generatedRulesText } from '../../electron/core/secrets/generate-rules';
import { KeywordScanner } from '../../electron/core/secrets/keyword-scan';
import { loadTables, saveTables } from '../../electron/core/secrets/keyword-tables';
import { BUILT_IN_PATTERNS } from '../../electron/core/secrets/patterns';

const root = join(import.meta.dirname, '../..');

function random(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (state * 1664525 + 1013904223) >>> 0;
    return state / 2 ** 32;
  };
}

function hitsOf(scanner: KeywordScanner, text: string): [number, number][] {
  const hits: [number, number][] = [];
  scanner.scan(text, (keyword, start) => hits.push([keyword, start]));
  return hits;
}

describe('the generated rule file', () => {
  test('is what the generator makes now (so it cannot go stale)', () => {
    const committed = readFileSync(join(root, GENERATED_RULES_PATH), 'utf8');
    // Not assert.equal on 200 KB of text: a stale file is told how to be regenerated.
    assert.ok(committed === generatedRulesText(), `${GENERATED_RULES_PATH} is stale: run \`${GENERATE_COMMAND}\``);
  });

  test('gives the default detector set its keyword automaton without building it', () => {
    assert.equal(detectorIndex(BUILT_IN_PATTERNS, true).keywordScan.prebuilt, true);
    // A caller's own pattern list with other keywords has its automaton built.
    const own = [...BUILT_IN_PATTERNS, { name: 'own-token', regex: /\bown_[a-z0-9]{20}\b/g, hints: ['own_'] }];
    assert.equal(detectorIndex(own, true).keywordScan.prebuilt, false);
  });

  // The loaded automaton must find what one built now finds: random texts with the keywords
  // planted in them, across the middle of the text (where the scan's two walks meet) and at its ends.
  test('its loaded automaton finds the same hits as one built at run time', () => {
    const loaded = detectorIndex(BUILT_IN_PATTERNS, true).keywordScan;
    const { keywords } = loaded.tables();
    const built = new KeywordScanner(keywords);
    assert.equal(built.prebuilt, false);
    const next = random(7);
    const alphabet = 'abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789_-.=:"\' \n[]/+é';
    let planted = 0;
    for (let trial = 0; trial < 300; trial++) {
      const length = 1 + Math.floor(next() * (trial < 100 ? 60 : 2000));
      const chars = Array.from({ length }, () => alphabet[Math.floor(next() * alphabet.length)]!);
      const count = 1 + Math.floor(next() * 6);
      for (let index = 0; index < count; index++) {
        const keyword = keywords[Math.floor(next() * keywords.length)]!;
        const cased = next() < 0.5 ? keyword.toUpperCase() : keyword;
        // One of them straddles the middle, one sits at an end, the others anywhere.
        const middle = Math.max(0, Math.floor(length / 2) - Math.floor(next() * cased.length));
        const at = index === 0 ? middle : index === 1 ? (next() < 0.5 ? 0 : Math.max(0, length - cased.length)) : Math.floor(next() * length);
        chars.splice(at, cased.length, ...cased);
        planted++;
      }
      const text = chars.join('');
      assert.deepEqual(hitsOf(loaded, text), hitsOf(built, text), JSON.stringify(text));
    }
    assert.ok(planted > 1000);
  });
});

describe('saved keyword-scanner tables', () => {
  const keywords = ['key', 'ey', 'token', 'ghp_', '[redacted:'];
  const saved = saveTables(new KeywordScanner(keywords).tables());

  test('load to the tables they were saved from', () => {
    const again = new KeywordScanner(keywords, loadTables(saved));
    assert.deepEqual(again.tables(), new KeywordScanner(keywords).tables());
    assert.deepEqual(hitsOf(again, 'a Key, a TOKEN: ghp_x [REDACTED:x]'), hitsOf(new KeywordScanner(keywords), 'a Key, a TOKEN: ghp_x [REDACTED:x]'));
  });

  test('that are damaged are refused, naming what is wrong', () => {
    const fail = Buffer.from(saved.fail, 'base64');
    fail.writeUInt16LE(5, 2);
    assert.throws(() => loadTables({ ...saved, fail: fail.toString('base64') }), /saved keyword-scanner tables: state 1 fails to state 5, not an earlier one/);
    const parent = Buffer.from(saved.parent, 'base64');
    parent.writeUInt16LE(3, 2);
    assert.throws(() => loadTables({ ...saved, parent: parent.toString('base64') }), /state \d+'s parent \d+ does not come in breadth-first order/);
    assert.throws(() => loadTables({ ...saved, symbol: 'AA==' }), /parent, symbol and fail list \d+, 1 and \d+ states/);
    assert.throws(() => loadTables({ ...saved, classOf: 'AAAA' }), /classOf has 3 entries, not 256/);
    assert.throws(() => loadTables({ ...saved, outputs: [[9999, 0]] }), /the output \[9999,0\] names no state or keyword/);
    assert.throws(() => new KeywordScanner(['other'], loadTables(saved)), /they were built for other keywords/);
  });
});

test("gitleaks' jwt rule wakes on a JWT header's first letters (`eyJ`, `eyA`), not on `ey` (`key`, `they`)", () => {
  const jwt = planGitleaksRules().rules.find((rule) => rule.id === 'jwt')!;
  assert.ok(!jwt.keywords.includes('ey') && jwt.keywords.includes('eyj') && jwt.keywords.includes('eya'), JSON.stringify(jwt.keywords));
  // A pretty-printed header (`{ "alg": …`) begins `eyA`, and is still found.
  const token = `${Buffer.from('{ "alg": "HS256", "typ": "JWT" }').toString('base64url')}.${Buffer.from('{ "sub": "1234567890", "iat": 1516239022 }').toString('base64url')}.SflKxwRJSMeKKF2QT4fwpMeJf36POk6yJV_adQssw5c`;
  assert.ok(token.startsWith('eyA'));
  assert.equal(new SecretSet().redact(`Authorization: ${token}\n`).text.includes('SflKxwRJSMeKKF2QT4fwpMeJf36'), false);
});

test("gitleaks' rules that keep their name's case (`[\\w.-]{0,50}?(?i:[\\w.-]{0,50}?(?:…`) are tried at their keyword, and find what a full scan finds", () => {
  const plan = planGitleaksRules();
  for (const id of ['sumologic-access-id', 'okta-access-token', 'cisco-meraki-api-key', 'cohere-api-token', 'privateai-api-token'])
    assert.equal(plan.rules.find((rule) => rule.id === id)?.semiGeneric, true, id);
  const lines = [
    'sumo_access_id: suQ8wE7rT6yU5i',
    'OKTA_TOKEN = "00Qw8Er7Ty6Ui5Op4As3Df2Gh1Jk0Lz9Xc8Vb7Nm6"',
    'MERAKI_KEY=9f8e7d6c5b4a39281706f5e4d3c2b1a098f7e6d5',
    'co_api_key: "Qw8Er7Ty6Ui5Op4As3Df2Gh1Jk0Lz9Xc8Vb7Nm6Aa"',
    'private_ai_token = "9f8e7d6c5b4a39281706f5e4d3c2b1a0"',
    'node_modules/sumoccpl resolved',
  ];
  const fast = new SecretSet();
  const slow = new SecretSet({ exhaustive: true });
  for (const line of lines) assert.equal(fast.redact(line).text, slow.redact(line).text, line);
  assert.notEqual(fast.redact(lines[0]!).text, lines[0]);
});
