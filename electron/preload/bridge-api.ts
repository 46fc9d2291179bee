/**
 * Builds the object the preload exposes as `window.cove`: one function per contract request,
 * `onEvent` for host events, `watch` for the sessions whose streams it wants, `onMenuCommand` for the native menu, and `pathForFile` for
 * dropped folders. It takes Electron's ipcRenderer and webUtils as parameters so it can be
 * tested under Node; Electron's event object is never passed on to the page.
 */
import type { CoveApi, HostEvent, Response } from '../../shared/contract';
import { COMMAND_CHANNEL, EVENT_CHANNEL, REQUEST_CHANNEL, WATCH_CHANNEL, type MenuCommand } from './ipc-channels';

/** The part of Electron's ipcRenderer the bridge uses. */
export interface BridgeIpc {
  invoke(channel: string, ...args: unknown[]): Promise<unknown>;
  on(channel: string, listener: (event: unknown, payload: unknown) => void): unknown;
  removeListener(channel: string, listener: (event: unknown, payload: unknown) => void): unknown;
}

export type CoveBridge<F> = CoveApi & {
  onMenuCommand(listener: (command: MenuCommand) => void): () => void;
  /** The path on disk of a dropped file or folder; '' when it has none. */
  pathForFile(file: F): string;
};

export function createBridgeApi<F>(requestNames: readonly string[], ipc: BridgeIpc, pathForFile: (file: F) => string): CoveBridge<F> {
  const api: Record<string, unknown> = {};
  for (const name of requestNames) api[name] = (input: unknown) => ipc.invoke(REQUEST_CHANNEL, name, input).then((answer) => parseAnswer(name, answer));
  api.onEvent = fanOut<HostEvent>(ipc, EVENT_CHANNEL);
  // Through invoke, like requests, so a watch and the session:open after it arrive in order.
  api.watch = (input: unknown) => ipc.invoke(WATCH_CHANNEL, input);
  api.onMenuCommand = fanOut<MenuCommand>(ipc, COMMAND_CHANNEL);
  api.pathForFile = (file: F) => pathForFile(file);
  return api as CoveBridge<F>;
}

/**
 * Main answers a request with the JSON text of its Response (electron/desktop/ipc-binder.ts);
 * text that is not one is answered as a failure naming the request, never thrown at the page.
 */
function parseAnswer(name: string, answer: unknown): Response {
  try {
    if (typeof answer !== 'string') throw new TypeError(`expected JSON text, got ${typeof answer}`);
    return JSON.parse(answer) as Response;
  } catch (error) {
    return { ok: false, error: { code: 'failed', message: `${name}: the answer from the main process could not be read (${(error as Error).message})` } };
  }
}

/**
 * One ipcRenderer listener per channel, attached while anyone listens, fanned out to the page's
 * listeners; a listener that throws is reported and does not stop the others.
 */
function fanOut<T>(ipc: BridgeIpc, channel: string): (listener: (payload: T) => void) => () => void {
  const listeners = new Set<(payload: T) => void>();
  const receive = (_event: unknown, payload: unknown) => {
    for (const listener of [...listeners]) {
      try {
        listener(payload as T);
      } catch (error) {
        console.error(`a ${channel} listener failed`, error);
      }
    }
  };
  return (listener) => {
    if (typeof listener !== 'function') throw new TypeError(`${channel}: the listener must be a function`);
    // The same function subscribed twice gets its own subscription each time.
    const subscription = (payload: T) => listener(payload);
    if (listeners.size === 0) ipc.on(channel, receive);
    listeners.add(subscription);
    return () => {
      if (!listeners.delete(subscription)) return;
      if (listeners.size === 0) ipc.removeListener(channel, receive);
    };
  };
}
