/**
 * The handlers behind every contract request, shared by the desktop and the browser host. They
 * go through the session manager for everything that touches a session, so both hosts and the
 * CLI see the same sessions, events and prompts.
 */
import { homedir } from 'node:os';
import type { SessionSummary, SettingsView } from '../../../shared/contract';
import type { RuleProvider } from '../permissions/rule-provider';
import type { McpRegistry } from '../mcp/mcp-registry';
import { EMPTY_CATALOG, modelChoices, type ModelCatalog } from '../agent/model-catalog';
import { priceRow } from '../agent/pricing';
import type { SessionManager } from '../sessions/session-manager';
import type { SessionRecord } from '../store';
import { readAppSettings, writeAppSettings } from '../settings/app-settings';
import { readWorkspaceSettings, sessionDefaults } from '../settings/workspace-settings';
import { resolveApiKey, type ApiKeyVault } from './api-key';
import { ApiError, type Handlers } from './dispatch';
import { currentShell } from '../tools/shell-choice';
import { workspaceToReveal } from './reveal-folder';
import { checkWorkspace, completeFolders } from './workspace-paths';
import { approvalHandlers } from '../hooks/approval-handlers';
import { createPromptHandlers } from './prompt-handlers';
import { createRewindHandlers } from './rewind-handlers';
import { createReviewHandlers } from './review-handlers';

import { createWorktreeHandlers } from './worktree-handlers';
import { createWorktreeSession, WorktreeError } from '../worktrees';
import { sessionLogHandlers } from './session-log-handlers';
import { hostSandboxNotice } from '../bash-sandbox';
import { checkRuleText } from '../permissions/rule-provider';
import { checkApiKey } from './api-key-check';

export interface HostContext {
  manager: SessionManager;
  dataDir: string;
  host: 'desktop' | 'browser';
  version: string;
  vault: ApiKeyVault;
  rules?: RuleProvider;
  mcp?: McpRegistry;
  /** Where runs send requests (ANTHROPIC_BASE_URL); a key is checked there. */
  apiBaseURL?: string;
  /** The model catalog (model-catalog.ts); Settings lists its models. */
  models?: () => Promise<ModelCatalog>;
  /** Emits `sessionDeleted` to every window. */
  onDeleted(sessionId: string): void;
  /** Shows a folder in the OS file manager; only hosts on the person's own desktop have one. */
  revealFolder?(path: string): void;
  log(message: string): void;
}

export function summarize(manager: SessionManager, record: SessionRecord): SessionSummary {
  return {
    id: record.id,
    title: record.title,
    workspaces: record.workspaces,
    model: record.model,
    costKnown: priceRow(record.model) !== undefined,
    permissionMode: record.permissionMode,
    status: record.status,
    createdAt: record.createdAt,
    updatedAt: record.updatedAt,
    usage: record.usage,
    costUsd: record.costUsd,
    pendingPermissions: manager.pendingPermissions(record.id).length,
    lastError: manager.lastError(record.id),
    persona: manager.persona(record.id),
  };
}

