// Costs against the published prices (https://platform.claude.com/docs/en/about-claude/pricing,
// read 2026-12-01), written out here by hand from the page rather than read from the table.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { costOf, DEFAULT_MODEL, PRICE_TABLE, priceRow } from '../../electron/core/agent/pricing';

const usage = { input: 10_000, output: 2_000, cacheRead: 50_000, cacheWrite: 4_000 };

// [model, input, 5m cache write, cache hit, output] in dollars per million tokens.
const published: Array<[string, number, number, number, number]> = [
  ['claude-fable-5-1', 10, 12.5, 0.25, 50],
  ['claude-opus-5-5', 4, 5, 0.2, 20],
  ['claude-sonnet-5-5', 2, 2.5, 0.1, 10],
  ['claude-haiku-5-5', 0.1, 0.125, 0.01, 0.5],
  ['claude-mythos-5-1', 10, 12.5, 0.25, 50],
  ['claude-fable-5', 10, 12.5, 1, 50],
  ['claude-opus-5', 5, 6.25, 0.5, 25],
  ['claude-sonnet-5', 2, 2.5, 0.2, 10],
  ['claude-opus-4-8', 5, 6.25, 0.5, 25],
  ['claude-opus-4-5', 5, 6.25, 0.5, 25],
  ['claude-sonnet-4-5', 3, 3.75, 0.3, 15],
  ['claude-haiku-4-5', 1, 1.25, 0.1, 5],
  ['claude-opus-4-1', 15, 18.75, 1.5, 75],
];

for (const [model, input, write, read, output] of published) {
  test(`${model} costs what the price page says`, () => {
    const cost = costOf(model, usage);
    assert.ok(cost);
    const expected = (usage.input * input + usage.cacheWrite * write + usage.cacheRead * read + usage.output * output) / 1e6;
    assert.ok(Math.abs(cost.total - expected) < 1e-12, `${cost.total} vs ${expected}`);
    assert.ok(Math.abs(cost.cacheRead - (usage.cacheRead * read) / 1e6) < 1e-12);
  });
}

test('every current model is priced, and the default model is the current Sonnet', () => {
  const current = PRICE_TABLE.filter((row) => row.status === 'current')
    .map((row) => row.id)
    .sort();
  assert.deepEqual(current, ['claude-fable-5-1', 'claude-haiku-5-5', 'claude-opus-5-5', 'claude-sonnet-5-5']);
  assert.equal(DEFAULT_MODEL, 'claude-sonnet-5-5');
  assert.equal(priceRow('claude-sonnet-5')?.status, 'legacy');
  assert.equal(priceRow('claude-sonnet-5')?.contextWindow, 1_000_000);
});

test('Haiku 5.5 bills a prompt over 100,000 tokens at its long-prompt rates, output included', () => {
  const long = { input: 90_000, output: 1_000, cacheRead: 20_000, cacheWrite: 0 };
  const cost = costOf('claude-haiku-5-5', long)!;
  assert.ok(Math.abs(cost.total - (90_000 * 0.5 + 20_000 * 0.05 + 1_000 * 2.5) / 1e6) < 1e-12);
  const short = costOf('claude-haiku-5-5', { ...long, cacheRead: 10_000 })!;
  assert.ok(Math.abs(short.total - (90_000 * 0.1 + 10_000 * 0.01 + 1_000 * 0.5) / 1e6) < 1e-12);
});

test('dated snapshots share their row; other ids are unknown, never a family guess', () => {
  assert.equal(priceRow('claude-haiku-4-5-20251001')?.id, 'claude-haiku-4-5');
  assert.equal(priceRow('claude-opus-5-5')?.id, 'claude-opus-5-5');
  for (const model of ['claude-sonnet-5-7', 'claude-opus-6', 'llama3.2:latest', 'claude-sonnet-5-5-preview', 'gpt-oss:20b']) {
    assert.equal(costOf(model, usage), null, model);
  }
});
