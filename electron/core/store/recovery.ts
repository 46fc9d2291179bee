/**
 * After a crash (or SIGKILL) a session can be left 'running' with tool calls that never ended.
 * Whoever opens the store next finds those whose owner process is gone and marks them
 * 'interrupted', so the UI shows the truth and a resume can answer the cut-off calls.
 */
import type { Database } from 'better-sqlite3';
import type { RecoveryReport } from './types';

/**
 * Signal 0 checks for existence without delivering anything. EPERM means the process exists
 * but belongs to someone else, so it is alive. A pid reused by an unrelated process after a
 * reboot also reads as alive; that session stays 'running' until that process ends.
 */
export function isProcessAlive(pid: number): boolean {
  // 0 and negative numbers address process groups, not a process.
  if (!Number.isSafeInteger(pid) || pid <= 0) return false;
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}

export function recoveryQueries(db: Database, now: () => number, isAlive: (pid: number) => boolean = isProcessAlive) {
  const active = db.prepare<[], { id: string; owner_pid: number | null }>("SELECT id, owner_pid FROM sessions WHERE status IN ('running', 'waiting')");
  // The owner is re-checked in the UPDATE so a session another process claimed meanwhile is
  // left to it.
  const interruptSession = db.prepare(`
    UPDATE sessions SET status = 'interrupted', owner_pid = NULL, updated_at = @now
    WHERE id = @id AND status IN ('running', 'waiting') AND owner_pid IS @ownerPid`);
  const interruptCalls = db.prepare(`
    UPDATE tool_calls SET status = 'interrupted', ended_at = @now
    WHERE session_id = @id AND status = 'running'`);

  const recover = db.transaction((): RecoveryReport => {
    const report: RecoveryReport = { sessions: [], toolCalls: 0 };
    const at = now();
    for (const session of active.all()) {
      if (session.owner_pid !== null && isAlive(session.owner_pid)) continue;
      if (interruptSession.run({ id: session.id, ownerPid: session.owner_pid, now: at }).changes === 0) continue;
      report.sessions.push(session.id);
      report.toolCalls += interruptCalls.run({ id: session.id, now: at }).changes;
    }
    return report;
  });

  return {
    recoverInterrupted(): RecoveryReport {
      return recover.immediate();
    },
  };
}
