/**
 * Everything a host (the desktop window or `cove serve`) needs behind the contract, wired once:
 * the store, the session manager with the built-in tools, secrets and permission gate, the
 * dispatcher of requests and the stream of host events. Hosts add only their transport.
 */
import type { HostEvent } from '../../../shared/contract';
import { createClient } from '../agent/client';
import { retryFromEnv } from '../agent/retry';
import { catalogSource } from '../agent/model-catalog';
import { SessionManager } from '../sessions/session-manager';
import { openStore, type Store } from '../store';
import { builtinTools, workspaceSecrets } from '../tools/registry';
import { allowedHostsOf } from '../web-fetch/allowed-hosts';
import { resolveApiKey, type ApiKeyVault } from './api-key';
import { createDispatcher, type Dispatch } from './dispatch';
import { createHandlers } from './handlers';
import { createRuleProvider, createSessionGate } from '../permissions';
import { SecretSet } from '../secrets';
import { unsandboxedReason } from '../bash-sandbox';
import { McpRegistry } from '../mcp/mcp-registry';
import { readAppSettings } from '../settings/app-settings';
import { streamHostEvents } from './host-events';
import { hostHooks } from '../hooks/host-hooks';
import { hookSandbox } from '../hooks/hook-sandbox';
import { checkpointsFor } from '../checkpoints';

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

/** The configured subagent limit; a broken settings file is reported in Settings and the default applies here. */
function maxSubagents(dataDir: string, log: (message: string) => void): number {
  try {
    return readAppSettings(dataDir).maxSubagents;
  } catch (error) {
    log((error as Error).message);
    return 4;
  }
}

export function createHost(options: HostOptions): Host {
  const store = openStore(options.dataDir, { nativeBinding: options.nativeBinding });
  const mcp = new McpRegistry(options.dataDir, options.log);
  const client = () => {
    const { apiKey, authToken } = resolveApiKey(options.vault);
    return createClient({ apiKey, authToken, baseURL: process.env.ANTHROPIC_BASE_URL || undefined });
  };
  const models = catalogSource({ client, coveHome: options.dataDir, log: options.log });
  const manager = new SessionManager({
    store,
    createClient: client,
    modelCatalog: models,
    tools: (session) => builtinTools({ webFetch: { allowedHosts: allowedHostsOf(session.workspaces, options.dataDir, [], options.log) } }),
    toolSources: (session) => mcp.sourcesFor(session.workspaces),
    subagentLimits: { maxConcurrent: maxSubagents(options.dataDir, options.log) },
    retry: retryFromEnv(),
    secrets: (session) => workspaceSecrets(session.workspaces, options.log),
    hooks: hostHooks({ coveHome: options.dataDir, secrets: (session) => workspaceSecrets(session.workspaces, options.log), wrap: hookSandbox(options.dataDir), log: options.log }),
    // Asks go to whoever is looking: every window and tab sees the prompt and any may answer.
    permissionGate: (session, prompter) =>
      createSessionGate({
        workspaces: session.workspaces,
        mode: session.permissionMode,
        coveHome: options.dataDir,
        store,
        prompter,
        redactor: new SecretSet(),
        hooks: manager.hooksFor(session),
        bashUnsandboxed: () => unsandboxedReason({ workspaceRoots: session.workspaces, coveHome: options.dataDir }),
      }),
    checkpoints: checkpointsFor(options.dataDir, store, { warmUp: true }),
    log: options.log,
  });
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
    mcp,
    models,
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
      await manager.stopAll();
      await mcp.closeAll();
      stopStreaming();
      store.close();
    },
  };
}
