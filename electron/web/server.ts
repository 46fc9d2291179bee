/**
 * The browser host's transport (`cove serve`): one HTTP server that serves the built renderer
 * and, on `/api`, a WebSocket carrying the same contract as the desktop app's IPC. Every
 * request passes the Host check (DNS rebinding), the token and, for the WebSocket and any
 * non-GET, the Origin check, in that order, before anything is read or served.
 */
import http from 'node:http';
import type { Duplex } from 'node:stream';
import { WebSocketServer, type WebSocket } from 'ws';
import type { HostEvent } from '../../shared/contract';
import type { Dispatch } from '../core/api/dispatch';
import { answerFrame, Peers, SOCKET_PAYLOAD_LIMIT_BYTES } from './api-socket';
import { allowedHost, originAllowed, securityHeaders, type ServerAddress } from './request-guard';
import { assetResponse, resolveAsset } from './static-files';
import { checkRequestToken, tokenCookie } from './token';

/** What the server needs of a host: `createHost()` returns it. */
export interface ContractHost {
  dispatch: Dispatch;
  subscribe(listener: (event: HostEvent) => void): () => void;
}

export interface WebServerOptions {
  host: ContractHost;
  /** The built renderer: index.html, app.js, app.css. */
  rendererDir: string;
  token: string;
  bindHost: string;
  /** 0 picks any free port. */
  port: number;
  /** When `port` is taken, take any free port instead of failing (used for the default port). */
  fallbackToFreePort?: boolean;
  log(message: string): void;
}

export interface WebServer {
  port: number;
  /** The page to open, token included. */
  url: string;
  /** Open WebSocket connections. */
  connections(): number;
  close(): Promise<void>;
}

const WILDCARD_HOSTS = new Set(['0.0.0.0', '::', '[::]']);
const UNAUTHORIZED = '401 Unauthorized: open the address that `cove serve` printed; it carries the token this server needs.\n';
const CLOSE_GRACE_MS = 2000;

export function isWildcardHost(bindHost: string): boolean {
  return WILDCARD_HOSTS.has(bindHost);
}

/** How the printed URL names the host: a wildcard bind is opened locally as 127.0.0.1. */
export function urlHost(bindHost: string): string {
  if (isWildcardHost(bindHost)) return '127.0.0.1';
  return bindHost.includes(':') && !bindHost.startsWith('[') ? `[${bindHost}]` : bindHost;
}

function sendText(response: http.ServerResponse, status: number, text: string, headers: Record<string, string> = {}): void {
  response.writeHead(status, { ...headers, 'content-type': 'text/plain; charset=utf-8', 'content-length': String(Buffer.byteLength(text)), 'cache-control': 'no-store' });
  response.end(response.req.method === 'HEAD' ? undefined : text);
}

function refuseUpgrade(socket: Duplex, status: number, text: string): void {
  socket.end(
    `HTTP/1.1 ${status} ${http.STATUS_CODES[status]}\r\nconnection: close\r\ncontent-type: text/plain; charset=utf-8\r\n` + `content-length: ${Buffer.byteLength(text)}\r\n\r\n${text}`,
  );
}

function listen(server: http.Server, port: number, bindHost: string): Promise<void> {
  return new Promise((resolve, reject) => {
    const onError = (error: Error) => {
      server.off('listening', onListening);
      reject(error);
    };
    const onListening = () => {
      server.off('error', onError);
      resolve();
    };
    server.once('error', onError);
    server.once('listening', onListening);
    server.listen(port, bindHost.replace(/^\[|\]$/g, ''));
  });
}

async function listenOrExplain(server: http.Server, options: WebServerOptions): Promise<void> {
  try {
    await listen(server, options.port, options.bindHost);
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (code === 'EADDRINUSE' && options.fallbackToFreePort) return listen(server, 0, options.bindHost);
    if (code === 'EADDRINUSE') throw new Error(`cove serve: port ${options.port} is in use; choose another with --port (--port 0 takes any free port)`);
    if (code === 'EACCES') throw new Error(`cove serve: not allowed to listen on port ${options.port}; choose a port above 1023 with --port`);
    if (code === 'EADDRNOTAVAIL' || code === 'ENOTFOUND') throw new Error(`cove serve: --host ${options.bindHost} is not an address of this machine`);
    throw new Error(`cove serve: cannot listen on ${options.bindHost}:${options.port}: ${(error as Error).message}`);
  }
}