export function createHandlers(context: HostContext): Handlers {
  const { manager } = context;
  const store = manager.store;
  const summary = (record: SessionRecord) => summarize(manager, record);
  const requireSession = (sessionId: string) => {
    const record = store.getSession(sessionId);
    if (!record) throw ApiError.notFound(`no session with id ${sessionId}`);
    return record;
  };
  /** A rule edit that fails (a malformed file, a rule gone meanwhile) answers its reason; the file is left as it was. */
  const editRules = (edit: (rules: RuleProvider) => void) => {
    if (!context.rules) throw ApiError.notFound('this host has no editable rules');
    try {
      edit(context.rules);
    } catch (error) {
      throw ApiError.invalid((error as Error).message);
    }
  };
  const settingsView = (workspace?: string): SettingsView => {
    const problems: string[] = [];
    let app = { model: '', defaultMode: 'default' as string };
    try {
      app = readAppSettings(context.dataDir);
    } catch (error) {
      problems.push((error as Error).message);
    }
    // Windows: a chosen shell that is missing (windowsShell), so the person learns of the fallback.
    const shellProblem = currentShell().problem;
    if (shellProblem) problems.push(shellProblem);
    try {
      problems.push(...readWorkspaceSettings({ coveHome: context.dataDir, workspaceRoots: workspace ? [workspace] : [] }).warnings());
    } catch {
      // A file that cannot be parsed is one of the rules' problems below, named there.
    }
    const rules = context.rules?.sources(workspace) ?? { sources: [], problems: [] };
    return {
      model: app.model,
      permissionMode: app.defaultMode,
      apiKey: resolveApiKey(context.vault).source,
      ...(context.vault.storage ? { apiKeyStorage: context.vault.storage() } : {}),
      ruleSources: rules.sources,
      problems: [...problems, ...rules.problems],
    };
  };

  return {
    'app:info': async () => ({
      version: context.version,
      host: context.host,
      platform: process.platform,
      homeDir: homedir(),
      canReveal: context.revealFolder !== undefined,
      sandboxNotice: await hostSandboxNotice(context.dataDir),
    }),

    'workspace:reveal': ({ sessionId, path }) => {
      const reveal = context.revealFolder;
      if (!reveal) throw new ApiError('failed', 'This host cannot show folders: only the desktop app has a file manager to open');
      reveal(workspaceToReveal(requireSession(sessionId).workspaces, path));
      return { revealed: true as const };
    },
    'session:list': ({ limit, before }) => store.listSessions({ limit: limit ?? 500, before }).map(summary),
    'session:create': async ({ workspaces, title, model, permissionMode, worktree }) => {
      const checked = await Promise.all(workspaces.map(checkWorkspace));
      const roots = [...new Set(checked.map((w) => w.path))];
      // The same choice `cove run` makes for these workspaces; a malformed settings file is named in the answer.
      const defaults = sessionDefaults(readWorkspaceSettings({ coveHome: context.dataDir, workspaceRoots: roots }), { model, permissionMode });
      if (worktree) {
        try {
          return summary((await createWorktreeSession(manager, context.dataDir, { workspaces: roots, title, ...defaults })).session);
        } catch (error) {
          if (error instanceof WorktreeError) throw ApiError.invalid(error.message);
          throw error;
        }
      }
      const record = manager.createSession({ workspaces: roots, title, ...defaults });
      return summary(record);
    },
    ...sessionLogHandlers(manager, requireSession, summary),
    ...createRewindHandlers(manager, context.dataDir),
    ...createReviewHandlers(manager, context.dataDir),

    ...createWorktreeHandlers(manager, context.dataDir),
    ...createPromptHandlers(
      manager,
      context.dataDir,
      () => {
        if (resolveApiKey(context.vault).source === 'missing') {
          throw new ApiError('noApiKey', 'No API key: add your Anthropic API key in Settings, or set ANTHROPIC_API_KEY before starting Cove');
        }
      },
      context.log,
    ),
    'session:stop': ({ sessionId }) => {
      requireSession(sessionId);
      return { stopped: manager.stop(sessionId) };
    },
    'session:rename': ({ sessionId, title }) => summary(manager.updateSession(sessionId, { title })),
    'session:delete': ({ sessionId }) => {
      requireSession(sessionId);
      if (manager.isRunning(sessionId)) throw ApiError.conflict('the session is running; stop it before deleting it');
      const deleted = manager.deleteSession(sessionId);
      if (deleted) context.onDeleted(sessionId);
      return { deleted };
    },
    'session:search': ({ text }) => store.search(text, { limit: 50 }),
    'session:addWorkspace': async ({ sessionId, path }) => {
      const record = requireSession(sessionId);
      const { path: real } = await checkWorkspace(path);
      if (record.workspaces.includes(real)) return summary(record);
      return summary(manager.updateSession(sessionId, { workspaces: [...record.workspaces, real] }));
    },
    'session:setMode': ({ sessionId, permissionMode }) => summary(manager.updateSession(sessionId, { permissionMode })),

    'workspace:check': ({ path }) => checkWorkspace(path),
    'workspace:complete': async ({ prefix }) => ({ folders: await completeFolders(prefix) }),

    'permission:answer': ({ sessionId, requestId, decision, scope, rule, reason }) => {
      requireSession(sessionId);
      const answered = manager.answerPermission(
        sessionId,
        requestId,
        decision === 'allow' ? { decision: 'allow', scope: scope ?? 'once', ...(rule ? { rule } : {}) } : { decision: 'deny', ...(reason ? { reason } : {}) },
      );
      if (!answered) throw ApiError.notFound(`no waiting permission request ${requestId} in session ${sessionId}`);
      return { answered };
    },
    'permission:pending': () => manager.pendingPermissions(),

    'settings:get': ({ workspace }) => settingsView(workspace),
    'models:list': async () => modelChoices((await context.models?.()) ?? EMPTY_CATALOG),
    'settings:update': ({ model, permissionMode }) => {
      writeAppSettings(context.dataDir, { model, defaultMode: permissionMode });
      return settingsView();
    },
    'settings:setApiKey': ({ apiKey, unprotectedFile }) => {
      context.vault.set(apiKey, { unprotectedFile: unprotectedFile === true });
      return settingsView();
    },
    'settings:removeRule': ({ workspace, file, list, rule }) => {
      editRules((rules) => rules.remove({ file: file ?? 'local', list, rule, ...(workspace ? { workspace } : {}) }));
      return settingsView(workspace);
    },
    'settings:saveRule': ({ workspace, file, list, rule, replaces }) => {
      editRules((rules) => rules.save({ file, list, rule, ...(workspace ? { workspace } : {}), ...(replaces ? { replaces } : {}) }));
      return settingsView(workspace);
    },
    'settings:checkRule': ({ rule }) => checkRuleText(rule),
    'settings:checkApiKey': ({ apiKey }) => checkApiKey(apiKey, context.apiBaseURL),

    'mcp:status': async ({ workspace }) => {
      if (!context.mcp) throw ApiError.notFound('this host runs no MCP servers');
      const { path } = await checkWorkspace(workspace);
      return context.mcp.status(path);
    },

    ...approvalHandlers({ dataDir: context.dataDir, mcp: context.mcp }),

    'persona:list': ({ sessionId }) => {
      requireSession(sessionId);
      const { personas, problems } = manager.availablePersonas(sessionId);
      return { personas: personas.map(({ name, description, tools }) => ({ name, description, tools })), active: manager.persona(sessionId), problems };
    },
    'session:setPersona': ({ sessionId, persona }) => {
      requireSession(sessionId);
      try {
        manager.setPersona(sessionId, persona);
      } catch (error) {
        throw ApiError.invalid((error as Error).message);
      }
      return summary(requireSession(sessionId));
    },

    'subagent:cancel': ({ sessionId, subagentId }) => {
      requireSession(sessionId);
      if (!manager.cancelSubagent(sessionId, subagentId)) throw ApiError.notFound(`no running subagent ${subagentId} in session ${sessionId}`);
      return { cancelled: true };
    },
  };
}
