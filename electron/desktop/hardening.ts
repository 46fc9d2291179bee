/**
 * Rules every web contents gets, ours and any other (ARCHITECTURE: Electron security): no
 * navigation away from our origin, no new windows, no <webview>, no permissions. Links to https
 * pages open in the person's browser instead.
 */
import { app, shell, type Session, type WebContents } from 'electron';
import { isAppUrl } from './app-origin';
import { externalHttpsUrl } from './external-links';

/** Opens a link in the default browser when it is a well-formed https URL; ignores anything else. */
export function openExternalLink(raw: unknown, log: (message: string) => void): void {
  const url = externalHttpsUrl(raw);
  if (!url) {
    log(`did not open ${JSON.stringify(raw)?.slice(0, 200)}: only https links open outside Cove`);
    return;
  }
  shell.openExternal(url).catch((error: Error) => log(`could not open ${url}: ${error.message}`));
}

export function hardenAllWebContents(log: (message: string) => void): void {
  app.on('web-contents-created', (_event, contents) => hardenWebContents(contents, log));
}

function hardenWebContents(contents: WebContents, log: (message: string) => void): void {
  contents.on('will-attach-webview', (event) => event.preventDefault());
  contents.setWindowOpenHandler(({ url }) => {
    openExternalLink(url, log);
    return { action: 'deny' };
  });
  const keepOnOrigin = (event: Electron.Event<{ url: string }>) => {
    if (isAppUrl(event.url)) return;
    event.preventDefault();
    // A plain link click on an https page would otherwise be lost; send it to the browser.
    openExternalLink(event.url, log);
  };
  contents.on('will-navigate', keepOnOrigin);
  contents.on('will-redirect', (event) => {
    if (!isAppUrl(event.url)) event.preventDefault();
  });
}

/** Camera, microphone, notifications, geolocation, clipboard reading, …: none are needed. */
export function denyAllPermissions(session: Session): void {
  session.setPermissionRequestHandler((_contents, _permission, callback) => callback(false));
  session.setPermissionCheckHandler(() => false);
  session.setDevicePermissionHandler(() => false);
}
