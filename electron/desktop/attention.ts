/**
 * When a session needs the person while they look elsewhere: a permission prompt appeared, or a
 * run ended. Decided from successive `sessionChanged` summaries, so it holds for every way a
 * run can go (subagents, steering, retries) without listening to agent events one by one.
 * Pure, so the rules are tested without Electron; notifier.ts shows the result.
 */
import type { SessionStatus, SessionSummary } from '../../shared/contract';

export interface Attention {
  kind: 'approval' | 'finished';
  sessionId: string;
  title: string;
  body: string;
}

const ENDED: ReadonlySet<SessionStatus> = new Set(['done', 'error', 'aborted']);
const ACTIVE: ReadonlySet<SessionStatus> = new Set(['running', 'waiting']);

export class AttentionTracker {
  private readonly last = new Map<string, SessionSummary>();
  /** Sessions that ended while the person was away, until they look again. */
  private readonly unseen = new Set<string>();

  /** What to tell the person about this change, if anything; `away` when no window of ours has focus. */
  observe(next: SessionSummary, away: boolean): Attention | null {
    const previous = this.last.get(next.id);
    this.last.set(next.id, next);
    const name = next.title.trim() || 'Untitled session';
    const newPrompt = next.pendingPermissions > (previous?.pendingPermissions ?? 0) || (next.status === 'waiting' && previous?.status !== 'waiting');
    if (newPrompt) {
      return away ? { kind: 'approval', sessionId: next.id, title: 'Cove is waiting for you', body: `${name}: a tool call needs your approval.` } : null;
    }
    if (previous && ACTIVE.has(previous.status) && ENDED.has(next.status)) {
      if (!away) return null;
      this.unseen.add(next.id);
      const body = next.status === 'done' ? `${name} finished.` : next.status === 'aborted' ? `${name} was stopped.` : `${name} failed${next.lastError ? `: ${next.lastError}` : '.'}`;
      return { kind: 'finished', sessionId: next.id, title: 'Cove', body };
    }
    return null;
  }

  forget(sessionId: string): void {
    this.last.delete(sessionId);
    this.unseen.delete(sessionId);
  }

  /** The person is looking: finished runs count as seen. */
  seen(): void {
    this.unseen.clear();
  }

  /** The dock/taskbar count: sessions waiting for an answer, plus runs that ended unseen. */
  badgeCount(): number {
    let count = this.unseen.size;
    for (const [id, session] of this.last) if ((session.pendingPermissions > 0 || session.status === 'waiting') && !this.unseen.has(id)) count++;
    return count;
  }
}
