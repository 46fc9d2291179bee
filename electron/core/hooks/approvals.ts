/**
 * Approvals of what a project brings that runs commands: its hooks (`.cove/settings*.json`,
 * `.claude/settings.json`) and its MCP servers (`.mcp.json`). Each approval is pinned to a hash
 * of the item's content and the file that declares it, so a changed hook or server is a new
 * item that asks again. Kept in `COVE_HOME/approvals.json`, the person's own folder, which no
 * repository can ship; the person's own `COVE_HOME/settings.json` hooks need none.
 */
import { createHash, randomBytes } from 'node:crypto';
import { mkdirSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { SetupError } from '../errors';
import { readSettingsObject, userSettingsPath } from '../settings/settings-files';
import type { ProjectApprovalItem } from '../../../shared/contract';
import { hookFiles, readHookFile, type HookEntry } from './hook-config';
import { pinnedFiles } from './pinned-files';

export const APPROVALS_FILE = 'approvals.json';

/** A hook or server a project brings, as the approval notice shows it (one shape, in the contract). */
export type ProjectItem = ProjectApprovalItem;

interface ApprovalRecord {
  kind: ProjectItem['kind'];
  file: string;
  name: string;
  command: string;
  approvedAt: string;
}

export class ApprovalsError extends SetupError {}

export class ApprovalStore {
  readonly path: string;
  constructor(coveHome: string) {
    this.path = join(coveHome, APPROVALS_FILE);
  }

  private read(): Record<string, ApprovalRecord> {
    let text: string;
    try {
      text = readFileSync(this.path, 'utf8');
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === 'ENOENT') return {};
      throw new ApprovalsError(`${this.path}: cannot be read (${(error as Error).message})`);
    }
    let data: unknown;
    try {
      data = JSON.parse(text);
    } catch (error) {
      throw new ApprovalsError(`${this.path}: is not valid JSON (${(error as Error).message}); fix it or delete it to approve again`);
    }
    const approved = (data as { approved?: unknown } | null)?.approved;
    if (typeof approved !== 'object' || approved === null || Array.isArray(approved)) {
      throw new ApprovalsError(`${this.path}: must hold {"approved": {...}}; fix it or delete it to approve again`);
    }
    return approved as Record<string, ApprovalRecord>;
  }

  /** Reads the file, so a malformed one is reported before anything relies on it. */
  check(): void {
    this.read();
  }

  isApproved(id: string): boolean {
    return Object.hasOwn(this.read(), id);
  }

  /** Records the items as approved, through a temporary file and a rename. */
  approve(items: readonly ProjectItem[]): void {
    const approved = this.read();
    const at = new Date().toISOString();
    for (const item of items) approved[item.id] = { kind: item.kind, file: item.file, name: item.name, command: item.command, approvedAt: at };
    mkdirSync(dirname(this.path), { recursive: true });
    const temporary = `${this.path}.${process.pid}.${randomBytes(4).toString('hex')}.tmp`;
    try {
      writeFileSync(temporary, `${JSON.stringify({ approved }, null, 2)}\n`, { mode: 0o600 });
      renameSync(temporary, this.path);
    } catch (error) {
      rmSync(temporary, { force: true });
      throw new ApprovalsError(`${this.path}: could not save the approval (${(error as Error).message})`);
    }
  }
}

export function hookItem(entry: HookEntry, approved: boolean): ProjectItem {
  const name = entry.matcher ? `${entry.event} ${entry.matcher}` : entry.event;
  return { id: entry.hash, kind: 'hook', file: entry.file, name, command: entry.command, approved };
}

function describeServer(raw: Record<string, unknown>): string {
  if (typeof raw.url === 'string') return raw.url;
  const args = Array.isArray(raw.args) ? raw.args.filter((arg): arg is string => typeof arg === 'string') : [];
  return [String(raw.command ?? ''), ...args].join(' ').trim();
}

/**
 * A server's id hashes its entry as written (before `${VAR}` expansion) and the project files
 * its command line names, so a changed entry or server script asks again.
 */
