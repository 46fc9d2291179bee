/**
 * The contract over a WebSocket: each text frame is a `ClientFrame` request (or a `watch`,
 * the sessions whose streams the tab wants), answered by a `ServerFrame` response with the same
 * id; a host event goes as an event frame to every socket that wants it (core/api/session-watch.ts). A frame that is not a well-formed request gets an `invalidInput` answer and nothing
 * else happens. A socket that stops reading is dropped rather than buffered without end: the
 * renderer reconnects and rebuilds its state from main.
 */
import type { RawData } from 'ws';
import type { ClientFrame, HostEvent, Response, ServerFrame } from '../../shared/contract';
import type { Dispatch } from '../core/api/dispatch';
import { SessionWatch } from '../core/api/session-watch';
import { encodeWithRawEvents } from '../core/api/raw-events';

/** Well above the largest valid request (a 500 000-character prompt, escaped). */
export const FRAME_LIMIT_BYTES = 8 * 1024 * 1024;
/** Frames above this close the socket (1009) before they are read into memory whole. */
export const SOCKET_PAYLOAD_LIMIT_BYTES = 2 * FRAME_LIMIT_BYTES;
/** Unsent bytes a socket may hold before it is dropped as too slow. */
export const BUFFERED_LIMIT_BYTES = 16 * 1024 * 1024;

const OPEN = 1;
const FRAME_KEYS = new Set(['type', 'id', 'name', 'input']);
const WATCH_KEYS = new Set(['type', 'id', 'input']);

/** What the fan-out needs of a socket; `ws`'s WebSocket has it. */
export interface PeerSocket {
  readonly readyState: number;
  readonly bufferedAmount: number;
  send(data: string): void;
  terminate(): void;
}

export type ParsedFrame = { ok: true; frame: ClientFrame } | { ok: false; id: number; message: string };

function byteLength(data: RawData): number {
  if (Array.isArray(data)) return data.reduce((total, part) => total + part.length, 0);
  return data.byteLength;
}

function text(data: RawData): string {
  if (Array.isArray(data)) return Buffer.concat(data).toString('utf8');
  return Buffer.from(data as ArrayBuffer).toString('utf8');
}

const isRequestId = (value: unknown): value is number => typeof value === 'number' && Number.isSafeInteger(value) && value >= 0;

export function parseClientFrame(data: RawData, isBinary: boolean): ParsedFrame {
  const size = byteLength(data);
  if (size > FRAME_LIMIT_BYTES) return { ok: false, id: -1, message: `frame of ${size} bytes is over the ${FRAME_LIMIT_BYTES}-byte limit` };
  if (isBinary) return { ok: false, id: -1, message: 'frames must be text (JSON), not binary' };
  let value: unknown;
  try {
    value = JSON.parse(text(data));
  } catch {
    return { ok: false, id: -1, message: 'frame is not JSON' };
  }
  if (typeof value !== 'object' || value === null || Array.isArray(value)) {
    return { ok: false, id: -1, message: "frame must be an object {type: 'request', id, name, input}" };
  }
  const frame = value as Record<string, unknown>;
  const id = isRequestId(frame.id) ? frame.id : -1;
  const fail = (message: string): ParsedFrame => ({ ok: false, id, message });
  if (frame.type !== 'request' && frame.type !== 'watch') return fail("frame.type must be 'request' or 'watch'");
  if (!isRequestId(frame.id)) return fail('frame.id must be a whole number of at least 0');
  if (frame.type === 'watch') {
    const extra = Object.keys(frame).find((key) => !WATCH_KEYS.has(key));
    if (extra !== undefined) return fail(`frame has an unknown field ${JSON.stringify(extra.slice(0, 80))}`);
    return { ok: true, frame: { type: 'watch', id: frame.id, input: frame.input } };
  }
  if (typeof frame.name !== 'string') return fail('frame.name must be a request name (a string)');
  const extra = Object.keys(frame).find((key) => !FRAME_KEYS.has(key));
  if (extra !== undefined) return fail(`frame has an unknown field ${JSON.stringify(extra.slice(0, 80))}`);
  return { ok: true, frame: { type: 'request', id: frame.id, name: frame.name, input: frame.input } };
}

export function errorFrame(id: number, message: string): ServerFrame {
  return { type: 'response', id, response: { ok: false, error: { code: 'invalidInput', message } } };
}

/** Every open socket with the sessions it watches, and the one way anything is sent to them. */
export class Peers {
  private readonly sockets = new Map<PeerSocket, SessionWatch>();

  constructor(private readonly log: (message: string) => void) {}

  get size(): number {
    return this.sockets.size;
  }

  add(socket: PeerSocket): SessionWatch {
    const watch = new SessionWatch();
    this.sockets.set(socket, watch);
    return watch;
  }

  delete(socket: PeerSocket): void {
    this.sockets.delete(socket);
  }

  /** Stored events in an answer go out as their stored text (core/api/raw-events.ts). */
  send(socket: PeerSocket, frame: ServerFrame): void {
    this.deliver(socket, encodeWithRawEvents(frame));
  }

  /** Serialized once, for the sockets that want it. */
  broadcast(event: HostEvent): void {
    let data: string | undefined;
    for (const [socket, watch] of this.sockets) {
      if (!watch.wants(event)) continue;
      data ??= JSON.stringify({ type: 'event', event } satisfies ServerFrame);
      this.deliver(socket, data);
    }
  }

  private deliver(socket: PeerSocket, data: string): void {
    if (socket.readyState !== OPEN) return;
    if (socket.bufferedAmount > BUFFERED_LIMIT_BYTES) {
      this.log(`dropped a browser connection that stopped reading (${socket.bufferedAmount} bytes unsent); it can reconnect`);
      this.sockets.delete(socket);
      socket.terminate();
      return;
    }
    socket.send(data);
  }
}

/** Answers one frame; never rejects. `watch`: the socket's own, which a watch frame sets. */
export async function answerFrame(data: RawData, isBinary: boolean, dispatch: Dispatch, watch?: SessionWatch): Promise<ServerFrame> {
  const parsed = parseClientFrame(data, isBinary);
  if (!parsed.ok) return errorFrame(parsed.id, parsed.message);
  if (parsed.frame.type === 'watch') {
    const response = watch ? watch.set(parsed.frame.input) : { ok: false as const, error: { code: 'unknownRequest' as const, message: 'this connection cannot watch sessions' } };
    return { type: 'response', id: parsed.frame.id, response };
  }
  let response: Response;
  try {
    response = await dispatch(parsed.frame.name, parsed.frame.input, { rawEvents: true });
  } catch (error) {
    response = { ok: false, error: { code: 'failed', message: (error as Error)?.message ?? String(error) } };
  }
  return { type: 'response', id: parsed.frame.id, response };
}
