/**
 * A prompt's change less what the review pane reverted of it since (prompt-span.ts), on a real
 * shadow repository: the revert of one prompt's line is gone from that prompt's change and is
 * not shown as the next prompt's (which had it at its start), a file put back to before the
 * first prompt leaves neither prompt anything, a hunk reverted from the whole-session view
 * leaves the prompt it came from, and an undone revert is back in full.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdirSync, mkdtempSync, realpathSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { makeEvent, type CoveEvent } from '../../shared/events';
import { NO_SECRETS } from '../../electron/core/agent/types';
import { sessionChanges } from '../../electron/core/checkpoints/changes';
import { ShadowRepo } from '../../electron/core/checkpoints/shadow-repo';
import { timelineOf } from '../../electron/core/checkpoints/timeline';
import type { StoredEvent } from '../../electron/core/store';

const sessionId = 's1';
const lines = (changes: Record<number, string> = {}) => `${Array.from({ length: 30 }, (_, index) => changes[index + 1] ?? `line ${index + 1}`).join('\n')}\n`;

test("a revert leaves its prompt's change, is not blamed on the next prompt, and an undo brings it back", async (t) => {
  const base = realpathSync(mkdtempSync(join(tmpdir(), 'cove-prompt-span-')));
  t.after(() => rmSync(base, { recursive: true, force: true }));
  const root = join(base, 'ws');
  const coveHome = join(base, 'home');
  mkdirSync(root);
  const file = join(root, 'list.txt');
  const repo = new ShadowRepo(coveHome, root);
  const snapshot = async (content: string) => {
    writeFileSync(file, content);
    return [{ root, commit: (await repo.snapshot('test')).commit }];
  };
  const events: CoveEvent[] = [];
  const checkpoint = (moment: 'beforeTool' | 'runEnd', roots: Array<{ root: string; commit: string }>) =>
    events.push(makeEvent('checkpoint', { sessionId, checkpointId: `cp${events.length}`, toolCallId: `call${events.length}`, moment, roots, problems: [] }));
  const prompt = (text: string) => events.push(makeEvent('userMessage', { sessionId, text, steered: false }));
  const revert = async (scope: 'hunk' | 'file', content: string, options: { undoes?: number; prompt?: number } = { prompt: 1 }) => {
    const before = (await repo.snapshot('before')).commit;
    const after = (await snapshot(content))[0]!.commit;
    events.push(makeEvent('revert', { sessionId, scope, paths: [file], roots: [{ root, before, after }], ...options }));
    return events.length;
  };
  const changes = async () => {
    const timeline = timelineOf(events.map((event, index) => ({ ...event, seq: index + 1 }) as StoredEvent));
    const view = await sessionChanges({ coveHome, workspaceRoots: [root], timeline, secrets: NO_SECRETS });
    return { prompts: view.prompts.map((entry) => entry.files.map((changed) => changed.diff).join('')), session: view.session.map((changed) => changed.diff).join('') };
  };

  prompt('one');
  checkpoint('beforeTool', await snapshot(lines()));
  checkpoint('runEnd', await snapshot(lines({ 3: 'line three' })));
  prompt('two');
  checkpoint('beforeTool', await snapshot(lines({ 3: 'line three' })));
  checkpoint('runEnd', await snapshot(lines({ 3: 'line three', 27: 'line twenty-seven' })));

  // Prompt 1's line put back, after prompt 2 ran.
  const hunk = await revert('hunk', lines({ 27: 'line twenty-seven' }));
  let view = await changes();
  assert.equal(view.prompts[0], '', "prompt 1's only change was reverted");
  assert.match(view.prompts[1]!, /\+line twenty-seven/);
  assert.doesNotMatch(view.prompts[1]!, /line three/, "prompt 1's reverted line is not shown as prompt 2's");
  assert.doesNotMatch(view.session, /line three/);

  // Undone: both prompts show what they did, as before the revert.
  await revert('hunk', lines({ 3: 'line three', 27: 'line twenty-seven' }), { undoes: hunk, prompt: 1 });
  view = await changes();
  assert.match(view.prompts[0]!, /-line 3\n\+line three/);
  assert.doesNotMatch(view.prompts[1]!, /line three/);
  assert.match(view.prompts[1]!, /\+line twenty-seven/);

  // From the whole-session view (no prompt named): prompt 2's line put back; prompt 1 keeps its own.
  const whole = await revert('hunk', lines({ 3: 'line three' }), {});
  view = await changes();
  assert.match(view.prompts[0]!, /-line 3\n\+line three/);
  assert.equal(view.prompts[1], '', "prompt 2's only change was reverted");
  await revert('hunk', lines({ 3: 'line three', 27: 'line twenty-seven' }), { undoes: whole });

  // The whole file put back to before prompt 1: neither prompt has anything left in it.
  await revert('file', lines());
  view = await changes();
  assert.deepEqual(view, { prompts: ['', ''], session: '' });
});
