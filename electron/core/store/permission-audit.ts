/**
 * The permission audit (SPEC §6): every decision the permission engine makes, automatic or a
 * person's, kept with the session so `cove sessions` and the UI can show who allowed what.
 */
import type { Database } from 'better-sqlite3';
import type { PermissionAuditEntry, PermissionAuditRecord } from './types';
import { StoreError } from './types';

interface AuditRow {
  id: number;
  session_id: string;
  tool_call_id: string;
  tool_name: string;
  args: string;
  decision: PermissionAuditEntry['decision'];
  decided_by: PermissionAuditEntry['decidedBy'];
  rule: string | null;
  scope: PermissionAuditRecord['scope'];
  reason: string | null;
  created_at: number;
}

export function permissionAuditQueries(db: Database) {
  const sessionExists = db.prepare<[string], number>('SELECT 1 FROM sessions WHERE id = ?').pluck();
  const insert = db.prepare(`
    INSERT INTO permission_audit
      (session_id, tool_call_id, tool_name, args, decision, decided_by, rule, scope, reason, created_at)
    VALUES (@sessionId, @toolCallId, @toolName, @args, @decision, @decidedBy, @rule, @scope, @reason, @at)`);
  const select = db.prepare<[string], AuditRow>('SELECT * FROM permission_audit WHERE session_id = ? ORDER BY id');

  const record = db.transaction((entry: PermissionAuditEntry) => {
    if (sessionExists.get(entry.sessionId) === undefined) {
      throw new StoreError('sessionNotFound', `No session with id ${JSON.stringify(entry.sessionId)} in ${db.name}`);
    }
    insert.run({
      sessionId: entry.sessionId,
      toolCallId: entry.toolCallId,
      toolName: entry.toolName,
      args: JSON.stringify(entry.args ?? null),
      decision: entry.decision,
      decidedBy: entry.decidedBy,
      rule: entry.rule,
      scope: entry.scope ?? null,
      reason: entry.reason ?? null,
      at: entry.at,
    });
  });

  return {
    recordPermission(entry: PermissionAuditEntry): void {
      record.immediate(entry);
    },

    listPermissions(sessionId: string): PermissionAuditRecord[] {
      return select.all(sessionId).map((row) => ({
        id: row.id,
        sessionId: row.session_id,
        toolCallId: row.tool_call_id,
        toolName: row.tool_name,
        args: JSON.parse(row.args),
        decision: row.decision,
        decidedBy: row.decided_by,
        rule: row.rule,
        scope: row.scope,
        reason: row.reason,
        at: row.created_at,
      }));
    },
  };
}
