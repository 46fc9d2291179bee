/**
 * gitleaks' hand-written rule tests (test/fixtures/secrets/gitleaks-literals.json, built by
 * scripts/build-gitleaks-literals.mjs): the true positives each rule lists, and its false
 * positives, most of them false alarms reported on real code. The positives must be redacted;
 * the negatives left, but for the ones in gitleaks-literals-known.json, which this test keeps
 * honest both ways (a new one fails it, and so does a listed one no longer touched:
 * COVE_WRITE_KNOWN_LITERALS=1 rewrites the list after a fix). Most listed negatives are
 * placeholders behind a provider's prefix (`ghp_xxxx…`, `glpat-XXXX…`) or typed walks
 * (`sk-ant-api03-abc123xyz-456def…`), which the other suites of the held-out corpus
 * (noseyparker, secretlint, detect-secrets, ripsecrets, trufflehog) keep as positives: Cove
 * redacts them (README, "gitleaks' own negatives").
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync, writeFileSync } from 'node:fs';
import { SecretSet } from '../../electron/core/secrets';

interface Literal {
  rule: string;
  path: string;
  text: string;
}
const data = JSON.parse(readFileSync(new URL('../fixtures/secrets/gitleaks-literals.json', import.meta.url), 'utf8')) as { positives: Literal[]; negatives: Literal[] };
const KNOWN = new URL('../fixtures/secrets/gitleaks-literals-known.json', import.meta.url);
const known = JSON.parse(readFileSync(KNOWN, 'utf8')) as { missed: string[]; touched: string[] };
const keyOf = (literal: Literal) => `${literal.rule} ${literal.text}`;
const secrets = new SecretSet();

const missed = data.positives.filter((literal) => secrets.redact(literal.text).text === literal.text).map(keyOf);
const touched = data.negatives.filter((literal) => secrets.redact(literal.text).text !== literal.text).map(keyOf);
if (process.env.COVE_WRITE_KNOWN_LITERALS === '1') writeFileSync(KNOWN, `${JSON.stringify({ missed: [...new Set(missed)].sort(), touched: [...new Set(touched)].sort() }, null, 1)}\n`);

test("gitleaks' literal tests are read: over 200 of each", () => {
  assert.ok(data.positives.length >= 200, `${data.positives.length} positives`);
  assert.ok(data.negatives.length >= 200, `${data.negatives.length} negatives`);
});

test('every positive is redacted but the known ones, and every known one is still missed', () => {
  assert.deepEqual(
    missed.filter((key) => !known.missed.includes(key)),
    [],
  );
  assert.deepEqual(
    known.missed.filter((key) => !missed.includes(key)),
    [],
    'redacted now: take them off the list (COVE_WRITE_KNOWN_LITERALS=1)',
  );
});

test('no negative is touched but the known ones, and every known one still is', () => {
  assert.deepEqual(
    touched.filter((key) => !known.touched.includes(key)),
    [],
  );
  assert.deepEqual(
    known.touched.filter((key) => !touched.includes(key)),
    [],
    'left now: take them off the list (COVE_WRITE_KNOWN_LITERALS=1)',
  );
});
