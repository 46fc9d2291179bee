/**
 * The one composition root of Cove's core: the store, the settings module, the session manager
 * with the built-in tools, MCP hubs, hooks, secrets, the model catalog and the permission gate
 * of each session. The desktop app and `cove serve` (through api/host.ts) and `cove run` all
 * call `createEngine`; what differs between them comes in as options (how to build the API
 * client, whether anyone can answer an ask, the rules of the command line), so two hosts given
 * the same workspace and settings files decide the same.
 */
import type Anthropic from '@anthropic-ai/sdk';
import { catalogSource, type ModelCatalog } from '../agent/model-catalog';
import { retryFromEnv } from '../agent/retry';
import { probeSandbox, unsandboxedReason } from '../bash-sandbox';
import { hookSandbox } from '../hooks/hook-sandbox';
import { hostHooks } from '../hooks/host-hooks';
import { McpRegistry } from '../mcp/mcp-registry';
import { createSessionGate } from '../permissions/session-gate';
import type { PermissionMode } from '../permissions/rule-syntax';
import type { RuleLists } from '../permissions/settings';
import { SessionManager } from '../sessions/session-manager';
import { DEFAULT_MAX_SUBAGENTS } from '../settings/app-settings';
import { readWorkspaceSettings, sessionDefaults, type SessionDefaults, type WorkspaceSettings } from '../settings/workspace-settings';
import { openStore, type SessionRecord, type Store } from '../store';
import { builtinTools, workspaceSecrets } from '../tools/registry';
import { allowedHostsOf } from '../web-fetch/allowed-hosts';
import { checkpointsFor } from '../checkpoints';

export interface EngineOptions {
  /** COVE_HOME: the store, the person's settings.json, approvals, caches. */
  dataDir: string;
  /** Builds the Messages API client; throws a clear error when it cannot (no API key). */
  createClient(): Anthropic;
  /**
   * Nobody can answer a permission prompt (`cove run`): a call that would ask is denied with the
   * reason and the rule that would allow it, instead of waiting for a window.
   */
  headless?: boolean;
  /** Rules of this process on top of every settings file (`cove run --allow/--ask/--deny`). */
  rules?: Partial<RuleLists>;
  /** A better_sqlite3.node built for the running ABI (the desktop app's Electron); see StoreOptions. */
  nativeBinding?: string;
  log(message: string): void;
}

export interface Engine {
  store: Store;
  manager: SessionManager;
  mcp: McpRegistry;
  models(): Promise<ModelCatalog>;
  /** Every settings file of these workspaces, read now; each view throws `SettingsFileError` naming a bad file. */
  settings(workspaces: readonly string[]): WorkspaceSettings;
  /** The model and mode of a new session in these workspaces: what was asked for, else what the settings say. */
  defaults(workspaces: readonly string[], asked?: { model?: string; permissionMode?: PermissionMode }): SessionDefaults;
  /** Stops every run, closes MCP servers (they run in their own process groups), then the store. */
  close(): Promise<void>;
}

export function createEngine(options: EngineOptions): Engine {
  const { dataDir, log } = options;
  // Read before the store opens: a bad COVE_MAX_RETRIES fails with nothing to close.
  const retry = retryFromEnv();
  // The sandbox check runs a bwrap in the background: start-up goes on, the first bash call waits for it.
  void probeSandbox();
  const store = openStore(dataDir, options.nativeBinding ? { nativeBinding: options.nativeBinding } : {});
  const mcp = new McpRegistry(dataDir, log);
  const models = catalogSource({ client: options.createClient, coveHome: dataDir, log });
  const settings = (workspaces: readonly string[]) => readWorkspaceSettings({ coveHome: dataDir, workspaceRoots: workspaces });
  // A malformed file is reported where it stops something (`cove run` before its run, session
  // creation and Settings in the app), once; here the defaults apply meanwhile.
  const quietly = <T>(read: () => T, fallback: T): T => {
    try {
      return read();
    } catch {
      return fallback;
    }
  };
  // Rejects when `secrets.files` is malformed: the run then ends naming the file, rather than redacting less.
  const secrets = async (session: SessionRecord) => workspaceSecrets(session.workspaces, log, settings(session.workspaces).secretFiles());
  const manager: SessionManager = new SessionManager({
    store,
    createClient: options.createClient,
    modelCatalog: models,
    tools: (session) => builtinTools({ webFetch: { allowedHosts: allowedHostsOf(session.workspaces, dataDir, options.rules?.allow ?? [], log) } }),
    toolSources: (session) => mcp.sourcesFor(session.workspaces),
    subagentLimits: { maxConcurrent: quietly(() => settings([]).maxSubagents(), DEFAULT_MAX_SUBAGENTS) },
    retry,
    secrets,
    // The session's one secret set (session-secrets.ts), closed with the session.
    hooks: hostHooks({ coveHome: dataDir, secrets: async (session) => manager.secretsOf(session.id), wrap: hookSandbox(dataDir), log }),
    // Throws `SettingsFileError` when a settings file is malformed: the run does not start.
    permissionGate: (session, prompter) =>
      createSessionGate({
        workspaces: session.workspaces,
        mode: session.permissionMode,
        coveHome: dataDir,
        store,
        settings: settings(session.workspaces).permissions().sources,
        ...(options.rules ? { extraRules: options.rules } : {}),
        // Asks go to whoever is looking: every window and tab sees the prompt and any may answer.
        ...(options.headless ? {} : { prompter }),
        // The session's own secret set, so the audit hides its file values too.
        redactor: manager.redactorOf(session.id),
        hooks: manager.hooksFor(session),
        bashUnsandboxed: () => unsandboxedReason({ workspaceRoots: session.workspaces, coveHome: dataDir }),
        bashSandboxKnown: () => probeSandbox(),
      }),
    // Checkpoints before mutating calls (SPEC §13); a host that stays up starts a first copy early.
    checkpoints: checkpointsFor(dataDir, store, { warmUp: !options.headless }),
    log,
  });
  return {
    store,
    manager,
    mcp,
    models,
    settings,
    defaults: (workspaces, asked = {}) => sessionDefaults(settings(workspaces), asked),
    async close() {
      try {
        await manager.stopAll();
        await mcp.closeAll();
      } finally {
        store.close();
      }
    },
  };
}
