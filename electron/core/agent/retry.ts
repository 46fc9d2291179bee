/**
 * Which provider failures are worth another attempt, and how long to wait before it.
 * The SDK's own retries are turned off (maxRetries: 0) so that every attempt is ours to count,
 * to publish as a `providerRetry` event, and to cancel.
 */
import { APIConnectionError, APIError, APIUserAbortError } from '@anthropic-ai/sdk';
import { SetupError } from '../errors';

export interface RetryPolicy {
  /** Attempts after the first one. */
  maxRetries: number;
  baseDelayMs: number;
  maxDelayMs: number;
}

export const DEFAULT_RETRY: RetryPolicy = { maxRetries: 3, baseDelayMs: 1000, maxDelayMs: 30_000 };

export class RetrySettingError extends SetupError {}

/**
 * Retry settings from the environment, for slow networks and for tests: COVE_MAX_RETRIES and
 * COVE_RETRY_BASE_MS. A value that is not a non-negative number is an error naming it.
 */
export function retryFromEnv(env: NodeJS.ProcessEnv = process.env): Partial<RetryPolicy> {
  const policy: Partial<RetryPolicy> = {};
  for (const [name, key] of [
    ['COVE_MAX_RETRIES', 'maxRetries'],
    ['COVE_RETRY_BASE_MS', 'baseDelayMs'],
  ] as const) {
    const raw = env[name];
    if (raw === undefined || raw === '') continue;
    const value = Number(raw);
    if (!Number.isFinite(value) || value < 0) throw new RetrySettingError(`${name} must be a non-negative number (got '${raw}')`);
    policy[key] = value;
  }
  return policy;
}

/** A `retry-after` longer than this is not waited for: the run ends with the provider's error. */
const MAX_RETRY_AFTER_MS = 5 * 60_000;

const RETRYABLE_STATUS = new Set([408, 409, 429, 500, 502, 503, 504, 529]);
const RETRYABLE_TYPES = new Set(['overloaded_error', 'api_error', 'rate_limit_error']);

/** The stream ended before `message_stop`: the connection was cut. */
export class StreamCutError extends Error {
  constructor(detail: string) {
    super(`the response stream was cut short (${detail})`);
    this.name = 'StreamCutError';
  }
}

export interface FailureInfo {
  retryable: boolean;
  retryAfterMs?: number;
  /** What a person can do about it differs: fix the key in Settings, or check the network. */
  kind?: FailureKind;
  /** One line a person can act on. */
  message: string;
}

function retryAfterMs(headers: Headers | undefined): number | undefined {
  if (!headers) return undefined;
  const millis = headers.get('retry-after-ms');
  if (millis && Number.isFinite(Number(millis))) return Number(millis);
  const value = headers.get('retry-after');
  if (!value) return undefined;
  const seconds = Number(value);
  if (Number.isFinite(seconds)) return seconds * 1000;
  const date = Date.parse(value);
  return Number.isNaN(date) ? undefined : Math.max(0, date - Date.now());
}

function oneLine(text: string): string {
  return text.replace(/\s+/g, ' ').trim();
}

/** The innermost cause with a system error code (ECONNREFUSED, ENOTFOUND, …), else its message. */
function connectionCause(error: Error): string {
  let current: unknown = error;
  let message = error.message;
  for (let depth = 0; current && depth < 5; depth++) {
    const { code, message: text, cause } = current as { code?: unknown; message?: string; cause?: unknown };
    if (typeof code === 'string' && /^E[A-Z]+$/.test(code)) return code;
    if (text) message = text;
    current = cause;
  }
  return message;
}

export type FailureKind = 'authentication' | 'connection';

export function describeFailure(error: unknown, baseURL?: string): FailureInfo {
  if (error instanceof APIUserAbortError) return { retryable: false, message: 'cancelled' };
  if (error instanceof APIConnectionError) {
    return { retryable: true, kind: 'connection', message: oneLine(`cannot reach the API${baseURL ? ` at ${baseURL}` : ''}: ${connectionCause(error)}`) };
  }
  if (error instanceof APIError) {
    const type = error.type ?? (error.error as { error?: { type?: string } } | undefined)?.error?.type ?? null;
    const text = error.apiMessage ?? error.message;
    const label = [error.status, type].filter(Boolean).join(' ');
    const retryable = error.status !== undefined ? RETRYABLE_STATUS.has(error.status) : RETRYABLE_TYPES.has(type ?? '');
    const after = retryAfterMs(error.headers);
    return {
      retryable: retryable && (after === undefined || after <= MAX_RETRY_AFTER_MS),
      retryAfterMs: after,
      ...(error.status === 401 || error.status === 403 ? { kind: 'authentication' as const } : {}),
      message: oneLine(`${label ? `${label}: ` : ''}${text}`),
    };
  }
  if (error instanceof StreamCutError) return { retryable: true, message: error.message };
  if (error instanceof Error) {
    // fetch reports a body cut mid-read as a TypeError ("terminated") from undici.
    const network = error.name === 'TypeError' || /terminated|ECONNRESET|socket|network/i.test(error.message);
    return { retryable: network, message: oneLine(network ? `the connection failed: ${error.message}` : error.message) };
  }
  return { retryable: false, message: oneLine(String(error)) };
}

/** Exponential backoff (base, ×2, capped) with ±20 % jitter; a server's `retry-after` wins. */
export function retryDelay(attempt: number, policy: RetryPolicy, retryAfter?: number, random = Math.random): number {
  if (retryAfter !== undefined) return Math.max(0, Math.round(retryAfter));
  const exponential = Math.min(policy.baseDelayMs * 2 ** (attempt - 1), policy.maxDelayMs);
  return Math.round(Math.min(exponential * (0.8 + 0.4 * random()), policy.maxDelayMs));
}

/** Waits, unless the signal fires first (then rejects with the signal's reason). */
export function sleep(ms: number, signal: AbortSignal): Promise<void> {
  return new Promise((resolve, reject) => {
    if (signal.aborted) return reject(signal.reason);
    const timer = setTimeout(() => {
      signal.removeEventListener('abort', onAbort);
      resolve();
    }, ms);
    const onAbort = () => {
      clearTimeout(timer);
      reject(signal.reason);
    };
    signal.addEventListener('abort', onAbort, { once: true });
  });
}
