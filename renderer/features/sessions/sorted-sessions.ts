/** Session order and the sessions that wait for the person. */
import type { SessionSummary } from '../../../shared/contract';
import type { PermissionRequestEvent } from '../../../shared/events';

export function sortedSessions(sessions: Record<string, SessionSummary>): SessionSummary[] {
  return Object.values(sessions).sort((a, b) => b.updatedAt - a.updatedAt || a.id.localeCompare(b.id));
}

/** Prompts waiting per session: the summary's count, or more if prompts arrived since it was sent. */
export function pendingCounts(sessions: Record<string, SessionSummary>, pending: Record<string, PermissionRequestEvent>): Record<string, number> {
  const counts: Record<string, number> = {};
  for (const request of Object.values(pending)) counts[request.sessionId] = (counts[request.sessionId] ?? 0) + 1;
  for (const session of Object.values(sessions)) counts[session.id] = Math.max(counts[session.id] ?? 0, session.pendingPermissions);
  return counts;
}

export function waitingSessions(sessions: Record<string, SessionSummary>, counts: Record<string, number>, except: string | null): SessionSummary[] {
  return sortedSessions(sessions).filter((session) => session.id !== except && (session.status === 'waiting' || (counts[session.id] ?? 0) > 0));
}
