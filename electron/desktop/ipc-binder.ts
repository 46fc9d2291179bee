/**
 * The one main-side file that touches Electron IPC. Every request is checked to come from the
 * main frame of a window we created showing our own origin, then handed to the contract's
 * dispatcher, which validates the input and never throws. Host events go to every such window;
 * the core already coalesces the high-frequency ones.
 */
import { ipcMain, type BrowserWindow, type WebContents } from 'electron';
import type { HostEvent, Response } from '../../shared/contract';
import type { Host } from '../core/api/host';
import { COMMAND_CHANNEL, EVENT_CHANNEL, REQUEST_CHANNEL, type MenuCommand } from '../preload/ipc-channels';
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
  const windows = new Set<BrowserWindow>();

  ipcMain.handle(REQUEST_CHANNEL, async (event, name: unknown, input: unknown): Promise<Response> => {
    const frame = event.senderFrame;
    const problem = senderProblem({
      ours: ours.has(event.sender),
      frame: frame && { url: frame.url, isMainFrame: frame.parent === null },
    });
    if (problem) {
      log(`refused a ${JSON.stringify(name)?.slice(0, 80)} request: ${problem}`);
      return { ok: false, error: { code: 'unauthorized', message: `Request refused: ${problem}.` } };
    }
    return host.dispatch(name, input);
  });

  const send = (window: BrowserWindow, channel: string, payload: unknown) => {
    if (window.isDestroyed() || window.webContents.isDestroyed()) return;
    window.webContents.send(channel, payload);
  };
  const unsubscribe = host.subscribe((event: HostEvent) => {
    for (const window of windows) send(window, EVENT_CHANNEL, event);
  });

  return {
    track(window) {
      ours.add(window.webContents);
      windows.add(window);
      window.once('closed', () => windows.delete(window));
    },
    sendCommand(window, command) {
      send(window, COMMAND_CHANNEL, command);
    },
    dispose() {
      unsubscribe();
      ipcMain.removeHandler(REQUEST_CHANNEL);
      windows.clear();
    },
  };
}
