/**
 * `cove run`: one headless run. Checks everything it can before any request is sent (flags,
 * workspaces, API key, the session to resume), then runs through the session manager and
 * prints its events. Ctrl-C stops the run cleanly (tools killed, session saved); a second
 * Ctrl-C exits at once.
 */
import { realpathSync, statSync } from 'node:fs';
import { resolve } from 'node:path';
import type { CoveEvent } from '../../shared/events';
import { createClient, settingsFromEnv } from '../core/agent/client';
import { DEFAULT_MODEL } from '../core/agent/pricing';
import { catalogSource } from '../core/agent/model-catalog';
import { retryFromEnv } from '../core/agent/retry';
import { createSessionGate, loadPermissionSettings } from '../core/permissions';
import { sandboxNotice, unsandboxedReason } from '../core/bash-sandbox';
import { SecretSet } from '../core/secrets';
import { McpRegistry } from '../core/mcp/mcp-registry';
import { readAppSettings } from '../core/settings/app-settings';
import { SessionManager } from '../core/sessions/session-manager';
import { defaultDataDir, openStore, type SessionRecord, type Store } from '../core/store';
import { builtinTools, workspaceSecrets } from '../core/tools/registry';
import { allowedHostsOf } from '../core/web-fetch/allowed-hosts';
import { sendCliPrompt } from './prompt-input';
import { UsageError, type RunArgs } from './args';
import { BufferedWriter, humanPrinter, jsonPrinter, NOT_A_TERMINAL } from './output';
import { EXIT } from './exit-codes';
import { hostHooks, unapprovedNotice } from '../core/hooks/host-hooks';
import { hookSandbox } from '../core/hooks/hook-sandbox';
import { loadHooks } from '../core/hooks/hook-config';
import { checkpointsFor } from '../core/checkpoints';


function workspaceDir(path: string): string {
  const absolute = resolve(path);
  let stats;
  try {
    stats = statSync(absolute);
  } catch {
    throw new UsageError(`cove run: --workspace ${path}: no such folder`);
  }
  if (!stats.isDirectory()) throw new UsageError(`cove run: --workspace ${path}: not a folder`);
  return realpathSync(absolute);
}


function chooseSession(store: Store, args: RunArgs, defaultMode: string): SessionRecord {
  if (args.resume) {
    const session = store.getSession(args.resume);
    if (!session) throw new UsageError(`cove run: --resume ${args.resume}: no such session (see cove sessions)`);
    return session;
  }
  const workspaces = (args.workspaces.length > 0 ? args.workspaces : [process.cwd()]).map(workspaceDir);
  if (args.continue) {
    const session = store.latestSessionForWorkspace(workspaces[0]!);
    if (!session) throw new UsageError(`cove run: --continue: no earlier session in ${workspaces[0]}`);
    return session;
  }
  return store.createSession({ workspaces, model: args.model ?? DEFAULT_MODEL, permissionMode: args.permissionMode ?? defaultMode });
}

