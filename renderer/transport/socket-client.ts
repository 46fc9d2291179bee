/**
 * The browser host (`cove serve`): the contract over one WebSocket, as ClientFrame/ServerFrame
 * JSON. When the socket drops it reconnects with a growing delay; requests made meanwhile
 * wait for the connection (up to WAIT_MS) and then fail with a message saying so; requests
 * that were in flight when it dropped fail at once, since their outcome is unknown.
 *
 * A browser reports a refused upgrade (401 wrong token, 403 wrong origin) only as close code
 * 1006, the same as a server that is down. So after a connect that never opened, the same URL
 * is asked over plain HTTP: 401/403 there means the server is up and refuses this page (e.g. it
 * restarted with a new token), and retrying would never help; any other answer, or none,
 * means keep retrying.
 *
 * The socket and the timers are injected, so this runs under node:test with a fake socket.
 */
import type { ClientFrame, CoveApi, HostEvent, Response, ServerFrame, WatchInput } from '../../shared/contract';
import { apiFrom, failure, type ConnectionState, type Transport } from './types';

/** The part of the DOM WebSocket this client uses. */
export interface SocketLike {
  onopen: ((event: unknown) => void) | null;
  onclose: ((event: { code: number; reason: string }) => void) | null;
  onmessage: ((event: { data: unknown }) => void) | null;
  onerror: ((event: unknown) => void) | null;
  send(data: string): void;
  close(code?: number, reason?: string): void;
}

export interface SocketClientOptions {
  url: string;
  createSocket(url: string): SocketLike;
  setTimer?(callback: () => void, ms: number): unknown;
  clearTimer?(timer: unknown): void;
  random?(): number;
  /** How long a request made while disconnected waits for the connection. */
  waitMs?: number;
  /** Plain HTTP to the socket's own URL, to tell a refusal from an outage; no probing without it. */
  fetch?(url: string): Promise<{ status: number }>;
}

export const WAIT_MS = 15_000;
const BACKOFF_MS = [250, 500, 1000, 2000, 4000, 8000];
const MAX_BACKOFF_MS = 10_000;
/** Close codes that mean the server refused us; retrying would not help. */
const REFUSED_CODES = new Set([1008, 4401, 4403]);

/**
 * What an HTTP answer of the server's /api says about a failed connect: the message to show
 * when it refuses this page, or null when retrying may work (426 Upgrade Required is the
 * answer of a server that accepts the token; null status is no answer at all).
 */
export function refusalMessage(status: number | null): string | null {
  if (status === 401) return "This page's token is no longer valid (Cove may have restarted with a new one): open the address `cove serve` printed.";
  if (status === 403) return 'Cove refuses connections from this page (403 Forbidden): open the address `cove serve` printed.';
  return null;
}

/** The HTTP twin of a ws:// or wss:// URL. */
export function probeUrl(socketUrl: string): string {
  return socketUrl.replace(/^ws(s?):/, 'http$1:');
}

interface Waiting {
  name: string;
  input: unknown;
  resolve(response: Response): void;
  timer: unknown;
}

