/**
 * What each prompt changed, from real checkpoints: a finished run ends at its run-end
 * checkpoint (edits by hand after it are not the agent's); a run still going is read up to now.
 */
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { makeEvent, type CoveEvent } from '../../shared/events';
import { NO_SECRETS } from '../../electron/core/agent/types';
import { sessionChanges } from '../../electron/core/checkpoints/changes';
import { SessionCheckpoints } from '../../electron/core/checkpoints/session-checkpoints';
import { DEFAULT_CHECKPOINT_SETTINGS } from '../../electron/core/checkpoints/settings';
import { timelineOf } from '../../electron/core/checkpoints/timeline';
import type { StoredEvent } from '../../electron/core/store';
import { toolCall } from './helpers/tool-call';

const call = (toolCallId: string) => toolCall(toolCallId);

describe('session changes', () => {
  test('per prompt up to its run end; a running prompt up to now; the session as a whole', async () => {
    const home = mkdtempSync(join(tmpdir(), 'cove-cp-home-'));
    const root = mkdtempSync(join(tmpdir(), 'cove-cp-root-'));
    try {
      writeFileSync(join(root, 'a.txt'), 'a\n');
      const events: CoveEvent[] = [];
      const checkpoints = new SessionCheckpoints({ coveHome: home, sessionId: 's1', workspaceRoots: [root], settings: DEFAULT_CHECKPOINT_SETTINGS, emit: (event) => events.push(event) });
      const stored = () => events.map((event, index) => ({ ...event, seq: index + 1 }) as StoredEvent);
      const changes = () => sessionChanges({ coveHome: home, workspaceRoots: [root], timeline: timelineOf(stored()), secrets: NO_SECRETS });

      events.push(makeEvent('userMessage', { sessionId: 's1', text: 'first', steered: false }));
      await checkpoints.middleware.beforeTool(call('c1'));
      writeFileSync(join(root, 'a.txt'), 'a, by the agent\n');
      await checkpoints.finishRun();
      writeFileSync(join(root, 'hand.txt'), 'the person wrote this between runs\n');

      events.push(makeEvent('userMessage', { sessionId: 's1', text: 'second', steered: false }));
      await checkpoints.middleware.beforeTool(call('c2'));
      writeFileSync(join(root, 'b.txt'), 'b, while the run is going\n');

      const result = await changes();
      const summary = (files: Array<{ change: string; path: string }>) => files.map((file) => `${file.change} ${file.path}`).sort();
      assert.deepEqual(summary(result.prompts[0]!.files), ['modified a.txt']);
      assert.deepEqual(summary(result.prompts[1]!.files), ['added b.txt']);
      assert.deepEqual(summary(result.session), ['added b.txt', 'added hand.txt', 'modified a.txt']);
      assert.match(result.prompts[0]!.files[0]!.diff, /^-a$\n^\+a, by the agent$/m);
      assert.deepEqual(result.problems, []);
    } finally {
      rmSync(home, { recursive: true, force: true });
      rmSync(root, { recursive: true, force: true });
    }
  });
});
