/**
 * The app window: the renderer in an isolated, sandboxed page whose only door to main is the
 * preload's `window.cove`. Navigation, pop-ups and permissions are handled for every web
 * contents in hardening.ts.
 */
import { BrowserWindow, nativeTheme, screen } from 'electron';
import { APP_INDEX_URL } from './app-origin';
import { initialBounds, MINIMUM_SIZE, readWindowState, writeWindowState } from './window-state';

export interface WindowOptions {
  /** The bundled preload (CommonJS: sandboxed preloads cannot load ES modules). */
  preload: string;
  /** Where the window's size and position are remembered (window-state.ts). */
  dataDir: string;
  log(message: string): void;
}

/** Each display's usable area, the primary display's first. */
function workAreas() {
  const primary = screen.getPrimaryDisplay();
  return [primary, ...screen.getAllDisplays().filter((display) => display.id !== primary.id)].map((display) => display.workArea);
}

export function createMainWindow(options: WindowOptions): BrowserWindow {
  const placed = initialBounds(readWindowState(options.dataDir, options.log), workAreas());
  const window = new BrowserWindow({
    ...placed.bounds,
    minWidth: MINIMUM_SIZE.width,
    minHeight: MINIMUM_SIZE.height,
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
  window.once('ready-to-show', () => {
    if (placed.maximized) window.maximize();
    window.show();
  });
  window.on('close', () => {
    try {
      writeWindowState(options.dataDir, { bounds: window.getNormalBounds(), maximized: window.isMaximized() });
    } catch (error) {
      options.log(`the window's size and position were not saved: ${(error as Error).message}`);
    }
  });
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
