/**
 * Tells the person when a session needs them and no Cove window has focus (attention.ts
 * decides when): a native notification, and a count on the dock or taskbar. macOS and Linux
 * (Unity/KDE launchers) show app.setBadgeCount; Windows has no count on a taskbar button, so
 * the button flashes until the window is focused. Clicking the notification brings the window
 * back, showing that session. The count drops back to the waiting prompts once the person looks.
 */
import { app, BrowserWindow, Notification } from 'electron';
import type { HostEvent } from '../../shared/contract';
import { AttentionTracker } from './attention';

export interface NotifierOptions {
  subscribe(listener: (event: HostEvent) => void): () => void;
  /** Brings a window to the front (opening one when there is none) showing this session. */
  showSession(sessionId: string): void;
  platform: NodeJS.Platform;
  log(message: string): void;
}

/** Runs for the app's lifetime: the host's events end when it closes. */
export function notifyWhenAway(options: NotifierOptions): void {
  const tracker = new AttentionTracker();
  // Held until closed or clicked: a notification Electron has garbage-collected loses its click.
  const shown = new Set<Notification>();
  const away = () => BrowserWindow.getFocusedWindow() === null;
  // Sessions change many times a second while they run; the OS hears only when the count does.
  let shownCount = 0;
  let flashing = false;
  const updateBadge = () => {
    const count = tracker.badgeCount();
    if (options.platform === 'win32') {
      const flash = count > 0 && away();
      if (flash === flashing) return;
      flashing = flash;
      for (const window of BrowserWindow.getAllWindows()) if (!window.isDestroyed()) window.flashFrame(flash);
      return;
    }
    if (count === shownCount) return;
    shownCount = count;
    // Linux desktops without a launcher API answer false; nothing more can be done there.
    app.setBadgeCount(count);
  };
  const onFocus = () => {
    tracker.seen();
    updateBadge();
  };
  app.on('browser-window-focus', onFocus);
  options.subscribe((event) => {
    if (event.kind === 'sessionDeleted') {
      tracker.forget(event.sessionId);
      updateBadge();
      return;
    }
    if (event.kind !== 'sessionChanged') return;
    const attention = tracker.observe(event.session, away());
    updateBadge();
    if (!attention || !Notification.isSupported()) return;
    const notification = new Notification({ title: attention.title, body: attention.body });
    shown.add(notification);
    notification.on('click', () => {
      shown.delete(notification);
      options.showSession(attention.sessionId);
    });
    notification.on('close', () => shown.delete(notification));
    notification.on('failed', (_event, error) => {
      shown.delete(notification);
      options.log(`the notification could not be shown: ${error}`);
    });
    notification.show();
    if (options.platform === 'darwin' && attention.kind === 'approval') app.dock?.bounce('informational');
  });
}
