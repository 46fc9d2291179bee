/**
 * App lifecycle rules: one instance per data folder, quit when the last window closes (except on
 * macOS, where apps stay in the dock), and close the core (stop runs, close the store) before the
 * process exits.
 */
import { app, BrowserWindow, dialog } from 'electron';
import { startupFailureMessage } from './desktop-config';

/** False when another instance already runs on the same profile: that one is told, and this one quits. */
export function claimSingleInstance(): boolean {
  if (app.requestSingleInstanceLock()) return true;
  app.quit();
  return false;
}

/** A second launch shows the running instance's window instead of starting another. */
export function showOnSecondLaunch(show: () => void): void {
  app.on('second-instance', show);
}

export function quitWhenWindowsClose(openWindow: () => void): void {
  app.on('window-all-closed', () => {
    if (process.platform !== 'darwin') app.quit();
  });
  // macOS: clicking the dock icon with no window open opens one.
  app.on('activate', () => {
    if (BrowserWindow.getAllWindows().length === 0) openWindow();
  });
}

/** Holds the quit until `close` has finished (runs stopped, store closed), then quits. */
export function closeBeforeQuit(close: () => Promise<void>, log: (message: string) => void): void {
  let state: 'open' | 'closing' | 'closed' = 'open';
  app.on('will-quit', (event) => {
    if (state === 'closed') return;
    event.preventDefault();
    if (state === 'closing') return;
    state = 'closing';
    close()
      .catch((error: Error) => log(`closing the core failed: ${error.message}`))
      .finally(() => {
        state = 'closed';
        app.quit();
      });
  });
}

/** A start-up failure the person must see (a store that cannot open, a missing build). */
export function failStartup(error: unknown, log: (message: string) => void): void {
  const message = startupFailureMessage(error);
  log(`could not start: ${message}`);
  dialog.showErrorBox('Cove could not start', message);
  app.exit(1);
}