export function serverHash(file: string, name: string, raw: unknown, workspace: string): string {
  const entry = typeof raw === 'object' && raw !== null ? (raw as Record<string, unknown>) : {};
  const words = [entry.command, ...(Array.isArray(entry.args) ? entry.args : [])].filter((word): word is string => typeof word === 'string');
  const files = pinnedFiles(
    words.map((word) => `'${word.replace(/'/g, '')}'`),
    workspace,
    typeof entry.cwd === 'string' ? resolve(workspace, entry.cwd) : workspace,
  );
  return createHash('sha256')
    .update(JSON.stringify([file, name, raw, files]))
    .digest('hex');
}

/** Project servers the person approved by name rather than by Approve: any entry of that name. */
export interface NamedServerApprovals {
  all: boolean;
  names: ReadonlySet<string>;
}

/**
 * The names in the person's own `COVE_HOME/settings.json` (`enabledMcpjsonServers`, or every
 * server with `enableAllProjectMcpServers: true`, Claude Code's keys). No workspace file counts:
 * any of them can come with a clone, and a repository must not approve its own servers.
 */
export function namedServerApprovals(coveHome: string): NamedServerApprovals {
  let data: Readonly<Record<string, unknown>> | undefined;
  try {
    data = readSettingsObject(userSettingsPath(coveHome));
  } catch {
    // A malformed file approves nothing; the permission settings report it by name.
    return { all: false, names: new Set() };
  }
  const names = new Set<string>();
  if (Array.isArray(data?.enabledMcpjsonServers)) for (const name of data.enabledMcpjsonServers) if (typeof name === 'string') names.add(name);
  return { all: data?.enableAllProjectMcpServers === true, names };
}

/**
 * The servers a workspace's `.mcp.json` declares, as items, approved by Approve or by name; a
 * file that does not parse declares none here (mcp-config reports it).
 */
export function mcpServerItems(workspace: string, store: ApprovalStore, named: NamedServerApprovals): ProjectItem[] {
  const file = join(workspace, '.mcp.json');
  let servers: unknown;
  try {
    servers = (JSON.parse(readFileSync(file, 'utf8')) as { mcpServers?: unknown }).mcpServers;
  } catch {
    return [];
  }
  if (typeof servers !== 'object' || servers === null || Array.isArray(servers)) return [];
  return Object.entries(servers as Record<string, unknown>).map(([name, raw]) => {
    const id = serverHash(file, name, raw, workspace);
    const entry = typeof raw === 'object' && raw !== null ? (raw as Record<string, unknown>) : {};
    const approved = named.all || named.names.has(name) || store.isApproved(id);
    return { id, kind: 'mcpServer' as const, file, name, command: describeServer(entry), approved };
  });
}

/** The hooks a workspace brings (every settings file except the person's own). */
export function projectHooks(coveHome: string, workspace: string): HookEntry[] {
  return hookFiles(coveHome, [workspace])
    .filter((file) => file.kind !== 'user')
    .flatMap((file) => readHookFile(file));
}

/** Everything of a workspace that needs approval, with whether it has it. */
export function projectItems(coveHome: string, workspace: string): ProjectItem[] {
  const store = new ApprovalStore(coveHome);
  return [...projectHooks(coveHome, workspace).map((entry) => hookItem(entry, store.isApproved(entry.hash))), ...mcpServerItems(workspace, store, namedServerApprovals(coveHome))];
}

/** Approves the workspace's pending items (those named by `ids`, or all); returns what it approved. */
export function approveProject(coveHome: string, workspace: string, ids?: readonly string[]): ProjectItem[] {
  const items = projectItems(coveHome, workspace);
  const pending = items.filter((item) => !item.approved && (!ids || ids.includes(item.id)));
  if (ids) {
    const unknown = ids.filter((id) => !items.some((item) => item.id === id));
    if (unknown.length > 0) throw new ApprovalsError(`no hook or MCP server of ${workspace} has the id ${unknown[0]} (it may have changed; list them again)`);
  }
  new ApprovalStore(coveHome).approve(pending);
  return pending.map((item) => ({ ...item, approved: true }));
}
