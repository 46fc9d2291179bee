/**
 * Where the desktop app keeps its data, decided from the environment before Electron is ready
 * (SPEC §8): `COVE_HOME` when set, so the desktop app, `cove serve` and `cove run` can share
 * sessions; otherwise the app's user-data folder.
 */
import { join } from 'node:path';

/**
 * The app's id, as build/electron-builder.yml's appId: Windows shows a notification only for an
 * AppUserModelID its Start-menu shortcut carries, and the NSIS installer gives it this one.
 */
export const APP_ID = 'dev.cove.desktop';

export interface DesktopConfig {
  /** The session store, settings and the encrypted API key. */
  dataDir: string;
  /**
   * Chromium's profile (caches, local storage), moved under `COVE_HOME` when it is set so two
   * data folders mean two independent instances (the single-instance lock lives there too).
   */
  profileDir: string | undefined;
  /** A better_sqlite3.node built for Electron's ABI; see scripts/start.mjs. */
  nativeBinding: string | undefined;
}

export function desktopConfig(env: NodeJS.ProcessEnv, userDataDir: string, packaged: boolean): DesktopConfig {
  // Read the way the core's defaultDataDir reads it, so the CLI and the app agree on the folder.
  const home = env.COVE_HOME?.trim() ? env.COVE_HOME : undefined;
  return {
    dataDir: home || userDataDir,
    profileDir: home ? join(home, 'electron-profile') : undefined,
    // A packaged app has its native modules rebuilt by electron-builder; honouring a path from
    // the environment there would let anyone who can set a variable load code into the app.
    nativeBinding: packaged ? undefined : env.COVE_SQLITE_BINDING?.trim() || undefined,
  };
}

/** The docs link of the Help menu: package.json's `homepage`, when it is an https URL. */
export function docsUrlOf(packageJson: string): string | undefined {
  try {
    const homepage = (JSON.parse(packageJson) as { homepage?: unknown }).homepage;
    return typeof homepage === 'string' && homepage.startsWith('https://') ? homepage : undefined;
  } catch {
    return undefined;
  }
}

/** What a start-up failure tells the person, with the fix when it is a known one. */
export function startupFailureMessage(error: unknown): string {
  const message = error instanceof Error ? error.message : String(error);
  if (/NODE_MODULE_VERSION/.test(message)) {
    return `${message}\n\nThe session store's native module was built for Node.js, not Electron. Start Cove with \`npm start\`, which builds one for Electron and passes it in COVE_SQLITE_BINDING.`;
  }
  return message;
}
