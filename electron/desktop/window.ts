/**
 * The app window: the renderer in an isolated, sandboxed page whose only door to main is the
 * preload's `window.cove`. Navigation, pop-ups and permissions are handled for every web
 * contents in hardening.ts.
 */
import { BrowserWindow, nativeTheme } from 'electron';
import { APP_INDEX_URL } from './app-origin';

export interface WindowOptions {
  /** The bundled preload (CommonJS: sandboxed preloads cannot load ES modules). */
  preload: string;
  log(message: string): void;
}

export function createMainWindow(options: WindowOptions): BrowserWindow {
  const window = new BrowserWindow({
    width: 1280,
    height: 840,
    minWidth: 720,
    minHeight: 480,
    title: 'Cove',
    show: false,
    // The page's own background until it paints, so the window does not flash the other theme.
    backgroundColor: nativeTheme.shouldUseDarkColors ? '#17181a' : '#f7f7f5',
    webPreferences: {
      preload: options.preload,
      contextIsolation: true,
      sandbox: true,
      nodeIntegration: false,
      nodeIntegrationInSubFrames: false,
      webSecurity: true,
      allowRunningInsecureContent: false,
      webviewTag: false,
      navigateOnDragDrop: false,
      // Chromium fetches spelling dictionaries from Google on Linux and Windows; Cove stays offline.
      spellcheck: false,
    },
  });
  // Shown once painted, so the window does not flash empty.
  window.once('ready-to-show', () => window.show());
  window.webContents.on('did-fail-load', (_event, code, description, url) => options.log(`the window could not load ${url}: ${description} (${code})`));
  window.webContents.on('render-process-gone', (_event, details) => options.log(`the window's renderer process ended: ${details.reason}`));
  window.loadURL(APP_INDEX_URL).catch((error: Error) => options.log(`the window could not load ${APP_INDEX_URL}: ${error.message}`));
  return window;
}

/** Brings the focused or first window to the front, opening one when there is none. */
export function showWindow(open: () => BrowserWindow): BrowserWindow {
  const window = BrowserWindow.getFocusedWindow() ?? BrowserWindow.getAllWindows()[0];
  if (!window) return open();
  if (window.isMinimized()) window.restore();
  window.show();
  window.focus();
  return window;
}
