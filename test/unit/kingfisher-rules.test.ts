/**
 * Kingfisher's rules (electron/core/secrets/kingfisher-plan.ts) against Kingfisher's own
 * examples: each positive example's secret (the first capture group of the rule's own pattern on
 * it) is gone from what the redactor gives, and its negative examples are left as they are.
 */
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { SecretSet } from '../../electron/core/secrets';
import { kingfisherData, kingfisherLabel, kingfisherSource, planKingfisherRules } from '../../electron/core/secrets/kingfisher-plan';
import { re2ToJs } from '../../electron/core/secrets/re2-to-js';
import { rustToRe2, unverbose } from '../../electron/core/secrets/rust-regex';
import { allowed, loadGitleaksRules, shannonEntropy } from '../../electron/core/secrets/gitleaks-rules';
import { requiredLiterals } from '../../electron/core/secrets/rule-prefix';
import { mixedOutput } from '../../bench/mixed-output';

const plan = planKingfisherRules();
const skipped = new Set(plan.skipped.map((rule) => rule.id));
const running = kingfisherData.rules.filter((rule) => !skipped.has(rule.id));
const secrets = new SecretSet();
const planned = new Map(plan.rules.map((rule) => [rule.id, rule]));
/** gitleaks' global allowlist, which every vendored rule is judged by (placeholders, `${VAR}`s, the alphabet). */
const { global: gitleaksGlobal } = loadGitleaksRules({ lazy: true });
/** ...and the rule's own lists: Kingfisher's safe list (`123456789`, `EXAMPLEKEY`, `hunter2`), Cove's placeholders, its prefix's case. */
const compiledLists = plan.allowlists.map((list) => ({ ...list, regexes: list.regexes.map((source) => new RegExp(source)) }));
const listsOf = (id: string) => [...gitleaksGlobal, ...planned.get(kingfisherLabel(id))!.allowlists.map((index) => compiledLists[index]!)];

/**
 * Examples their own rule cannot match, in Rust either: verbose mode drops the blanks of
 * `convertto-securestring ".*" -asplaintext`, and a 22-character word cannot be cut from
 * `splendid21RANDOMCONTENT_token` between word boundaries.
 */
const UPSTREAM_MISMATCHES = new Set(['kingfisher.plaintext.1', 'kingfisher.travisci.1']);

/** The secret of an example as Kingfisher sees it: the first group that matched. */
function secretOf(pattern: string, example: string): string | undefined {
  const match = new RegExp(re2ToJs(rustToRe2(pattern))).exec(example);
  return match ? (match.slice(1).find((group) => group) ?? match[0]) : undefined;
}

