/**
 * Everything a host (the desktop window or `cove serve`) needs behind the contract: the engine
 * (engine/engine.ts, the same one `cove run` uses) with asks that go to the windows, the
 * dispatcher of requests and the stream of host events. Hosts add only their transport.
 */
import type { HostEvent } from '../../../shared/contract';
import { createClient } from '../agent/client';
import { createEngine } from '../engine/engine';
import type { SessionManager } from '../sessions/session-manager';
import type { Store } from '../store';
import { resolveApiKey, type ApiKeyVault } from './api-key';
import { createDispatcher, type Dispatch } from './dispatch';
import { createHandlers } from './handlers';
import { createRuleProvider } from '../permissions';
import { streamHostEvents } from './host-events';

export interface HostOptions {
  dataDir: string;
  host: 'desktop' | 'browser';
  version: string;
  vault: ApiKeyVault;
  log(message: string): void;
  /** A better_sqlite3.node built for the running ABI (the desktop app's Electron); see StoreOptions. */
  nativeBinding?: string;
  /** Shows a folder in the OS file manager (the desktop app's shell.showItemInFolder). */
  revealFolder?(path: string): void;
}

export interface Host {
  store: Store;
  manager: SessionManager;
  dispatch: Dispatch;
  /** Every host event, from now on, until the returned function is called. */
  subscribe(listener: (event: HostEvent) => void): () => void;
  /** Stops every run, then closes the store. */
  close(): Promise<void>;
}

export function createHost(options: HostOptions): Host {
  const engine = createEngine({
    dataDir: options.dataDir,
    createClient: () => {
      const { apiKey, authToken } = resolveApiKey(options.vault);
      return createClient({ apiKey, authToken, baseURL: process.env.ANTHROPIC_BASE_URL || undefined });
    },
    ...(options.nativeBinding ? { nativeBinding: options.nativeBinding } : {}),
    log: options.log,
  });
  const { store, manager } = engine;
  const listeners = new Set<(event: HostEvent) => void>();
  const emit = (event: HostEvent) => {
    for (const listener of listeners) {
      try {
        listener(event);
      } catch (error) {
        options.log(`a host event listener failed: ${(error as Error)?.message ?? String(error)}`);
      }
    }
  };
  const stopStreaming = streamHostEvents(manager, emit);
  const handlers = createHandlers({
    manager,
    dataDir: options.dataDir,
    host: options.host,
    version: options.version,
    vault: options.vault,
    mcp: engine.mcp,
    models: engine.models,
    ...(process.env.ANTHROPIC_BASE_URL ? { apiBaseURL: process.env.ANTHROPIC_BASE_URL } : {}),
    rules: createRuleProvider(options.dataDir, () => manager.reloadPermissions()),
    onDeleted: (sessionId) => emit({ kind: 'sessionDeleted', sessionId }),
    ...(options.revealFolder ? { revealFolder: options.revealFolder } : {}),
    log: options.log,
  });
  return {
    store,
    manager,
    dispatch: createDispatcher(handlers, options.log),
    subscribe(listener) {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
    async close() {
      try {
        await engine.close();
      } finally {
        stopStreaming();
      }
    },
  };
}
