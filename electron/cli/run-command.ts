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
import { sandboxNoticeWhenKnown } from '../core/bash-sandbox';
import { createEngine, type Engine } from '../core/engine/engine';
import { defaultDataDir, type SessionRecord } from '../core/store';
import { sendCliPrompt } from './prompt-input';
import { UsageError, type RunArgs } from './args';
import { BufferedWriter, humanPrinter, jsonPrinter, terminalOf } from './output';
import { EXIT } from './exit-codes';
import { unapprovedNotice } from '../core/hooks/host-hooks';

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

async function chooseSession(engine: Engine, dataDir: string, args: RunArgs, workspaces: string[] | undefined): Promise<SessionRecord> {
  const { manager } = engine;
  if (args.resume) {
    const session = manager.getSession(args.resume);
    if (!session) throw new UsageError(`cove run: --resume ${args.resume}: no such session (see cove sessions)`);
    return session;
  }
  if (args.continue) {
    const session = manager.latestSessionForWorkspace(workspaces![0]!);
    if (!session) throw new UsageError(`cove run: --continue: no earlier session in ${workspaces![0]}`);
    return session;
  }
  // The same choice the app makes for these workspaces (engine.defaults): flags first, then settings.
  const input = { workspaces: workspaces!, ...engine.defaults(workspaces!, { model: args.model, permissionMode: args.permissionMode }) };
  if (args.worktree) {
    const { createWorktreeSession, WorktreeError } = await import('../core/worktrees');
    try {
      return (await createWorktreeSession(manager, dataDir, input)).session;
    } catch (error) {
      if (error instanceof WorktreeError) throw new UsageError(`cove run: --worktree: ${error.message}`);
      throw error;
    }
  }
  return manager.createSession(input);
}

export async function runCommand(args: RunArgs): Promise<number> {
  const clientSettings = settingsFromEnv();
  // Fail before opening anything when no request could be sent anyway.
  createClient(clientSettings);
  const explicit = args.resume ? undefined : (args.workspaces.length > 0 ? args.workspaces : [process.cwd()]).map(workspaceDir);

  const dataDir = defaultDataDir();
  const out = new BufferedWriter(process.stdout);
  const err = new BufferedWriter(process.stderr);
  const engine = createEngine({
    dataDir,
    createClient: () => createClient(clientSettings),
    headless: true,
    rules: { allow: args.allow, ask: args.ask, deny: args.deny },
    log: (message) => err.write(`cove: ${message}\n`),
  });
  const { manager } = engine;
  let noticeSaid: Promise<void> = Promise.resolve();
  try {
    const roots = explicit ?? manager.getSession(args.resume!)?.workspaces ?? [];
    // A malformed settings file stops the run here, naming the file: never run as if it were empty.
    const settings = engine.settings(roots);
    for (const warning of [...settings.warnings(), ...settings.permissions().warnings]) err.write(`cove: ${warning}\n`);
    const hookWarnings: string[] = [];
    settings.hooks(hookWarnings);
    for (const warning of hookWarnings) err.write(`cove: ${warning}\n`);
    // Checked now too: a secret glob that cannot be read must stop the run, not redact less.
    settings.secretFiles();
    // Said once, as soon as the background check answers (before any bash call, which waits for
    // it): a bash sandbox that cannot run (or a host list it cannot honour) never degrades silently.
    noticeSaid = sandboxNoticeWhenKnown({ workspaceRoots: roots, coveHome: dataDir, settings: settings.sandbox() }).then(
      (notice) => {
        if (notice) err.write(`cove: ${notice}\n`);
      },
      (error: unknown) => err.write(`cove: ${(error as Error).message}\n`),
    );
    const session = await chooseSession(engine, dataDir, args, explicit);
    if (args.worktree) err.write(`cove: session ${session.id} works in a worktree of its own, ${session.workspaces[0]} (at the end: cove sessions --merge ${session.id}, or --discard)\n`);
    const patch = { ...(args.model && args.model !== session.model ? { model: args.model } : {}), ...(args.permissionMode ? { permissionMode: args.permissionMode } : {}) };
    if (Object.keys(patch).length > 0) manager.updateSession(session.id, patch);
    for (const line of unapprovedNotice(dataDir, session.workspaces)) err.write(`cove: ${line}\n`);

    const print: (event: CoveEvent) => void = args.json ? jsonPrinter(out) : humanPrinter(out, err, await terminalOf(process.stdout));
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
      const sent = await sendCliPrompt(manager, session.id, args, dataDir, { maxTurns: args.maxTurns }, (line) => err.write(`${line}\n`));
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
    await noticeSaid;
    // MCP servers run in their own process groups: Ctrl-C does not reach them, so close them here.
    await engine.close();
    out.flush();
    err.flush();
  }
}
