/**
 * Queries on the sessions table. Statements are prepared once per open store.
 */
import { isAbsolute, resolve } from 'node:path';
import type { Database } from 'better-sqlite3';
import type { Usage } from '../../../shared/events';
import { newSessionId } from './ids';
import { SESSION_STATUSES, StoreError } from './types';
import type { ListOptions, NewSession, SessionCursor, SessionPatch, SessionRecord, SessionStatus } from './types';

export interface SessionRow {
  id: string;
  title: string;
  workspaces: string;
  model: string;
  permission_mode: string;
  status: SessionStatus;
  created_at: number;
  updated_at: number;
  input_tokens: number;
  output_tokens: number;
  cache_read_tokens: number;
  cache_write_tokens: number;
  cost_usd: number;
  owner_pid: number | null;
}

export function toSessionRecord(row: SessionRow): SessionRecord {
  return {
    id: row.id,
    title: row.title,
    workspaces: JSON.parse(row.workspaces) as string[],
    model: row.model,
    permissionMode: row.permission_mode,
    status: row.status,
    createdAt: row.created_at,
    updatedAt: row.updated_at,
    usage: {
      input: row.input_tokens,
      output: row.output_tokens,
      cacheRead: row.cache_read_tokens,
      cacheWrite: row.cache_write_tokens,
    },
    costUsd: row.cost_usd,
    ownerPid: row.owner_pid,
  };
}

/** Absolute, normalized (no trailing slash, no `..`) and without duplicates, order kept. */
export function normalizeWorkspaces(workspaces: readonly string[]): string[] {
  const normalized: string[] = [];
  for (const workspace of workspaces) {
    if (typeof workspace !== 'string' || !isAbsolute(workspace)) {
      throw new StoreError('invalidInput', `workspaces: ${JSON.stringify(workspace)} is not an absolute path`);
    }
    const path = resolve(workspace);
    if (!normalized.includes(path)) normalized.push(path);
  }
  return normalized;
}

function checkStatus(status: SessionStatus): void {
  if (!SESSION_STATUSES.includes(status)) {
    throw new StoreError('invalidInput', `status: ${JSON.stringify(status)} is not one of ${SESSION_STATUSES.join(', ')}`);
  }
}

function cursor(before: SessionCursor | undefined): { beforeAt: number; beforeId: string } {
  if (before === undefined) return { beforeAt: Number.MAX_SAFE_INTEGER, beforeId: '' };
  if (!Number.isSafeInteger(before.updatedAt) || typeof before.id !== 'string') {
    throw new StoreError('invalidInput', `before: ${JSON.stringify(before)} is not a session's { updatedAt, id }`);
  }
  return { beforeAt: before.updatedAt, beforeId: before.id };
}

const HAS_WORKSPACE = 'EXISTS (SELECT 1 FROM json_each(sessions.workspaces) WHERE value = @workspace)';

