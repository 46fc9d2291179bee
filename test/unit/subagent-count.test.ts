// The count beside "Subagents": a subagent whose prompt is open waits for the person and is
// counted as waiting, not as running.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { subagentCount } from '../../renderer/features/subagents/subagent-status';
import type { SubagentState, SubagentStatus } from '../../renderer/features/transcript/model-types';

function agent(id: string, status: SubagentStatus): SubagentState {
  return { id, displayName: id, task: 'look around', parentToolCallId: `call-${id}`, status, startedAt: 0, endedAt: status === 'running' ? null : 5, lastAt: 5, latest: null };
}

test('a running subagent with an open prompt is counted as waiting', () => {
  assert.equal(subagentCount([agent('a', 'running')], new Set(['a'])), '1 waiting');
  assert.equal(subagentCount([agent('a', 'running'), agent('b', 'running')], new Set(['b'])), '1 running, 1 waiting');
  assert.equal(subagentCount([agent('a', 'running'), agent('b', 'running'), agent('c', 'done')], new Set()), '2 running');
});

test('once none is at work, the count is how many there are; a prompt of an ended one does not count', () => {
  assert.equal(subagentCount([agent('a', 'done'), agent('b', 'failed'), agent('c', 'cancelled')], new Set()), '3');
  assert.equal(subagentCount([agent('a', 'done'), agent('b', 'running')], new Set(['a'])), '1 running');
});
