/**
 * The one main-side file that touches Electron IPC. Every request is checked to come from the
 * main frame of a window we created showing our own origin, then handed to the contract's
 * dispatcher, which validates the input and never throws. Host events go to every such window,
 * a session's high-rate ones only to windows that watch it (core/api/session-watch.ts); the core
 * already coalesces them.
 */
import { ipcMain, type BrowserWindow, type WebContents } from 'electron';
import type { HostEvent, Response } from '../../shared/contract';
import type { Host } from '../core/api/host';
import { COMMAND_CHANNEL, EVENT_CHANNEL, REQUEST_CHANNEL, WATCH_CHANNEL, type MenuCommand } from '../preload/ipc-channels';
import { encodeWithRawEvents } from '../core/api/raw-events';
import { SessionWatch } from '../core/api/session-watch';
import { senderProblem } from './sender-check';

export interface IpcBinder {
  /** Accepts requests from this window and sends it host events until it closes. */
  track(window: BrowserWindow): void;
  /** Asks the page in a window to act on a menu command. */
  sendCommand(window: BrowserWindow, command: MenuCommand): void;
  /** Stops answering requests and sending events. */
  dispose(): void;
}

export function bindIpc(host: Pick<Host, 'dispatch' | 'subscribe'>, log: (message: string) => void): IpcBinder {
  const ours = new WeakSet<WebContents>();
  const windows = new Map<BrowserWindow, SessionWatch>();

  const refusal = (event: Electron.IpcMainInvokeEvent, what: string): Response | null => {
    const frame = event.senderFrame;
    const problem = senderProblem({
      ours: ours.has(event.sender),
      frame: frame && { url: frame.url, isMainFrame: frame.parent === null },
    });
    if (!problem) return null;
    log(`refused a ${what} request: ${problem}`);
    return { ok: false, error: { code: 'unauthorized', message: `Request refused: ${problem}.` } };
  };

  // Every answer crosses as its JSON text, as over the WebSocket: stored events go out as the
  // store holds them (core/api/raw-events.ts), so a long session's page is neither parsed row by
  // row nor structured-cloned here; the preload parses the text once.
  ipcMain.handle(REQUEST_CHANNEL, async (event, name: unknown, input: unknown): Promise<string> => {
    const response = refusal(event, JSON.stringify(name)?.slice(0, 80) ?? 'unnamed') ?? (await host.dispatch(name, input, { rawEvents: true }));
    return encodeWithRawEvents(response);
  });
  ipcMain.handle(WATCH_CHANNEL, (event, input: unknown): Response => {
    const refused = refusal(event, 'watch');
    if (refused) return refused;
    const watch = [...windows].find(([window]) => !window.isDestroyed() && window.webContents === event.sender)?.[1];
    return watch ? watch.set(input) : { ok: false, error: { code: 'unauthorized', message: 'Request refused: the window is closing.' } };
  });

  const send = (window: BrowserWindow, channel: string, payload: unknown) => {
    if (window.isDestroyed() || window.webContents.isDestroyed()) return;
    window.webContents.send(channel, payload);
  };
  const unsubscribe = host.subscribe((event: HostEvent) => {
    for (const [window, watch] of windows) if (watch.wants(event)) send(window, EVENT_CHANNEL, event);
  });

  return {
    track(window) {
      ours.add(window.webContents);
      windows.set(window, new SessionWatch());
      window.once('closed', () => windows.delete(window));
    },
    sendCommand(window, command) {
      send(window, COMMAND_CHANNEL, command);
    },
    dispose() {
      unsubscribe();
      ipcMain.removeHandler(REQUEST_CHANNEL);
      ipcMain.removeHandler(WATCH_CHANNEL);
      windows.clear();
    },
  };
}