export function sessionQueries(db: Database, now: () => number) {
  const insert = db.prepare(`
    INSERT INTO sessions (id, title, workspaces, model, permission_mode, status, created_at, updated_at)
    VALUES (@id, @title, @workspaces, @model, @permissionMode, 'idle', @now, @now)`);
  const select = db.prepare<[string], SessionRow>('SELECT * FROM sessions WHERE id = ?');
  // The row-value comparison is a range on sessions_by_update, so a page deep in a long list
  // costs what the first one does; no cursor is a cursor past every session.
  const list = db.prepare<{ workspace: string | null; limit: number; beforeAt: number; beforeId: string }, SessionRow>(`
    SELECT * FROM sessions WHERE (@workspace IS NULL OR ${HAS_WORKSPACE}) AND (updated_at, id) < (@beforeAt, @beforeId)
    ORDER BY updated_at DESC, id DESC LIMIT @limit`);
  // One statement for every patch: each field has a flag saying whether to set it.
  const update = db.prepare(`
    UPDATE sessions SET
      title = CASE WHEN @setTitle THEN @title ELSE title END,
      status = CASE WHEN @setStatus THEN @status ELSE status END,
      model = CASE WHEN @setModel THEN @model ELSE model END,
      permission_mode = CASE WHEN @setPermissionMode THEN @permissionMode ELSE permission_mode END,
      workspaces = CASE WHEN @setWorkspaces THEN @workspaces ELSE workspaces END,
      owner_pid = CASE WHEN @setOwnerPid THEN @ownerPid ELSE owner_pid END,
      updated_at = @now
    WHERE id = @id`);
  const usage = db.prepare(`
    UPDATE sessions SET
      input_tokens = input_tokens + @input,
      output_tokens = output_tokens + @output,
      cache_read_tokens = cache_read_tokens + @cacheRead,
      cache_write_tokens = cache_write_tokens + @cacheWrite,
      cost_usd = cost_usd + @costUsd,
      updated_at = @now
    WHERE id = @id`);
  const remove = db.prepare('DELETE FROM sessions WHERE id = ?');
  const touch = db.prepare('UPDATE sessions SET updated_at = ? WHERE id = ?');

  const notFound = (id: string) => new StoreError('sessionNotFound', `No session with id ${JSON.stringify(id)} in ${db.name}`);

  return {
    createSession(input: NewSession): SessionRecord {
      const at = now();
      const id = newSessionId(at);
      insert.run({
        id,
        title: input.title?.trim() ?? '',
        workspaces: JSON.stringify(normalizeWorkspaces(input.workspaces)),
        model: input.model,
        permissionMode: input.permissionMode,
        now: at,
      });
      return toSessionRecord(select.get(id)!);
    },

    getSession(id: string): SessionRecord | undefined {
      const row = select.get(id);
      return row && toSessionRecord(row);
    },

    listSessions(options: ListOptions = {}): SessionRecord[] {
      const workspace = options.workspace === undefined ? null : resolve(options.workspace);
      return list.all({ workspace, limit: options.limit ?? -1, ...cursor(options.before) }).map(toSessionRecord);
    },

    latestSessionForWorkspace(workspace: string): SessionRecord | undefined {
      const row = list.get({ workspace: resolve(workspace), limit: 1, ...cursor(undefined) });
      return row && toSessionRecord(row);
    },

    updateSession(id: string, patch: SessionPatch): void {
      if (patch.status !== undefined) checkStatus(patch.status);
      if (patch.ownerPid != null && !(Number.isSafeInteger(patch.ownerPid) && patch.ownerPid > 0)) {
        throw new StoreError('invalidInput', `ownerPid: ${patch.ownerPid} is not a process id`);
      }
      const result = update.run({
        id,
        now: now(),
        setTitle: Number(patch.title !== undefined),
        title: patch.title?.trim() ?? null,
        setStatus: Number(patch.status !== undefined),
        status: patch.status ?? null,
        setModel: Number(patch.model !== undefined),
        model: patch.model ?? null,
        setPermissionMode: Number(patch.permissionMode !== undefined),
        permissionMode: patch.permissionMode ?? null,
        setWorkspaces: Number(patch.workspaces !== undefined),
        workspaces: patch.workspaces === undefined ? null : JSON.stringify(normalizeWorkspaces(patch.workspaces)),
        setOwnerPid: Number(patch.ownerPid !== undefined),
        ownerPid: patch.ownerPid ?? null,
      });
      if (result.changes === 0) throw notFound(id);
    },

    addUsage(id: string, delta: Usage, costUsd: number): void {
      const result = usage.run({ id, now: now(), ...delta, costUsd });
      if (result.changes === 0) throw notFound(id);
    },

    deleteSession(id: string): boolean {
      return remove.run(id).changes > 0;
    },

    /** Bumps updatedAt; throws for an unknown session, so writers fail before inserting. */
    touchSession(id: string, at: number): void {
      if (touch.run(at, id).changes === 0) throw notFound(id);
    },
  };
}
