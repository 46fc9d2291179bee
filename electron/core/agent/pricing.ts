/**
 * Published prices of Claude models, in US dollars per million tokens, and the limits Cove plans
 * against when the Models API cannot be asked. A model id matches a row exactly or with a dated
 * snapshot suffix (`claude-haiku-4-5-20251001`); any other id is unknown and has no price, because
 * a family's price has changed between versions (Sonnet 5.5 reads cache at half of Sonnet 5's rate)
 * and a guessed price is worse than "unknown".
 *
 * Source: https://platform.claude.com/docs/en/about-claude/pricing ("Model pricing": base input,
 * 5m cache writes, cache hits, output) and each model's overview page under
 * https://platform.claude.com/docs/en/models/ (context window, max output, thinking), read
 * 2026-12-01. Sonnet 5.5's cache hits are $0.10 since the cut of 2026-10-07; Haiku 5.5 bills a
 * request whose prompt (input + cache reads + cache writes) exceeds 100,000 tokens at its long
 * rates, on every token of that request. Limits of the 4.x rows whose overview pages were not
 * found are the conservative 200K/64K; the Models API (model-catalog.ts) corrects them.
 */
import type { Cost, Usage } from '../../../shared/events';

export interface Rates {
  input: number;
  output: number;
  /** five-minute cache writes, which is what Cove's breakpoints ask for */
  cacheWrite: number;
  cacheRead: number;
}

export type ThinkingSupport = 'adaptive' | 'enabled' | 'none';

export interface PriceRow {
  id: string;
  /** `limited`: the pricing page's "limited availability" models. */
  status: 'current' | 'legacy' | 'limited';
  rates: Rates;
  /** Rates of a request whose prompt exceeds `threshold` tokens. */
  longPrompt?: { threshold: number; rates: Rates };
  contextWindow: number;
  maxOutput: number;
  thinking: ThinkingSupport;
}

const M = 1_000_000;
const K = 1_000;

function row(id: string, status: PriceRow['status'], rates: [number, number, number, number], limits: [number, number, ThinkingSupport], longPrompt?: PriceRow['longPrompt']): PriceRow {
  const [input, cacheWrite, cacheRead, output] = rates;
  return { id, status, rates: { input, output, cacheWrite, cacheRead }, contextWindow: limits[0], maxOutput: limits[1], thinking: limits[2], ...(longPrompt ? { longPrompt } : {}) };
}

// Columns as on the pricing page: input, 5m cache write, cache hit, output.
export const PRICE_TABLE: readonly PriceRow[] = [
  row('claude-fable-5-1', 'current', [10, 12.5, 0.25, 50], [M, 128 * K, 'adaptive']),
  row('claude-opus-5-5', 'current', [4, 5, 0.2, 20], [M, 128 * K, 'adaptive']),
  row('claude-sonnet-5-5', 'current', [2, 2.5, 0.1, 10], [M, 128 * K, 'adaptive']),
  row('claude-haiku-5-5', 'current', [0.1, 0.125, 0.01, 0.5], [M, 128 * K, 'adaptive'], {
    threshold: 100_000,
    rates: { input: 0.5, cacheWrite: 0.625, cacheRead: 0.05, output: 2.5 },
  }),
  row('claude-mythos-5-1', 'limited', [10, 12.5, 0.25, 50], [M, 128 * K, 'adaptive']),
  row('claude-mythos-5', 'limited', [10, 12.5, 1, 50], [M, 128 * K, 'adaptive']),
  row('claude-fable-5', 'legacy', [10, 12.5, 1, 50], [M, 128 * K, 'adaptive']),
  row('claude-opus-5', 'legacy', [5, 6.25, 0.5, 25], [M, 128 * K, 'adaptive']),
  row('claude-sonnet-5', 'legacy', [2, 2.5, 0.2, 10], [M, 128 * K, 'adaptive']),
  row('claude-opus-4-8', 'legacy', [5, 6.25, 0.5, 25], [200 * K, 64 * K, 'adaptive']),
  row('claude-opus-4-7', 'legacy', [5, 6.25, 0.5, 25], [200 * K, 64 * K, 'adaptive']),
  row('claude-opus-4-6', 'legacy', [5, 6.25, 0.5, 25], [200 * K, 64 * K, 'adaptive']),
  row('claude-sonnet-4-6', 'legacy', [3, 3.75, 0.3, 15], [200 * K, 64 * K, 'adaptive']),
  row('claude-opus-4-5', 'legacy', [5, 6.25, 0.5, 25], [200 * K, 64 * K, 'enabled']),
  row('claude-sonnet-4-5', 'legacy', [3, 3.75, 0.3, 15], [200 * K, 64 * K, 'enabled']),
  row('claude-haiku-4-5', 'legacy', [1, 1.25, 0.1, 5], [200 * K, 64 * K, 'enabled']),
  row('claude-opus-4-1', 'legacy', [15, 18.75, 1.5, 75], [200 * K, 32 * K, 'enabled']),
  row('claude-opus-4', 'legacy', [15, 18.75, 1.5, 75], [200 * K, 32 * K, 'enabled']),
  row('claude-sonnet-4', 'legacy', [3, 3.75, 0.3, 15], [200 * K, 64 * K, 'enabled']),
  row('claude-3-7-sonnet', 'legacy', [3, 3.75, 0.3, 15], [200 * K, 64 * K, 'enabled']),
  row('claude-3-5-haiku', 'legacy', [0.8, 1, 0.08, 4], [200 * K, 8_192, 'none']),
];

/** The current Sonnet. */
export const DEFAULT_MODEL = 'claude-sonnet-5-5';

const SNAPSHOT = /^-\d{8}$/;

export function priceRow(model: string): PriceRow | undefined {
  return PRICE_TABLE.find((entry) => model === entry.id || (model.startsWith(entry.id) && SNAPSHOT.test(model.slice(entry.id.length))));
}

function ratesFor(entry: PriceRow, usage: Usage): Rates {
  const prompt = usage.input + usage.cacheRead + usage.cacheWrite;
  return entry.longPrompt && prompt > entry.longPrompt.threshold ? entry.longPrompt.rates : entry.rates;
}

/** The cost of one request's usage; null when the model has no published price. */
export function costOf(model: string, usage: Usage): Cost | null {
  const entry = priceRow(model);
  if (!entry) return null;
  const rates = ratesFor(entry, usage);
  const input = (usage.input * rates.input) / M;
  const output = (usage.output * rates.output) / M;
  const cacheRead = (usage.cacheRead * rates.cacheRead) / M;
  const cacheWrite = (usage.cacheWrite * rates.cacheWrite) / M;
  return { input, output, cacheRead, cacheWrite, total: input + output + cacheRead + cacheWrite, priced: true };
}

/** A sum stays unknown once any part of it is. */
export function addCost(a: Cost | null, b: Cost | null): Cost | null {
  if (!a || !b) return null;
  return {
    input: a.input + b.input,
    output: a.output + b.output,
    cacheRead: a.cacheRead + b.cacheRead,
    cacheWrite: a.cacheWrite + b.cacheWrite,
    total: a.total + b.total,
    priced: true,
  };
}

export const ZERO_COST: Cost = Object.freeze({ input: 0, output: 0, cacheRead: 0, cacheWrite: 0, total: 0, priced: true });
