/**
 * Settings' "check the key before saving it": one Models API listing with the typed key, which
 * costs nothing and needs no model name. Only the API's own refusal (401, 403) makes a key
 * wrong; an endpoint that cannot be reached, or a gateway without a Models API, leaves it
 * unchecked, and the person decides.
 */
import Anthropic from '@anthropic-ai/sdk';
import type { ApiKeyCheckView } from '../../../shared/contract';
import { describeFailure } from '../agent/retry';

const CHECK_TIMEOUT_MS = 10_000;

export async function checkApiKey(apiKey: string, baseURL: string | undefined): Promise<ApiKeyCheckView> {
  const client = new Anthropic({ apiKey, authToken: null, baseURL: baseURL ?? null, maxRetries: 0, timeout: CHECK_TIMEOUT_MS });
  try {
    await client.models.list({ limit: 1 });
    return { verdict: 'valid', message: 'The API accepted this key.' };
  } catch (error) {
    const failure = describeFailure(error, client.baseURL);
    const status = error instanceof Anthropic.APIError ? error.status : undefined;
    if (status === 401 || status === 403) return { verdict: 'rejected', message: `The API refused this key (${failure.message}).` };
    if (status === 404) return { verdict: 'unchecked', message: `${client.baseURL} has no Models API to check the key with.` };
    return { verdict: 'unchecked', message: `The key could not be checked: ${failure.message}.` };
  }
}
