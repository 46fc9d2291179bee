/**
 * The desktop app's API key vault: the key is encrypted with the OS keychain through Electron's
 * safeStorage and written to `<dataDir>/api-key.enc` (mode 0600). When the OS offers no real
 * encryption the key is refused rather than written in the clear; the person can still use
 * ANTHROPIC_API_KEY from the environment. The encryptor is passed in so this file does not
 * import Electron and can be tested under Node.
 */
import { chmodSync, mkdirSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { ApiKeyVault } from '../core/api/api-key';

export const ENCRYPTED_KEY_FILE = 'api-key.enc';

/** The part of Electron's `safeStorage` this vault uses. */
export interface Encryptor {
  isEncryptionAvailable(): boolean;
  encryptString(plainText: string): Buffer;
  decryptString(encrypted: Buffer): string;
  /** Linux only: which secret store backs the encryption. */
  getSelectedStorageBackend?(): string;
}

export class SafeStorageVault implements ApiKeyVault {
  readonly path: string;

  constructor(
    private readonly dataDir: string,
    private readonly encryptor: Encryptor,
    private readonly log: (message: string) => void,
  ) {
    this.path = join(dataDir, ENCRYPTED_KEY_FILE);
  }

  get(): string | undefined {
    let encrypted: Buffer;
    try {
      encrypted = readFileSync(this.path);
    } catch {
      return undefined;
    }
    try {
      return this.encryptor.decryptString(encrypted).trim() || undefined;
    } catch (error) {
      // A key encrypted under another OS account or a reset keychain cannot be read back; the
      // person stores it again from the settings screen.
      this.log(`the stored API key in ${this.path} could not be decrypted: ${(error as Error).message}`);
      return undefined;
    }
  }

  set(key: string | null): void {
    if (key === null) {
      rmSync(this.path, { force: true });
      return;
    }
    const problem = this.encryptionProblem();
    if (problem) {
      throw new Error(`The API key was not stored: ${problem}. Set ANTHROPIC_API_KEY in the environment that starts Cove instead.`);
    }
    const encrypted = this.encryptor.encryptString(key);
    mkdirSync(this.dataDir, { recursive: true, mode: 0o700 });
    const temporary = `${this.path}.${process.pid}.tmp`;
    writeFileSync(temporary, encrypted, { mode: 0o600 });
    chmodSync(temporary, 0o600);
    renameSync(temporary, this.path);
  }

  private encryptionProblem(): string | null {
    if (!this.encryptor.isEncryptionAvailable()) return 'this system offers no keychain to encrypt it with';
    // Without a secret service Chromium on Linux falls back to a password built into every
    // copy of Chromium, which protects nothing.
    if (this.encryptor.getSelectedStorageBackend?.() === 'basic_text') {
      return 'no keyring (GNOME Keyring, KWallet) is running, so it could only be stored unprotected';
    }
    return null;
  }
}
