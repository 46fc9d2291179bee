/**
 * The provider client. The SDK reads ANTHROPIC_API_KEY / ANTHROPIC_AUTH_TOKEN and
 * ANTHROPIC_BASE_URL itself; Cove only turns the SDK's own retries off, because the engine
 * retries (and reports each retry) itself.
 */
import Anthropic from '@anthropic-ai/sdk';
import { SetupError } from '../errors';

export class MissingApiKeyError extends SetupError {
  constructor() {
    super('ANTHROPIC_API_KEY is not set; export your Anthropic API key (or ANTHROPIC_AUTH_TOKEN) and try again');
  }
}

export interface ClientSettings {
  apiKey?: string;
  authToken?: string;
  baseURL?: string;
}

export function settingsFromEnv(env: NodeJS.ProcessEnv = process.env): ClientSettings {
  return {
    apiKey: env.ANTHROPIC_API_KEY || undefined,
    authToken: env.ANTHROPIC_AUTH_TOKEN || undefined,
    baseURL: env.ANTHROPIC_BASE_URL || undefined,
  };
}

export function createClient(settings: ClientSettings): Anthropic {
  if (!settings.apiKey && !settings.authToken) throw new MissingApiKeyError();
  return new Anthropic({
    apiKey: settings.apiKey ?? null,
    authToken: settings.authToken ?? null,
    baseURL: settings.baseURL ?? null,
    maxRetries: 0,
  });
}
