/** A request whose failure becomes a notice: the value, or undefined after telling the person. */
import type { ErrorCode, RequestInput, RequestName, RequestResult } from '../../shared/contract';
import { call } from '../transport/client';

// The store hands over its `notify` when it is created (index.ts), so this module, which the
// slices import, does not import the store back.
let notify: ((message: string, code: ErrorCode) => void) | undefined;

export function reportRequestFailures(to: (message: string, code: ErrorCode) => void): void {
  notify = to;
}

export async function ask<K extends RequestName>(name: K, input: RequestInput<K>): Promise<RequestResult<K> | undefined> {
  const response = await call(name, input);
  if (response.ok) return response.value;
  if (!notify) throw new Error(`request ${name} failed before the store was created: ${response.error.message}`);
  notify(response.error.message, response.error.code);
  return undefined;
}
