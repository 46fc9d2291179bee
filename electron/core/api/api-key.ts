/**
 * Where a host keeps the person's API key. The key stays in the main process: the renderer
 * only learns whether one is stored. The desktop host encrypts it with the OS keychain
 * (Electron's safeStorage); the browser host, which has no keychain, keeps it in a file only
 * its owner can read.
 */
import { chmodSync, mkdirSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { ApiKeyStorageView } from '../../../shared/contract';

export interface ApiKeyVault {
  get(): string | undefined;
  /** `unprotectedFile`: the person agreed to a plain file where the host has no encryption. */
  set(key: string | null, options?: { unprotectedFile?: boolean }): void;
  /** How the key is or would be stored, for Settings. */
  storage?(): ApiKeyStorageView;
}

/** The key a client should use: a stored one, else the environment's. */
export function resolveApiKey(vault: ApiKeyVault, env: NodeJS.ProcessEnv = process.env): { apiKey?: string; authToken?: string; source: 'stored' | 'environment' | 'missing' } {
  const stored = vault.get();
  if (stored) return { apiKey: stored, source: 'stored' };
  if (env.ANTHROPIC_API_KEY) return { apiKey: env.ANTHROPIC_API_KEY, source: 'environment' };
  if (env.ANTHROPIC_AUTH_TOKEN) return { authToken: env.ANTHROPIC_AUTH_TOKEN, source: 'environment' };
  return { source: 'missing' };
}

/** A file under the data folder with mode 0600. */
export const PLAIN_KEY_FILE = 'api-key';

export class FileKeyVault implements ApiKeyVault {
  readonly path: string;

  constructor(private readonly dataDir: string) {
    this.path = join(dataDir, PLAIN_KEY_FILE);
  }

  get(): string | undefined {
    try {
      return readFileSync(this.path, 'utf8').trim() || undefined;
    } catch {
      return undefined;
    }
  }

  storage(): ApiKeyStorageView {
    return { kind: 'file', file: this.path };
  }

  set(key: string | null): void {
    if (key === null) {
      rmSync(this.path, { force: true });
      return;
    }
    mkdirSync(this.dataDir, { recursive: true, mode: 0o700 });
    const temporary = `${this.path}.${process.pid}.tmp`;
    writeFileSync(temporary, `${key}\n`, { mode: 0o600 });
    chmodSync(temporary, 0o600);
    renameSync(temporary, this.path);
  }
}
