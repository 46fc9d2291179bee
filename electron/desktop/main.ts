/**
 * The desktop app's composition root: it wires the core host, the window, the IPC binder, the
 * menu and the security rules together, and holds no logic of its own.
 *
 * Run through `npm start` (scripts/start.mjs), which builds, finds the Electron binary and a
 * better-sqlite3 built for Electron's ABI, and passes that build's path in COVE_SQLITE_BINDING.
 */
import { app, BrowserWindow, safeStorage, session, shell } from 'electron';
import { readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { createHost } from '../core/api/host';
import { SafeStorageVault } from './api-key-vault';
import { registerAppScheme, serveRenderer } from './app-protocol';
import { APP_ID, desktopConfig, docsUrlOf } from './desktop-config';
import { denyAllPermissions, hardenAllWebContents, openExternalLink } from './hardening';
import { bindIpc } from './ipc-binder';
import { claimSingleInstance, closeBeforeQuit, failStartup, quitWhenWindowsClose, showOnSecondLaunch } from './lifecycle';
import { installMenu } from './menu';
import { notifyWhenAway } from './notifier';
import { createMainWindow, showWindow } from './window';

const here = dirname(fileURLToPath(import.meta.url));
const preload = join(here, 'preload.cjs');
const rendererDir = join(here, '..', 'renderer');
const log = (message: string) => process.stderr.write(`cove: ${message}\n`);

// The scheme, the profile folder and the sandbox must be settled before the app is ready.
// enableSandbox covers every renderer, even one created without our window's preferences.
app.enableSandbox();
registerAppScheme();
const config = desktopConfig(process.env, app.getPath('userData'), app.isPackaged);
if (config.profileDir) app.setPath('userData', config.profileDir);
if (process.platform === 'win32') app.setAppUserModelId(APP_ID);

if (claimSingleInstance()) {
  hardenAllWebContents(log);
  app
    .whenReady()
    .then(start)
    .catch((error: unknown) => failStartup(error, log));
}

function start(): void {
  denyAllPermissions(session.defaultSession);
  serveRenderer(rendererDir, log);
  const host = createHost({
    dataDir: config.dataDir,
    host: 'desktop',
    version: app.getVersion(),
    vault: new SafeStorageVault(config.dataDir, safeStorage, log),
    log,
    nativeBinding: config.nativeBinding,
    revealFolder: (path) => shell.showItemInFolder(path),
  });
  const binder = bindIpc(host, log);
  closeBeforeQuit(async () => {
    binder.dispose();
    await host.close();
  }, log);
  const openWindow = () => {
    const window = createMainWindow({ preload, dataDir: config.dataDir, log });
    binder.track(window);
    return window;
  };
  installMenu({
    appName: app.getName(),
    platform: process.platform,
    packaged: app.isPackaged,
    docsUrl: docsUrlOf(readFileSync(join(app.getAppPath(), 'package.json'), 'utf8')),
    newSession: () => {
      const focused = BrowserWindow.getFocusedWindow();
      if (focused) binder.sendCommand(focused, 'newSession');
      else showWindow(openWindow);
    },
    openLink: (url) => openExternalLink(url, log),
  });
  showOnSecondLaunch(() => showWindow(openWindow));
  notifyWhenAway({
    subscribe: (listener) => host.subscribe(listener),
    showSession: (sessionId) => binder.sendCommand(showWindow(openWindow), `openSession:${sessionId}`),
    platform: process.platform,
    log,
  });
  quitWhenWindowsClose(openWindow);
  openWindow();
}
