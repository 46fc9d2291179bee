// Alt+ArrowUp/ArrowDown move through the sessions in the order the list draws them: by date,
// newest first; by project, a folder's sessions together, folders in the order of their newest.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { listedSessions } from '../../renderer/features/sessions/session-groups';
import type { SessionSummary } from '../../shared/contract';
import { sessionSummary } from './helpers/session-summary';

function session(id: string, updatedAt: number, folder: string): SessionSummary {
  return sessionSummary(id, { workspaces: [folder], createdAt: updatedAt, updatedAt });
}

const sessions = Object.fromEntries(
  [session('a', 50, '/one'), session('b', 40, '/two'), session('c', 30, '/one'), session('d', 20, '/two'), session('e', 10, '/three')].map((entry) => [entry.id, entry]),
);

test('by date the order is newest first', () => {
  assert.deepEqual(
    listedSessions(sessions, 'date', 60).map((entry) => entry.id),
    ['a', 'b', 'c', 'd', 'e'],
  );
});

test("by project a folder's sessions come together, as the list draws them", () => {
  assert.deepEqual(
    listedSessions(sessions, 'project', 60).map((entry) => entry.id),
    ['a', 'c', 'b', 'd', 'e'],
  );
});
