import { test, describe } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { FileKeyVault } from '../../electron/core/api/api-key';
import { createHost } from '../../electron/core/api/host';
import { openStore } from '../../electron/core/store';
import { desktopConfig, docsUrlOf, startupFailureMessage } from '../../electron/desktop/desktop-config';

function tempDir(t: { after(fn: () => void): void }): string {
  const dir = mkdtempSync(join(tmpdir(), 'cove-desktop-config-'));
  t.after(() => rmSync(dir, { recursive: true, force: true }));
  return dir;
}

describe('desktopConfig', () => {
  test('uses the user-data folder when COVE_HOME is not set', () => {
    const config = desktopConfig({}, '/home/ada/.config/Cove', false);
    assert.deepEqual(config, { dataDir: '/home/ada/.config/Cove', profileDir: undefined, nativeBinding: undefined });
    assert.equal(desktopConfig({ COVE_HOME: '   ' }, '/u', false).dataDir, '/u');
  });

  test('COVE_HOME holds the data and the Chromium profile, so each home is its own instance', () => {
    const config = desktopConfig({ COVE_HOME: '/tmp/cove-home' }, '/u', false);
    assert.equal(config.dataDir, '/tmp/cove-home');
    assert.equal(config.profileDir, join('/tmp/cove-home', 'electron-profile'));
  });

  test('honours COVE_SQLITE_BINDING only in unpackaged runs', () => {
    const env = { COVE_SQLITE_BINDING: '/repo/.electron-native/x/better_sqlite3.node' };
    assert.equal(desktopConfig(env, '/u', false).nativeBinding, env.COVE_SQLITE_BINDING);
    assert.equal(desktopConfig(env, '/u', true).nativeBinding, undefined);
  });
});

describe('docsUrlOf', () => {
  test('takes an https homepage and nothing else', () => {
    assert.equal(docsUrlOf(JSON.stringify({ homepage: 'https://cove.example/docs' })), 'https://cove.example/docs');
    assert.equal(docsUrlOf(JSON.stringify({ homepage: 'http://cove.example/' })), undefined);
    assert.equal(docsUrlOf(JSON.stringify({ name: 'cove' })), undefined);
    assert.equal(docsUrlOf('{not json'), undefined);
  });
});

describe('startupFailureMessage', () => {
  test('explains a native module built for the wrong runtime, and passes other errors on', () => {
    const abi = new Error("The module 'better_sqlite3.node' was compiled against a different Node.js version using NODE_MODULE_VERSION 115.");
    assert.match(startupFailureMessage(abi), /^The module .*NODE_MODULE_VERSION 115\.\n\n.*built for Node\.js, not Electron.*npm start/s);
    assert.equal(startupFailureMessage(new Error('disk full')), 'disk full');
    assert.equal(startupFailureMessage('plain'), 'plain');
  });
});

describe('nativeBinding', () => {
  test('the store loads the given better_sqlite3.node instead of the default one', (t) => {
    const missing = join(tempDir(t), 'missing', 'better_sqlite3.node');
    assert.throws(
      () => openStore(tempDir(t), { nativeBinding: missing }),
      (error: Error) => error.message.includes(missing),
    );
    const store = openStore(tempDir(t), { nativeBinding: undefined });
    store.close();
  });

  test('createHost passes it through to the store', (t) => {
    const dataDir = tempDir(t);
    const missing = join(dataDir, 'nowhere', 'better_sqlite3.node');
    assert.throws(
      () => createHost({ dataDir, host: 'desktop', version: '0.0.0', vault: new FileKeyVault(dataDir), log: () => {}, nativeBinding: missing }),
      (error: Error) => error.message.includes(missing),
    );
  });
});
