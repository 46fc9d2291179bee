/**
 * The desktop host: the preload exposes `window.cove` through contextBridge — one function per
 * request name (`window.cove['session:list'](input)`), `onEvent(listener)` returning an
 * unsubscribe, `watch({sessionIds})` for the sessions whose streams the page wants, `pathForFile(file)` (webUtils.getPathForFile, '' when a file has no path) for
 * dropped files, and `onMenuCommand(listener)` for the native menu.
 */
import type { CoveApi, HostEvent, Response } from '../../shared/contract';
import { apiFrom, failure, type Transport } from './types';

type Bridge = Record<string, unknown> & {
  onEvent(listener: (event: HostEvent) => void): () => void;
  watch?: CoveApi['watch'];
  pathForFile?: (file: File) => string;
  onMenuCommand?: (listener: (command: string) => void) => () => void;
};

export function hasElectronBridge(): boolean {
  return 'cove' in window && typeof (window as unknown as { cove: unknown }).cove === 'object';
}

export function createElectronTransport(): Transport {
  const bridge = (window as unknown as { cove: Bridge }).cove;
  const call = async (name: string, input: unknown): Promise<Response> => {
    const method = bridge[name];
    if (typeof method !== 'function') return failure(`The desktop host does not offer ${name}; update Cove.`, 'unknownRequest');
    try {
      return (await method(input)) as Response;
    } catch (error) {
      return failure(`${name} failed in the desktop host: ${(error as Error)?.message ?? String(error)}`);
    }
  };
  const onEvent: CoveApi['onEvent'] = (listener) => bridge.onEvent(listener);
  const watch: CoveApi['watch'] = async (input) => {
    if (typeof bridge.watch !== 'function') return failure('The desktop host cannot scope its streams; update Cove.', 'unknownRequest');
    try {
      return await bridge.watch(input);
    } catch (error) {
      return failure(`watch failed in the desktop host: ${(error as Error)?.message ?? String(error)}`);
    }
  };
  const pathForFile = bridge.pathForFile;
  const onMenuCommand = bridge.onMenuCommand;
  return {
    kind: 'electron',
    api: apiFrom(call, onEvent, watch),
    onConnection(listener) {
      listener({ status: 'open', reconnected: false });
      return () => {};
    },
    pathForFile: pathForFile
      ? (file) => {
          try {
            return pathForFile(file) || null;
          } catch {
            return null;
          }
        }
      : null,
    onMenuCommand: onMenuCommand ? (listener) => onMenuCommand(listener) : null,
  };
}