describe("Kingfisher's rules", () => {
  test('Rust verbose mode: blanks and comments dropped, escaped blanks and classes kept', () => {
    assert.equal(unverbose(' a b # note\n [ #] \\  c (?# x)d'), 'ab[ #]\\ cd');
    assert.equal(rustToRe2('(?x)\n(?i)\n\\b ( aio_ [a-z]{2} )'), '(?i)\\b(aio_[a-z]{2})');
    assert.equal(rustToRe2('(?i)\\bfoo bar'), '(?i)\\bfoo bar', 'without x blanks are literal');
  });

  test('nearly all translate and have keywords; the skipped ones say why', () => {
    assert.ok(kingfisherData.rules.length >= 700, `${kingfisherData.rules.length} rules vendored`);
    assert.ok(plan.rules.length >= 650, `${plan.rules.length} planned`);
    assert.ok(plan.skipped.length <= 60, JSON.stringify(plan.skipped, null, 1));
    for (const rule of plan.skipped) assert.ok(rule.reason.length > 0, rule.id);
    for (const rule of plan.rules) {
      assert.match(rule.id, /^kingfisher-[a-z0-9-]+$/);
      assert.ok(rule.keywords.length > 0 && rule.keywords.every((keyword) => keyword.length >= 3 && keyword === keyword.toLowerCase()), rule.id);
    }
    assert.equal(kingfisherLabel('kingfisher.azurestorage.key.1'), 'kingfisher-azurestorage-key-1');
  });

  // An example below its own rule's entropy floor, or one Kingfisher's safe list excuses
  // (`1234567890abcdef…`), is one Kingfisher would not report either; one holding the alphabet
  // is a placeholder to gitleaks' global list. Kingfisher's examples are mostly made up.
  test('every positive example of a rule that runs is redacted, unless its rule or the global allowlist excuses it', () => {
    const leaks: string[] = [];
    const unmatched: string[] = [];
    const excused = { entropy: 0, allowlist: 0 };
    let checked = 0;
    for (const rule of running) {
      for (const example of rule.examples) {
        const secret = secretOf(rule.pattern, example);
        if (!secret) {
          if (!UPSTREAM_MISMATCHES.has(rule.id)) unmatched.push(`${rule.id}: ${JSON.stringify(example)}`);
          continue;
        }
        checked++;
        const floor = planned.get(kingfisherLabel(rule.id))!.entropy;
        if (floor > 0 && shannonEntropy(secret) <= floor) {
          excused.entropy++;
          continue;
        }
        if (allowed({ secret, match: secret, line: example }, listsOf(rule.id))) {
          excused.allowlist++;
          continue;
        }
        if (secrets.redact(example).text.includes(secret)) leaks.push(`${rule.id}: ${JSON.stringify(example)}`);
      }
    }
    assert.ok(checked >= 1000, `${checked} examples`);
    // Over half are judged, not excused.
    assert.ok(checked - excused.entropy - excused.allowlist >= 700, JSON.stringify(excused));
    assert.deepEqual(unmatched, [], "examples the rule's own translated pattern does not match");
    assert.deepEqual(leaks, []);
  });

  test('negative examples are left alone (within 10%: some are another rule’s positive)', () => {
    const negatives = running.flatMap((rule) => (rule.negative_examples ?? []).map((text) => ({ id: rule.id, text })));
    const touched = negatives.filter(({ text }) => secrets.redact(text).text !== text);
    assert.ok(touched.length <= Math.floor(negatives.length * 0.1), `${touched.length} of ${negatives.length} touched: ${JSON.stringify(touched, null, 1)}`);
  });

  test('the translated pattern is the one planned', () => {
    const rule = running.find((one) => one.id === 'kingfisher.adafruitio.1')!;
    const planned = plan.rules.find((one) => one.id === 'kingfisher-adafruitio-1')!;
    // `(?xi)`: case-insensitive throughout, so compiled with `i` rather than with `[aA]` for each letter.
    assert.equal(kingfisherSource(rule).slice(0, 4), '(?i)');
    assert.equal(planned.ignoreCase, true);
    assert.equal(planned.source, re2ToJs(kingfisherSource(rule).slice(4)));
    assert.deepEqual(planned.keywords, ['aio_']);
    assert.equal(planned.entropy, 0, 'aio_ is a provider prefix');
  });

  // A keyword on most lines wakes its rules on most lines: `https`, the only literal that began
  // eleven webhook rules, woke all eleven about a thousand times a megabyte of the benchmark's
  // output, and keywords cut to six letters woke on ordinary words (`reques`, `curren`).
  test('no rule wakes on the words of ordinary output: a URL rule wakes on its provider, keywords are whole', () => {
    const ordinary = mixedOutput(1024 * 1024).toLowerCase();
    const often = plan.rules.flatMap((rule) =>
      rule.keywords.flatMap((keyword) => {
        let count = 0;
        for (let at = ordinary.indexOf(keyword); at !== -1 && count <= 50; at = ordinary.indexOf(keyword, at + 1)) count++;
        return count > 50 ? [`${rule.id}: ${keyword}`] : [];
      }),
    );
    assert.deepEqual(often, [], 'keywords found over 50 times in 1 MB of ordinary command output');
    const keywordsOf = (id: string) => planned.get(id)?.keywords;
    assert.deepEqual(keywordsOf('kingfisher-slack-4'), ['slack']);
    assert.deepEqual(keywordsOf('kingfisher-azure-2'), ['azconfig']);
    assert.deepEqual(keywordsOf('kingfisher-particleio-2'), ['particle'], 'begins with access_token= or Authorization:, holds the host');
    assert.deepEqual(keywordsOf('kingfisher-requestfinance-1'), ['requestfinance']);
    assert.equal(keywordsOf('kingfisher-odbc-1'), undefined, 'User=…;Password=… holds no word but ordinary ones: left to the generic rules');
    const slack = 'curl -X POST https://hooks.slack.com/services/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';
    assert.ok(!secrets.redact(slack).text.includes('q8Wv2Lr5Tn7Yx3Zc9Ks1Dm4F'), 'woken by slack, the whole URL is still found');
  });

  test('the literals every match holds: through groups that must match, not optional parts or alternatives', () => {
    assert.deepEqual(requiredLiterals('https://[\\w\\-]+\\.tines\\.com/webhook\\b/[a-z0-9]{32}'), ['https://', '.tines.com/webhook/']);
    assert.deepEqual(requiredLiterals('(https://discord\\.com/api/webhooks/\\d{18})/([0-9a-z-]{68})'), ['https://discord.com/api/webhooks/', '/']);
    assert.deepEqual(requiredLiterals('adobe(?:.|[\\n\\r]){0,32}?key'), ['adobe', 'key'], 'a lazy quantifier is not a literal');
    assert.deepEqual(requiredLiterals('ab?c(?:x|y)de+f'), ['a', 'c', 'de', 'f'], 'an optional character ends a run before it, a repeated one after it');
    assert.deepEqual(requiredLiterals('(?:foo)?bar(?=baz)'), ['bar'], 'neither an optional group nor a lookahead');
    assert.deepEqual(requiredLiterals('foo|bar'), [], 'alternatives at the top: nothing every match holds');
    assert.deepEqual(requiredLiterals('ab\\x60cd\\k<q>ef\\u0041gh'), ['ab', 'cd', 'ef', 'gh'], 'codes and back-references are not their letters');
  });
});
