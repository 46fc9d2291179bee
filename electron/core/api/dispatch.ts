/**
 * The binder logic both hosts share: every message names a request and carries an input; the
 * input is parsed against the contract's schema before any handler runs, and every outcome,
 * a thrown error included, becomes a `Response`. Nothing throws across the bridge.
 */
import { requests, type ErrorCode, type RequestName, type RequestResult, type Response } from '../../../shared/contract';
import type { z } from 'zod';
import { StoreError } from '../store';

export class ApiError extends Error {
  constructor(
    readonly code: ErrorCode,
    message: string,
  ) {
    super(message);
  }
  static notFound(message: string): ApiError {
    return new ApiError('notFound', message);
  }
  static conflict(message: string): ApiError {
    return new ApiError('conflict', message);
  }
  static invalid(message: string): ApiError {
    return new ApiError('invalidInput', message);
  }
}

/** What a transport can take besides plain values. */
export interface DispatchOptions {
  /** Stored events may come as `RawEvents` (./raw-events.ts): the transport writes JSON text. */
  rawEvents?: boolean;
}

export type Handlers = {
  [K in RequestName]: (input: z.output<(typeof requests)[K]['input']>, options: DispatchOptions) => Promise<RequestResult<K>> | RequestResult<K>;
};

function describeIssues(name: string, issues: z.core.$ZodIssue[]): string {
  const parts = issues.slice(0, 5).map((issue) => `${issue.path.length > 0 ? issue.path.join('.') : 'input'}: ${issue.message}`);
  return `${name}: ${parts.join('; ')}`;
}

export type Dispatch = (name: unknown, input: unknown, options?: DispatchOptions) => Promise<Response>;

export function createDispatcher(handlers: Handlers, log: (message: string) => void = () => {}): Dispatch {
  return async (name, input, options = {}) => {
    if (typeof name !== 'string' || !Object.hasOwn(requests, name)) {
      return { ok: false, error: { code: 'unknownRequest', message: `unknown request ${JSON.stringify(name)?.slice(0, 80)}` } };
    }
    const requestName = name as RequestName;
    const parsed = requests[requestName].input.safeParse(input ?? {});
    if (!parsed.success) return { ok: false, error: { code: 'invalidInput', message: describeIssues(requestName, parsed.error.issues) } };
    try {
      const handler = handlers[requestName] as (input: unknown, options: DispatchOptions) => unknown;
      return { ok: true, value: await handler(parsed.data, options) };
    } catch (error) {
      if (error instanceof ApiError) return { ok: false, error: { code: error.code, message: error.message } };
      if (error instanceof StoreError && error.code === 'sessionNotFound') return { ok: false, error: { code: 'notFound', message: error.message } };
      const message = error instanceof Error ? error.message : String(error);
      log(`${requestName} failed: ${message}`);
      return { ok: false, error: { code: 'failed', message } };
    }
  };
}
