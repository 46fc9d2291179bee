import assert from 'node:assert/strict';
import { test } from 'node:test';
import { loadGitleaksRules } from '../../electron/core/secrets/gitleaks-rules';

test('rules loaded lazily translate, when asked, to what the eager load translates', () => {
  const eager = loadGitleaksRules();
  const lazy = loadGitleaksRules({ lazy: true });
  assert.equal(lazy.rules.length, eager.rules.length);
  // Only Kingfisher rules are skipped (kingfisher-plan.ts says why); every gitleaks rule loads.
  assert.deepEqual(lazy.skipped, eager.skipped);
  assert.deepEqual(
    lazy.skipped.filter((rule) => !rule.id.startsWith('kingfisher.')),
    [],
  );
  lazy.rules.forEach((rule, index) => {
    const other = eager.rules[index]!;
    assert.equal(rule.id, other.id);
    assert.deepEqual(rule.keywords, other.keywords);
    assert.equal(rule.entropy, other.entropy);
    assert.equal(rule.regex.source, other.regex.source, rule.id);
    assert.equal(rule.regex.flags, other.regex.flags, rule.id);
    assert.equal(rule.sticky?.source, other.sticky?.source, rule.id);
    assert.deepEqual(
      rule.allowlists.map((list) => list.regexes.map(String)),
      other.allowlists.map((list) => list.regexes.map(String)),
      rule.id,
    );
  });
  assert.deepEqual(
    lazy.global.map((list) => list.regexes.map(String)),
    eager.global.map((list) => list.regexes.map(String)),
  );
});
