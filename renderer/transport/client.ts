/**
 * The one client of the contract for the whole renderer, set once at bootstrap. Store actions
 * call main through `call`; nothing else touches a transport.
 */
import type { RequestInput, RequestName, RequestResult, Response } from '../../shared/contract';
import type { Transport } from './types';

let current: Transport | null = null;

export function setTransport(transport: Transport): void {
  current = transport;
}

export function transport(): Transport {
  if (!current) throw new Error('the transport is used before bootstrap set it');
  return current;
}

export function call<K extends RequestName>(name: K, input: RequestInput<K>): Promise<Response<RequestResult<K>>> {
  // Indexing the mapped type by a generic name loses the pairing of input and result.
  const method = transport().api[name] as (input: RequestInput<K>) => Promise<Response<RequestResult<K>>>;
  return method(input);
}
