/**
 * Picks the host at start: the desktop app's preload defines `window.cove`; anywhere else the
 * page was served by `cove serve` and talks to it over a WebSocket on the same host.
 */
import { createElectronTransport, hasElectronBridge } from './electron-transport';
import { createSocketTransport, type SocketLike } from './socket-client';
import { forgetToken, socketUrl, takeToken } from './token';
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
    // Same origin, so the cookie goes along when the address carried no token.
    fetch: (url) => window.fetch(url, { cache: 'no-store', credentials: 'same-origin' }),
  });
  // The socket fails only when the server refused this page; a kept token it refused is stale.
  transport.onConnection((state) => {
    if (state.status === 'failed') forgetToken();
  });
  return { transport, missingToken: token === null };
}
