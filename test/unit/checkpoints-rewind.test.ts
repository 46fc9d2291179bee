/**
 * Rewind's bad input, on real checkpoints: nothing recorded, a deleted shadow repository, a
 * prompt that does not exist. Each is a RewindError that says what was wrong, and no file moves.
 */
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { makeEvent, type CoveEvent } from '../../shared/events';
import { RewindError, rewindSession } from '../../electron/core/checkpoints/rewind-session';
import { SessionCheckpoints } from '../../electron/core/checkpoints/session-checkpoints';
import { DEFAULT_CHECKPOINT_SETTINGS } from '../../electron/core/checkpoints/settings';
import { shadowDirFor } from '../../electron/core/checkpoints/shadow-repo';
import type { SessionRecord, StoredEvent } from '../../electron/core/store';
import { toolCall } from './helpers/tool-call';

const call = (toolCallId: string) => toolCall(toolCallId);

describe('rewind: bad input', () => {
  test('no checkpoints, a prompt out of range, a deleted shadow repository: refused by name, nothing changed', async () => {
    const home = mkdtempSync(join(tmpdir(), 'cove-cp-home-'));
    const root = mkdtempSync(join(tmpdir(), 'cove-cp-root-'));
    try {
      const session = { id: 's1', workspaces: [root] } as unknown as SessionRecord;
      const events: CoveEvent[] = [makeEvent('userMessage', { sessionId: 's1', text: 'first', steered: false })];
      const stored = () => events.map((event, index) => ({ ...event, seq: index + 1 }) as StoredEvent);
      const rewind = (toPrompt?: number) =>
        rewindSession({ coveHome: home, session, events: stored(), toPrompt, dryRun: false, force: false, record: (event) => events.push(event), tellModel: () => undefined });

      await assert.rejects(rewind(), (error: Error) => error instanceof RewindError && /has no checkpoints: none of its calls changed files/.test(error.message));

      writeFileSync(join(root, 'a.txt'), 'before\n');
      const checkpoints = new SessionCheckpoints({ coveHome: home, sessionId: 's1', workspaceRoots: [root], settings: DEFAULT_CHECKPOINT_SETTINGS, emit: (event) => events.push(event) });
      await checkpoints.middleware.beforeTool(call('c1'));
      writeFileSync(join(root, 'a.txt'), 'after\n');
      await checkpoints.finishRun();

      await assert.rejects(rewind(3), /there is no prompt 3 in this session \(it has 1\)/);
      rmSync(shadowDirFor(home, root), { recursive: true, force: true });
      await assert.rejects(rewind(1), /no longer holds checkpoint cp_\w+ \(was .* deleted\?\); nothing was changed/);
      assert.equal(readFileSync(join(root, 'a.txt'), 'utf8'), 'after\n');
      assert.equal(events.filter((event) => event.type === 'rewind').length, 0);
    } finally {
      rmSync(home, { recursive: true, force: true });
      rmSync(root, { recursive: true, force: true });
    }
  });
});
