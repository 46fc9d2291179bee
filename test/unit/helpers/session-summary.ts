/** A session summary for tests: a finished session in `/w` with nothing spent, unless `fields` say otherwise. */
import type { SessionSummary } from '../../../shared/contract';

export function sessionSummary(id: string, fields: Partial<SessionSummary> = {}): SessionSummary {
  return {
    id,
    title: id,
    workspaces: ['/w'],
    model: 'm',
    permissionMode: 'default',
    status: 'done',
    createdAt: 0,
    updatedAt: 0,
    usage: { input: 0, output: 0, cacheRead: 0, cacheWrite: 0 },
    costUsd: 0,
    pendingPermissions: 0,
    lastError: null,
    persona: null,
    ...fields,
  };
}
