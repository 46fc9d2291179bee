/**
 * A message steered into a running turn is no prompt boundary: a rewind asked for it goes to the
 * prompt that started its run and says so (`steeredPrompt`), on real checkpoints, so the files
 * come back as they were before that run, not as they were half-way through it.
 */
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { makeEvent, type CoveEvent } from '../../shared/events';
import { rewindSession } from '../../electron/core/checkpoints/rewind-session';
import { SessionCheckpoints } from '../../electron/core/checkpoints/session-checkpoints';
import { DEFAULT_CHECKPOINT_SETTINGS } from '../../electron/core/checkpoints/settings';
import { enclosingPrompt, timelineOf } from '../../electron/core/checkpoints/timeline';
import type { SessionRecord, StoredEvent } from '../../electron/core/store';
import { toolCall } from './helpers/tool-call';

describe('rewind to a steered message', () => {
  test('goes to the prompt that started the run, and says which was asked for', async () => {
    const home = mkdtempSync(join(tmpdir(), 'cove-cp-home-'));
    const root = mkdtempSync(join(tmpdir(), 'cove-cp-root-'));
    try {
      const session = { id: 's1', workspaces: [root] } as unknown as SessionRecord;
      const events: CoveEvent[] = [];
      const stored = () => events.map((event, index) => ({ ...event, seq: index + 1 }) as StoredEvent);
      const file = join(root, 'a.txt');
      writeFileSync(file, 'original\n');
      const checkpoints = new SessionCheckpoints({ coveHome: home, sessionId: 's1', workspaceRoots: [root], settings: DEFAULT_CHECKPOINT_SETTINGS, emit: (event) => events.push(event) });
      events.push(makeEvent('userMessage', { sessionId: 's1', text: 'edit a.txt twice', steered: false }));
      await checkpoints.middleware.beforeTool(toolCall('c1'));
      writeFileSync(file, 'first edit\n');
      events.push(makeEvent('userMessage', { sessionId: 's1', text: 'and make it louder', steered: true }));
      await checkpoints.middleware.beforeTool(toolCall('c2'));
      writeFileSync(file, 'FIRST EDIT\n');
      await checkpoints.finishRun();

      const timeline = timelineOf(stored());
      assert.deepEqual(
        timeline.prompts.map((prompt) => prompt.steered),
        [false, true],
      );
      assert.equal(enclosingPrompt(timeline, 2), 1);
      assert.equal(enclosingPrompt(timeline, 1), 1);

      const request = { coveHome: home, session, toPrompt: 2, force: false, record: (event: CoveEvent) => events.push(event), tellModel: () => undefined };
      const plan = await rewindSession({ ...request, events: stored(), dryRun: true });
      assert.equal(plan.toPrompt, 1);
      assert.equal(plan.steeredPrompt, 2);
      assert.equal(plan.promptText, 'edit a.txt twice');
      const done = await rewindSession({ ...request, events: stored(), dryRun: false });
      assert.equal(done.applied, true);
      assert.equal(readFileSync(file, 'utf8'), 'original\n', 'back to before the run, not to the middle of it');
      const rewind = events.find((event) => event.type === 'rewind');
      assert.equal(rewind?.type === 'rewind' && rewind.toPrompt, 1);

      const direct = await rewindSession({ ...request, toPrompt: 1, events: stored(), dryRun: true });
      assert.equal(direct.steeredPrompt, undefined, 'a prompt that started its run is said as it is');
    } finally {
      rmSync(home, { recursive: true, force: true });
      rmSync(root, { recursive: true, force: true });
    }
  });
});