export async function startWebServer(options: WebServerOptions): Promise<WebServer> {
  const { host, token, log } = options;
  const address: ServerAddress = { bindHost: options.bindHost, port: options.port };
  const peers = new Peers(log);
  const sockets = new WebSocketServer({ noServer: true, maxPayload: SOCKET_PAYLOAD_LIMIT_BYTES, perMessageDeflate: false });

  const serveHttp = async (request: http.IncomingMessage, response: http.ServerResponse) => {
    const hostname = allowedHost(request.headers.host, address);
    if (!hostname) return sendText(response, 403, '403 Forbidden: unknown Host header; open the address that `cove serve` printed.\n');
    const headers = securityHeaders(hostname, address.port);
    if (request.method !== 'GET' && request.method !== 'HEAD') {
      if (!originAllowed(request.headers.origin, hostname, address)) return sendText(response, 403, '403 Forbidden: cross-origin request.\n', headers);
      return sendText(response, 405, '405 Method Not Allowed\n', { ...headers, allow: 'GET, HEAD' });
    }
    const url = new URL(request.url ?? '/', 'http://cove.invalid');
    const { check, fromQuery } = checkRequestToken(token, url, request.headers.cookie, address.port);
    if (check !== 'valid') return sendText(response, 401, UNAUTHORIZED, headers);
    // The cookie lets the page's own assets and a reload without `?token=` through.
    if (fromQuery) headers['set-cookie'] = tokenCookie(address.port, token);
    if (url.pathname === '/api') return sendText(response, 426, '426 Upgrade Required: /api is a WebSocket.\n', { ...headers, upgrade: 'websocket' });
    const asset = await resolveAsset(options.rendererDir, url.pathname);
    if (asset.kind === 'refused') {
      if (url.pathname === '/') return sendText(response, 503, `503: the Cove app is not built (no index.html in ${options.rendererDir}); run npm run build.\n`, headers);
      return sendText(response, asset.status, asset.status === 400 ? '400 Bad Request\n' : '404 Not Found\n', headers);
    }
    const answer = await assetResponse(asset, request.headers['if-none-match']);
    response.writeHead(answer.status, { ...headers, ...answer.headers });
    response.end(request.method === 'HEAD' ? undefined : answer.body);
  };

  const server = http.createServer((request, response) => {
    serveHttp(request, response).catch((error: unknown) => {
      log(`could not answer ${request.method} ${request.url?.split('?')[0]}: ${(error as Error).message}`);
      if (!response.headersSent) sendText(response, 500, '500 Internal Server Error\n');
      else response.destroy();
    });
  });

  const connect = (socket: WebSocket) => {
    const watch = peers.add(socket);
    socket.on('message', (data, isBinary) => {
      void answerFrame(data, isBinary, host.dispatch, watch).then((frame) => peers.send(socket, frame));
    });
    socket.on('close', () => peers.delete(socket));
    socket.on('error', (error) => {
      log(`closed a browser connection: ${error.message}`);
      peers.delete(socket);
    });
  };

  server.on('upgrade', (request: http.IncomingMessage, socket: Duplex, head: Buffer) => {
    socket.on('error', () => socket.destroy());
    const hostname = allowedHost(request.headers.host, address);
    if (!hostname) return refuseUpgrade(socket, 403, '403 Forbidden: unknown Host header.\n');
    const url = new URL(request.url ?? '/', 'http://cove.invalid');
    if (url.pathname !== '/api') return refuseUpgrade(socket, 404, '404 Not Found\n');
    if (!originAllowed(request.headers.origin, hostname, address)) return refuseUpgrade(socket, 403, '403 Forbidden: the connection does not come from a page of this server.\n');
    if (checkRequestToken(token, url, request.headers.cookie, address.port).check !== 'valid') return refuseUpgrade(socket, 401, UNAUTHORIZED);
    sockets.handleUpgrade(request, socket, head, connect);
  });

  await listenOrExplain(server, options);
  address.port = (server.address() as { port: number }).port;
  const unsubscribe = host.subscribe((event) => peers.broadcast(event));

  return {
    port: address.port,
    url: `http://${urlHost(options.bindHost)}:${address.port}/?token=${token}`,
    connections: () => peers.size,
    async close() {
      unsubscribe();
      const closing = [...sockets.clients].map((client) => {
        client.close(1001, 'Cove is shutting down');
        return new Promise<void>((resolve) => client.once('close', () => resolve()));
      });
      // A tab that does not answer the close handshake must not hold the shutdown up.
      const grace = new Promise<void>((resolve) => setTimeout(resolve, CLOSE_GRACE_MS).unref());
      await Promise.race([Promise.all(closing), grace]);
      for (const client of sockets.clients) client.terminate();
      sockets.close();
      const closed = new Promise<void>((resolve) => server.close(() => resolve()));
      server.closeAllConnections();
      await closed;
    },
  };
}
