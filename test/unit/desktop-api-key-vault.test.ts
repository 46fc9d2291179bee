import { test, describe } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, mkdtempSync, readFileSync, readdirSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ENCRYPTED_KEY_FILE, SafeStorageVault, type Encryptor } from '../../electron/desktop/api-key-vault';

function tempDir(t: { after(fn: () => void): void }): string {
  const dir = mkdtempSync(join(tmpdir(), 'cove-vault-'));
  t.after(() => rmSync(dir, { recursive: true, force: true }));
  return dir;
}

/** Stands in for safeStorage: a reversible XOR with a per-keychain secret. */
function keychain(options: { available?: boolean; backend?: string; secret?: number } = {}): Encryptor & { encrypted: number } {
  const secret = options.secret ?? 0x5a;
  const flip = (bytes: Buffer) => Buffer.from(bytes.map((byte) => byte ^ secret));
  const fake = {
    encrypted: 0,
    isEncryptionAvailable: () => options.available ?? true,
    encryptString(plainText: string) {
      fake.encrypted++;
      return Buffer.concat([Buffer.from('v10'), flip(Buffer.from(plainText))]);
    },
    decryptString(encrypted: Buffer) {
      if (encrypted.subarray(0, 3).toString() !== 'v10' || secret !== 0x5a) throw new Error('Error while decrypting the ciphertext');
      return flip(encrypted.subarray(3)).toString();
    },
    ...(options.backend ? { getSelectedStorageBackend: () => options.backend! } : {}),
  };
  return fake;
}

describe('SafeStorageVault', () => {
  test('stores the key encrypted, owner-only, and reads it back', (t) => {
    const dataDir = join(tempDir(t), 'home');
    const vault = new SafeStorageVault(dataDir, keychain({ backend: 'gnome_libsecret' }), () => {});
    vault.set('sk-ant-secret-123');
    const file = join(dataDir, ENCRYPTED_KEY_FILE);
    assert.equal(vault.path, file);
    assert.ok(!readFileSync(file).includes('sk-ant-secret-123'), 'the file must not hold the key in the clear');
    if (process.platform !== 'win32') assert.equal(statSync(file).mode & 0o777, 0o600);
    assert.equal(vault.get(), 'sk-ant-secret-123');
    assert.deepEqual(readdirSync(dataDir), [ENCRYPTED_KEY_FILE], 'no temporary file is left behind');
  });

  test('null removes the stored key; removing twice is fine', (t) => {
    const dataDir = tempDir(t);
    const vault = new SafeStorageVault(dataDir, keychain(), () => {});
    vault.set('sk-one');
    vault.set(null);
    vault.set(null);
    assert.equal(existsSync(join(dataDir, ENCRYPTED_KEY_FILE)), false);
    assert.equal(vault.get(), undefined);
  });

  test('refuses to store when the OS offers no encryption, and writes nothing', (t) => {
    const dataDir = tempDir(t);
    const encryptor = keychain({ available: false });
    const vault = new SafeStorageVault(dataDir, encryptor, () => {});
    assert.throws(() => vault.set('sk-two'), /not stored: this system offers no keychain.*ANTHROPIC_API_KEY/);
    assert.equal(encryptor.encrypted, 0);
    assert.deepEqual(readdirSync(dataDir), []);
  });

  test("refuses Linux's built-in-password fallback, which protects nothing", (t) => {
    const dataDir = tempDir(t);
    const vault = new SafeStorageVault(dataDir, keychain({ backend: 'basic_text' }), () => {});
    assert.throws(() => vault.set('sk-three'), /no keyring \(GNOME Keyring, KWallet\)/);
    assert.deepEqual(readdirSync(dataDir), []);
  });

  test('a key that cannot be decrypted reads as missing, and says where it is', (t) => {
    const dataDir = tempDir(t);
    new SafeStorageVault(dataDir, keychain(), () => {}).set('sk-four');
    const logged: string[] = [];
    const otherKeychain = new SafeStorageVault(dataDir, keychain({ secret: 0x11 }), (message) => logged.push(message));
    assert.equal(otherKeychain.get(), undefined);
    assert.match(logged.join('\n'), new RegExp(`${ENCRYPTED_KEY_FILE}.*could not be decrypted`));
  });

  test('a missing or empty file means no key', (t) => {
    const dataDir = tempDir(t);
    const vault = new SafeStorageVault(dataDir, keychain(), () => {});
    assert.equal(vault.get(), undefined);
    writeFileSync(join(dataDir, ENCRYPTED_KEY_FILE), keychain().encryptString('   \n'));
    assert.equal(vault.get(), undefined);
  });

  test('without a keyring, stores the key only with consent, in a 0600 file, and Settings hears why', (t) => {
    const dataDir = tempDir(t);
    const vault = new SafeStorageVault(dataDir, keychain({ backend: 'basic_text' }), () => {});
    const plainFile = join(dataDir, 'api-key');
    assert.deepEqual(vault.storage(), { kind: 'file', file: plainFile, keychainProblem: 'no keyring (GNOME Keyring, KWallet) is running, so it could only be stored unprotected' });
    assert.throws(() => vault.set('sk-consent'), new RegExp(`Agree to keep it unencrypted in ${plainFile.replace(/[\\/.]/g, '.')}`));
    assert.deepEqual(readdirSync(dataDir), [], 'nothing is written without consent');
    vault.set('sk-consent', { unprotectedFile: true });
    assert.equal(readFileSync(plainFile, 'utf8'), 'sk-consent\n');
    if (process.platform !== 'win32') assert.equal(statSync(plainFile).mode & 0o777, 0o600);
    assert.equal(vault.get(), 'sk-consent');
    vault.set(null);
    assert.deepEqual(readdirSync(dataDir), []);
  });

  test('a keyring that appears later takes the key over and the unencrypted copy goes', (t) => {
    const dataDir = tempDir(t);
    new SafeStorageVault(dataDir, keychain({ available: false }), () => {}).set('sk-moved', { unprotectedFile: true });
    const vault = new SafeStorageVault(dataDir, keychain({ backend: 'kwallet5' }), () => {});
    assert.equal(vault.get(), 'sk-moved', 'the consented file is still read');
    assert.deepEqual(vault.storage(), { kind: 'file', file: join(dataDir, 'api-key') });
    vault.set('sk-moved');
    assert.deepEqual(readdirSync(dataDir), [ENCRYPTED_KEY_FILE]);
    assert.deepEqual(vault.storage(), { kind: 'keychain' });
    assert.equal(vault.get(), 'sk-moved');
  });
});
