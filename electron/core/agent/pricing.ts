/**
 * Prices of current Claude models in US dollars per million tokens, and the context window the
 * compactor plans against. Cache writes are priced at 1.25× input (five-minute cache) and cache
 * reads at 0.1× input, as Anthropic bills them. Model ids match by prefix, so dated snapshots
 * (`claude-sonnet-4-5-20250929`) and aliases (`claude-sonnet-4-5`) share one row.
 */
import type { Cost, Usage } from '../../../shared/events';

export interface ModelInfo {
  /** dollars per million input tokens */
  input: number;
  /** dollars per million output tokens */
  output: number;
  contextWindow: number;
  maxOutput: number;
}

// Published prices for the 4.x generation. Newer models are listed at their family's price
// (Sonnet $3/$15, Opus $5/$25, Haiku $1/$5), which has held since Claude 4.5; correct a row
// here when Anthropic's price page says otherwise.
const TABLE: Array<[prefix: string, info: ModelInfo]> = [
  ['claude-opus-5', { input: 5, output: 25, contextWindow: 200_000, maxOutput: 64_000 }],
  ['claude-sonnet-5', { input: 3, output: 15, contextWindow: 200_000, maxOutput: 64_000 }],
  ['claude-haiku-5', { input: 1, output: 5, contextWindow: 200_000, maxOutput: 64_000 }],
  ['claude-opus-4-8', { input: 5, output: 25, contextWindow: 200_000, maxOutput: 64_000 }],
  ['claude-opus-4-7', { input: 5, output: 25, contextWindow: 200_000, maxOutput: 64_000 }],
  ['claude-opus-4-6', { input: 5, output: 25, contextWindow: 200_000, maxOutput: 64_000 }],
  ['claude-sonnet-4-6', { input: 3, output: 15, contextWindow: 200_000, maxOutput: 64_000 }],
  ['claude-opus-4-5', { input: 5, output: 25, contextWindow: 200_000, maxOutput: 64_000 }],
  ['claude-opus-4-1', { input: 15, output: 75, contextWindow: 200_000, maxOutput: 32_000 }],
  ['claude-opus-4', { input: 15, output: 75, contextWindow: 200_000, maxOutput: 32_000 }],
  ['claude-sonnet-4-5', { input: 3, output: 15, contextWindow: 200_000, maxOutput: 64_000 }],
  ['claude-sonnet-4', { input: 3, output: 15, contextWindow: 200_000, maxOutput: 64_000 }],
  ['claude-3-7-sonnet', { input: 3, output: 15, contextWindow: 200_000, maxOutput: 64_000 }],
  ['claude-haiku-4-5', { input: 1, output: 5, contextWindow: 200_000, maxOutput: 64_000 }],
  ['claude-3-5-haiku', { input: 0.8, output: 4, contextWindow: 200_000, maxOutput: 8_192 }],
];

export const DEFAULT_MODEL = 'claude-sonnet-5';

/** Used for models missing from the table: they are not priced, and planned as 200k/8k. */
const UNKNOWN: ModelInfo = { input: 0, output: 0, contextWindow: 200_000, maxOutput: 8_192 };

export function modelInfo(model: string): ModelInfo & { known: boolean } {
  const row = TABLE.find(([prefix]) => model === prefix || model.startsWith(`${prefix}-`));
  return row ? { ...row[1], known: true } : { ...UNKNOWN, known: false };
}

export function costOf(model: string, usage: Usage): Cost {
  const info = modelInfo(model);
  const perToken = info.input / 1e6;
  const input = usage.input * perToken;
  const output = (usage.output * info.output) / 1e6;
  const cacheRead = usage.cacheRead * perToken * 0.1;
  const cacheWrite = usage.cacheWrite * perToken * 1.25;
  return { input, output, cacheRead, cacheWrite, total: input + output + cacheRead + cacheWrite, priced: info.known };
}

export function addCost(a: Cost, b: Cost): Cost {
  return {
    input: a.input + b.input,
    output: a.output + b.output,
    cacheRead: a.cacheRead + b.cacheRead,
    cacheWrite: a.cacheWrite + b.cacheWrite,
    total: a.total + b.total,
    priced: a.priced && b.priced,
  };
}

export const ZERO_COST: Cost = Object.freeze({ input: 0, output: 0, cacheRead: 0, cacheWrite: 0, total: 0, priced: true });
