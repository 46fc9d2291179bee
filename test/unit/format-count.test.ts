import { test } from 'node:test';
import assert from 'node:assert/strict';
import { formatCount } from '../../electron/core/tools/fs-utils';

test('formatCount writes counts as en-US does, grouped by hand for whole numbers', () => {
  const intl = new Intl.NumberFormat('en-US');
  const values = [0, 7, 999, 1_000, -1_000, 12_345, 1_234_567, -987_654_321, Number.MAX_SAFE_INTEGER, 0.5, 1_234.5678, -0.25, 1e21];
  for (const value of values) assert.equal(formatCount(value), intl.format(value), String(value));
});
