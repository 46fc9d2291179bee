/** A request whose failure becomes a notice: the value, or undefined after telling the person. */
import type { RequestInput, RequestName, RequestResult } from '../../shared/contract';
import { call } from '../transport/client';
import { useCove } from './index';

export async function ask<K extends RequestName>(name: K, input: RequestInput<K>): Promise<RequestResult<K> | undefined> {
  const response = await call(name, input);
  if (response.ok) return response.value;
  useCove.getState().notify(response.error.message);
  return undefined;
}
