/**
 * The hooks of every session a host runs, built the same way in the desktop app, `cove serve`
 * and `cove run`. Each session's hooks redact with that session's own secret scan, done once.
 */
import type { CoveEvent } from '../../../shared/events';
import type { SecretRedactor } from '../agent/types';
import type { SessionRecord } from '../store';
import type { HookWrapper } from './hook-runner';
import { SessionHooks } from './session-hooks';
import { projectItems, type ProjectItem } from './approvals';

export interface HostHooksOptions {
  coveHome: string;
  secrets(session: SessionRecord): Promise<SecretRedactor>;
  /** The bash OS sandbox's launcher for a session's hooks, when the host has one. */
  wrap?(session: SessionRecord): HookWrapper | undefined;
}

export function hostHooks(options: HostHooksOptions): (session: SessionRecord, emit: (event: CoveEvent) => void) => SessionHooks {
  return (session, emit) => {
    let secrets: Promise<SecretRedactor> | undefined;
    const wrap = options.wrap?.(session);
    return new SessionHooks({
      sessionId: session.id,
      workspaces: session.workspaces,
      coveHome: options.coveHome,
      secrets: () => (secrets ??= options.secrets(session)),
      emit,
      ...(wrap ? { wrap } : {}),
    });
  };
}

/**
 * The lines `cove run` prints once about the project hooks it did not run. Unapproved MCP
 * servers are reported by the MCP registry when the run starts, one line each, with the same
 * command to approve them.
 */
export function unapprovedNotice(coveHome: string, workspaces: readonly string[]): string[] {
  const lines: string[] = [];
  for (const workspace of workspaces) {
    const pending: ProjectItem[] = projectItems(coveHome, workspace).filter((item) => !item.approved && item.kind === 'hook');
    if (pending.length === 0) continue;
    lines.push(`${pending.length} project hook(s) of ${workspace} were not run; review and approve them with: cove approve --workspace ${workspace}`);
    for (const item of pending) lines.push(`  ${item.name}: ${item.command}  (${item.file})`);
  }
  return lines;
}