export async function runCommand(args: RunArgs): Promise<number> {
  const clientSettings = settingsFromEnv();
  // Fail before opening anything when no request could be sent anyway.
  createClient(clientSettings);
  const retry = retryFromEnv();
  if (!args.resume) args.workspaces.forEach(workspaceDir);

  const dataDir = defaultDataDir();
  const store = openStore(dataDir);
  const out = new BufferedWriter(process.stdout);
  const err = new BufferedWriter(process.stderr);
  const mcp = new McpRegistry(dataDir, (message) => err.write(`cove: ${message}\n`));
  try {
    const manager = new SessionManager({
      store,
      createClient: () => createClient(clientSettings),
      tools: (session) => builtinTools({ webFetch: { allowedHosts: allowedHostsOf(session.workspaces, dataDir, args.allow) } }),
      toolSources: (session) => mcp.sourcesFor(session.workspaces),
      subagentLimits: { maxConcurrent: readAppSettings(dataDir).maxSubagents },
      secrets: (session) => workspaceSecrets(session.workspaces, (message) => err.write(`cove: ${message}\n`)),
      retry,
      hooks: hostHooks({
        coveHome: dataDir,
        secrets: (session) => workspaceSecrets(session.workspaces, (message) => err.write(`cove: ${message}\n`)),
        wrap: hookSandbox(dataDir),
      }),
      modelCatalog: catalogSource({ client: () => createClient(clientSettings), coveHome: dataDir, log: (message) => err.write(`cove: ${message}\n`) }),
      checkpoints: checkpointsFor(dataDir, store),
      log: (message) => err.write(`cove: ${message}\n`),
    });
    const explicit = args.resume ? undefined : (args.workspaces.length > 0 ? args.workspaces : [process.cwd()]).map(workspaceDir);
    // A malformed settings file stops the run here, naming the file: never run as if it were empty.
    const settings = loadPermissionSettings({ workspaceRoots: explicit ?? store.getSession(args.resume!)?.workspaces ?? [], coveHome: dataDir });
    for (const warning of settings.warnings) err.write(`cove: ${warning}\n`);
    const hookWarnings: string[] = [];
    loadHooks(dataDir, explicit ?? store.getSession(args.resume!)?.workspaces ?? [], hookWarnings);
    for (const warning of hookWarnings) err.write(`cove: ${warning}\n`);
    // Said once, before the run: a bash sandbox that cannot run (or a host list it cannot honour) never degrades silently.
    const notice = sandboxNotice({ workspaceRoots: explicit ?? store.getSession(args.resume!)?.workspaces ?? [], coveHome: dataDir });
    if (notice) err.write(`cove: ${notice}\n`);
    const session = chooseSession(store, args, settings.defaultMode ?? 'default');
    const sandboxSettings = { workspaceRoots: session.workspaces, coveHome: dataDir };
    const patch = { ...(args.model && args.model !== session.model ? { model: args.model } : {}), ...(args.permissionMode ? { permissionMode: args.permissionMode } : {}) };
    if (Object.keys(patch).length > 0) manager.updateSession(session.id, patch);
    const gate = createSessionGate({
      workspaces: session.workspaces,
      mode: args.permissionMode ?? session.permissionMode,
      coveHome: dataDir,
      store,
      settings: settings.sources,
      extraRules: { allow: args.allow, ask: args.ask, deny: args.deny },
      redactor: new SecretSet(),
      hooks: manager.hooksFor(session),
      bashUnsandboxed: () => unsandboxedReason(sandboxSettings),
    });
    for (const line of unapprovedNotice(dataDir, session.workspaces)) err.write(`cove: ${line}\n`);

    const print: (event: CoveEvent) => void = args.json ? jsonPrinter(out) : humanPrinter(out, err, process.stdout.isTTY ? { columns: () => process.stdout.columns || 80 } : NOT_A_TERMINAL);
    const unsubscribe = manager.subscribe(print);
    let interrupts = 0;
    const onInterrupt = () => {
      interrupts++;
      if (interrupts > 1) {
        out.flush();
        err.flush();
        process.exit(EXIT.stopped);
      }
      err.write('cove: stopping… (Ctrl-C again to quit at once)\n');
      err.flush();
      manager.stop(session.id);
    };
    process.on('SIGINT', onInterrupt);
    process.on('SIGTERM', onInterrupt);
    try {
      const sent = await sendCliPrompt(manager, session.id, args, dataDir, { maxTurns: args.maxTurns, middleware: [gate] }, (line) => err.write(`${line}\n`));
      if (sent.kind === 'failed') {
        err.write(`cove: ${sent.message}\n`);
        return EXIT.usage;
      }
      if (sent.kind === 'answer') {
        // With --json the answer is already out, in the command's userMessage event.
        if (!args.json) out.write(`${sent.text}\n`);
        return EXIT.ok;
      }
      const outcome = await sent.run!;
      out.flush();
      if (!args.json) err.write(`session ${session.id}\n`);
      if (outcome.stopReason === 'endTurn') return EXIT.ok;
      if (outcome.stopReason === 'aborted') {
        err.write(`cove: stopped; session ${session.id} is saved (cove run --resume ${session.id} to continue)\n`);
        return EXIT.stopped;
      }
      err.write(`cove: ${outcome.error ?? outcome.stopReason}\n`);
      return EXIT.failed;
    } finally {
      unsubscribe();
      process.off('SIGINT', onInterrupt);
      process.off('SIGTERM', onInterrupt);
    }
  } finally {
    // MCP servers run in their own process groups: Ctrl-C does not reach them, so close them here.
    await mcp.closeAll();
    out.flush();
    err.flush();
    store.close();
  }
}
