/**
 * Picks the host at start: the desktop app's preload defines `window.cove`; anywhere else the
 * page was served by `cove serve` and talks to it over a WebSocket on the same host.
 */
import { createElectronTransport, hasElectronBridge } from './electron-transport';
import { createSocketTransport, type SocketLike } from './socket-client';
import { socketUrl, takeToken } from './token';
import type { Transport } from './types';

export interface SelectedTransport {
  transport: Transport;
  /** Browser only: no token was in the address or kept from before. */
  missingToken: boolean;
}

export function selectTransport(): SelectedTransport {
  if (hasElectronBridge()) return { transport: createElectronTransport(), missingToken: false };
  const token = takeToken();
  const transport = createSocketTransport({
    url: socketUrl(token),
    // The DOM WebSocket's handlers take DOM events; the client reads only code, reason and data.
    createSocket: (url) => new WebSocket(url) as unknown as SocketLike,
  });
  return { transport, missingToken: token === null };
}
