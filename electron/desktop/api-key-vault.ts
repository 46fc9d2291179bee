/**
 * The desktop app's API key vault: the key is encrypted with the OS keychain through Electron's
 * safeStorage and written to `<dataDir>/api-key.enc` (mode 0600). Where the OS offers no real
 * encryption (Linux without GNOME Keyring or KWallet, where Chromium falls back to `basic_text`)
 * a key is stored only with the person's explicit consent, in the same 0600 file `cove serve`
 * uses (FileKeyVault), and Settings says so. Without consent it is refused, so a packaged app
 * started from a menu (no ANTHROPIC_API_KEY in its environment) still has a way to get a key.
 * The encryptor is passed in so this file does not import Electron and can be tested under Node.
 */
import { chmodSync, existsSync, mkdirSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { ApiKeyStorageView } from '../../shared/contract';
import { FileKeyVault, type ApiKeyVault } from '../core/api/api-key';

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
  private readonly plain: FileKeyVault;

  constructor(
    private readonly dataDir: string,
    private readonly encryptor: Encryptor,
    private readonly log: (message: string) => void,
  ) {
    this.path = join(dataDir, ENCRYPTED_KEY_FILE);
    this.plain = new FileKeyVault(dataDir);
  }

  get(): string | undefined {
    let encrypted: Buffer;
    try {
      encrypted = readFileSync(this.path);
    } catch {
      return this.plain.get();
    }
    try {
      return this.encryptor.decryptString(encrypted).trim() || undefined;
    } catch (error) {
      // A key encrypted under another OS account or a reset keychain cannot be read back; the
      // person stores it again from the settings screen.
      this.log(`the stored API key in ${this.path} could not be decrypted: ${(error as Error).message}`);
      return this.plain.get();
    }
  }

  set(key: string | null, options: { unprotectedFile?: boolean } = {}): void {
    if (key === null) {
      rmSync(this.path, { force: true });
      this.plain.set(null);
      return;
    }
    const problem = this.encryptionProblem();
    if (problem) {
      if (!options.unprotectedFile) {
        throw new Error(
          `The API key was not stored: ${problem}. Agree to keep it unencrypted in ${this.plain.path} (readable only by you), or set ANTHROPIC_API_KEY in the environment that starts Cove.`,
        );
      }
      this.plain.set(key);
      rmSync(this.path, { force: true });
      return;
    }
    const encrypted = this.encryptor.encryptString(key);
    mkdirSync(this.dataDir, { recursive: true, mode: 0o700 });
    const temporary = `${this.path}.${process.pid}.tmp`;
    writeFileSync(temporary, encrypted, { mode: 0o600 });
    chmodSync(temporary, 0o600);
    renameSync(temporary, this.path);
    // A keyring that appeared since: the unencrypted copy has no reason to stay.
    this.plain.set(null);
  }

  storage(): ApiKeyStorageView {
    const problem = this.encryptionProblem();
    if (problem) return { kind: 'file', file: this.plain.path, keychainProblem: problem };
    if (!existsSync(this.path) && existsSync(this.plain.path)) return { kind: 'file', file: this.plain.path };
    return { kind: 'keychain' };
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