export function createSocketTransport(options: SocketClientOptions): Transport & { close(): void } {
  const setTimer = options.setTimer ?? ((callback, ms) => setTimeout(callback, ms));
  const clearTimer = options.clearTimer ?? ((timer) => clearTimeout(timer as ReturnType<typeof setTimeout>));
  const random = options.random ?? Math.random;
  const waitMs = options.waitMs ?? WAIT_MS;

  const eventListeners = new Set<(event: HostEvent) => void>();
  const stateListeners = new Set<(state: ConnectionState) => void>();
  const inFlight = new Map<number, { name: string; resolve(response: Response): void }>();
  let waiting: Waiting[] = [];
  let socket: SocketLike | null = null;
  let open = false;
  let everOpened = false;
  let attempt = 0;
  let closed = false;
  let nextId = 1;
  let state: ConnectionState = { status: 'connecting' };
  let retryTimer: unknown = null;
  let probing = false;
  /** The sessions the page watches: said again first on every connection, since the server forgets. */
  let watching: WatchInput = { sessionIds: [] };

  const setState = (next: ConnectionState) => {
    state = next;
    for (const listener of stateListeners) listener(next);
  };

  const send = (name: string, input: unknown, resolve: (response: Response) => void) => {
    const id = nextId++;
    inFlight.set(id, { name, resolve });
    const frame: ClientFrame = name === 'watch' ? { type: 'watch', id, input } : { type: 'request', id, name, input };
    try {
      socket!.send(JSON.stringify(frame));
    } catch (error) {
      inFlight.delete(id);
      resolve(failure(`Could not send ${name} to Cove: ${(error as Error)?.message ?? String(error)}`));
    }
  };

  const onFrame = (data: unknown) => {
    const text = String(data);
    let frame: ServerFrame;
    try {
      frame = JSON.parse(text) as ServerFrame;
    } catch {
      return;
    }
    if (frame.type === 'response') {
      const pending = inFlight.get(frame.id);
      inFlight.delete(frame.id);
      pending?.resolve(frame.response);
    } else if (frame.type === 'event') {
      for (const listener of eventListeners) listener(frame.event);
    }
  };

  const refuse = (message: string) => {
    if (retryTimer !== null) clearTimer(retryTimer);
    retryTimer = null;
    // A retry may be connecting already; its close is ignored once it is not the current socket.
    const connecting = socket;
    socket = null;
    connecting?.close(1000, 'refused');
    failWaiting('Cove refused this page');
    setState({ status: 'failed', message });
  };

  const probe = async () => {
    if (probing || !options.fetch) return;
    probing = true;
    let status: number | null = null;
    try {
      status = (await options.fetch(probeUrl(options.url))).status;
    } catch {
      // No answer: the server is down or unreachable, which a retry can outlast.
    }
    probing = false;
    // A late answer still counts, unless a connection opened (or the page gave up) meanwhile.
    if (closed || open || state.status === 'failed') return;
    const refused = refusalMessage(status);
    if (refused) refuse(refused);
  };

  const connect = () => {
    const current = options.createSocket(options.url);
    socket = current;
    let opened = false;
    current.onopen = () => {
      if (socket !== current) return;
      opened = true;
      open = true;
      attempt = 0;
      const reconnected = everOpened;
      everOpened = true;
      const queued = waiting;
      waiting = [];
      if (watching.sessionIds.length > 0) send('watch', watching, () => {});
      for (const request of queued) {
        clearTimer(request.timer);
        send(request.name, request.input, request.resolve);
      }
      setState({ status: 'open', reconnected });
    };
    current.onmessage = (event) => {
      if (socket === current) onFrame(event.data);
    };
    current.onerror = () => {};
    current.onclose = (event) => {
      if (socket !== current) return;
      open = false;
      socket = null;
      for (const [, pending] of inFlight) {
        pending.resolve(failure(`The connection to Cove dropped before ${pending.name} was answered; it may or may not have been done. Check, then try again.`));
      }
      inFlight.clear();
      if (closed) return;
      if (REFUSED_CODES.has(event.code)) {
        failWaiting('Cove refused this page');
        setState({
          status: 'failed',
          message: `Cove refused the connection (${event.reason || 'the access token is missing or wrong'}). Open the address that \`cove serve\` printed, with its ?token=…`,
        });
        return;
      }
      const base = BACKOFF_MS[Math.min(attempt, BACKOFF_MS.length - 1)] ?? MAX_BACKOFF_MS;
      const delay = Math.min(MAX_BACKOFF_MS, Math.round(base * (0.8 + 0.4 * random())));
      attempt += 1;
      const reason = everOpened ? 'the connection to Cove was lost' : `Cove is not reachable at ${options.url.replace(/\?.*$/, '')}`;
      setState({ status: 'reconnecting', attempt, retryInMs: delay, reason });
      retryTimer = setTimer(() => {
        retryTimer = null;
        if (!closed) connect();
      }, delay);
      if (!opened) void probe();
    };
  };

  const failWaiting = (why: string) => {
    const queued = waiting;
    waiting = [];
    for (const request of queued) {
      clearTimer(request.timer);
      request.resolve(failure(`${why}; ${request.name} was not sent.`));
    }
  };

  const call = (name: string, input: unknown): Promise<Response> =>
    new Promise((resolve) => {
      if (open && socket) return send(name, input, resolve);
      if (closed || state.status === 'failed') return resolve(failure(`Not connected to Cove; ${name} was not sent. Reload the page to reconnect.`));
      const request: Waiting = { name, input, resolve, timer: null };
      request.timer = setTimer(() => {
        waiting = waiting.filter((other) => other !== request);
        resolve(failure(`Not connected to Cove (reconnecting for ${Math.round(waitMs / 1000)} s); ${name} was not sent. Try again when the connection is back.`));
      }, waitMs);
      waiting.push(request);
    });

  const watch: CoveApi['watch'] = (input) => {
    watching = input;
    if (open && socket) return new Promise((resolve) => send('watch', input, resolve as (response: Response) => void));
    // Said when the connection opens, before any request waiting for it.
    return Promise.resolve({ ok: true, value: { watching: input.sessionIds } });
  };

  connect();

  return {
    kind: 'websocket',
    api: apiFrom(
      call,
      (listener) => {
        eventListeners.add(listener);
        return () => eventListeners.delete(listener);
      },
      watch,
    ),
    onConnection(listener) {
      stateListeners.add(listener);
      listener(state);
      return () => stateListeners.delete(listener);
    },
    pathForFile: null,
    onMenuCommand: null,
    close() {
      closed = true;
      failWaiting('The page closed the connection');
      socket?.close(1000, 'closed by the page');
    },
  };
}
