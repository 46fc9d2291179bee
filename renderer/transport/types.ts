/** What the rest of the renderer knows about the connection to main, whichever host it is. */
import type { CoveApi, Response } from '../../shared/contract';

export type ConnectionState =
  | { status: 'connecting' }
  | { status: 'open'; reconnected: boolean }
  | { status: 'reconnecting'; attempt: number; retryInMs: number; reason: string }
  | { status: 'failed'; message: string };

export interface Transport {
  kind: 'electron' | 'websocket';
  api: CoveApi;
  onConnection(listener: (state: ConnectionState) => void): () => void;
  /** The path of a dropped File when the host can tell (Electron's preload); null in a browser. */
  pathForFile: ((file: File) => string | null) | null;
  /** Commands from the desktop app's native menu (e.g. 'newSession'); absent in a browser. */
  onMenuCommand: ((listener: (command: string) => void) => () => void) | null;
}

/** A request as the transports send it: by name, with its input unchecked here (main checks). */
export type RawCall = (name: string, input: unknown) => Promise<Response>;

/**
 * A `CoveApi` whose methods are looked up by name, so the renderer never needs the list of
 * request names (a runtime value of the contract module, which imports zod).
 */
export function apiFrom(call: RawCall, onEvent: CoveApi['onEvent'], watch: CoveApi['watch']): CoveApi {
  return new Proxy({} as CoveApi, {
    get(_target, property) {
      if (property === 'onEvent') return onEvent;
      if (property === 'watch') return watch;
      // `then` would make the API look like a promise to `await`.
      if (typeof property !== 'string' || property === 'then') return undefined;
      return (input: unknown) => call(property, input);
    },
  });
}

export function failure(message: string, code: 'failed' | 'unknownRequest' = 'failed'): Response<never> {
  return { ok: false, error: { code, message } };
}
