/**
 * The checkpoint middleware on its own: which calls get a checkpoint, what its event says, and
 * what happens to the call when no checkpoint can be recorded (required or optional).
 */
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { randomBytes } from 'node:crypto';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { CheckpointEvent, CoveEvent } from '../../shared/events';
import type { ToolCallRequest } from '../../electron/core/agent/types';
import { SessionCheckpoints } from '../../electron/core/checkpoints/session-checkpoints';
import { DEFAULT_CHECKPOINT_SETTINGS, loadCheckpointSettings } from '../../electron/core/checkpoints/settings';
import { shadowDirFor } from '../../electron/core/checkpoints/shadow-repo';
import { toolCall } from './helpers/tool-call';

function call(toolCallId: string, sensitivity: ToolCallRequest['sensitivity']): ToolCallRequest {
  return toolCall(toolCallId, { sensitivity, toolName: sensitivity === 'readOnly' ? 'read_file' : 'write_file' });
}

function setup(coveHome: string, required: boolean) {
  const root = mkdtempSync(join(tmpdir(), 'cove-cp-root-'));
  writeFileSync(join(root, 'a.txt'), 'a\n');
  const events: CoveEvent[] = [];
  const checkpoints = new SessionCheckpoints({
    coveHome,
    sessionId: 's1',
    workspaceRoots: [root],
    settings: { ...DEFAULT_CHECKPOINT_SETTINGS, required },
    emit: (event) => events.push(event),
  });
  const checkpointEvents = () => events.filter((event): event is CheckpointEvent => event.type === 'checkpoint');
  return { root, checkpoints, checkpointEvents };
}

/** A later run's checkpoints for the same root and COVE_HOME, and the events they emit. */
function nextRun(coveHome: string, root: string, options: { hadCheckpoints?: () => boolean; warmUp?: boolean } = {}) {
  const events: CoveEvent[] = [];
  const checkpoints = new SessionCheckpoints({ coveHome, sessionId: 's1', workspaceRoots: [root], settings: DEFAULT_CHECKPOINT_SETTINGS, emit: (event) => events.push(event), ...options });
  return { checkpoints, events };
}

describe('checkpoint middleware', () => {
  test('a mutating call gets a checkpoint linked to it; a read-only one none; the run end records what was left', async () => {
    const home = mkdtempSync(join(tmpdir(), 'cove-cp-home-'));
    const { root, checkpoints, checkpointEvents } = setup(home, true);
    try {
      assert.deepEqual(await checkpoints.middleware.beforeTool(call('read1', 'readOnly')), { action: 'allow' });
      assert.equal(checkpointEvents().length, 0);
      assert.deepEqual(await checkpoints.middleware.beforeTool(call('write1', 'mutating')), { action: 'allow' });
      await checkpoints.finishRun();
      const [before, after] = checkpointEvents();
      assert.equal(before?.toolCallId, 'write1');
      assert.equal(before?.moment, 'beforeTool');
      assert.equal(before?.roots[0]?.root, root);
      assert.match(before!.roots[0]!.commit, /^[0-9a-f]{40}$/);
      assert.deepEqual(before?.problems, []);
      assert.equal(after?.moment, 'runEnd');
      assert.equal(after?.toolCallId, 'write1');
    } finally {
      rmSync(home, { recursive: true, force: true });
      rmSync(root, { recursive: true, force: true });
    }
  });

  test('no checkpoint possible: a required one stops the call, naming why; an optional one lets it run and says so', async () => {
    const notAFolder = join(mkdtempSync(join(tmpdir(), 'cove-cp-file-')), 'home');
    writeFileSync(notAFolder, 'COVE_HOME is a file here, so no shadow repository can be made under it');
    for (const required of [true, false]) {
      const { root, checkpoints, checkpointEvents } = setup(notAFolder, required);
      try {
        const decision = await checkpoints.middleware.beforeTool(call('write1', 'mutating'));
        const [event] = checkpointEvents();
        assert.deepEqual(event?.roots, []);
        assert.match(event!.problems[0]!, new RegExp(`^${root}: not recorded: `));
        if (required) {
          assert.equal(decision.action, 'deny');
          assert.match(decision.action === 'deny' ? decision.reason : '', /no checkpoint could be recorded.*"required": false/);
        } else assert.deepEqual(decision, { action: 'allow' });
      } finally {
        rmSync(root, { recursive: true, force: true });
      }
    }
  });

  test('a full disk under COVE_HOME: the call does not run, and the event says the disk is full', async (t) => {
    const full = mkdtempSync(join(tmpdir(), 'cove-cp-full-'));
    try {
      execFileSync('mount', ['-t', 'tmpfs', '-o', 'size=200k', 'tmpfs', full], { stdio: 'ignore' });
    } catch {
      rmSync(full, { recursive: true, force: true });
      t.skip('a small tmpfs cannot be mounted here (mounting needs root), so a full disk cannot be made');
      return;
    }
    const { root, checkpoints, checkpointEvents } = setup(full, true);
    try {
      writeFileSync(join(root, 'data.bin'), randomBytes(1_000_000));
      const decision = await checkpoints.middleware.beforeTool(call('write1', 'mutating'));
      assert.equal(decision.action, 'deny');
      assert.deepEqual(checkpointEvents()[0]?.problems, [`${root}: not recorded: the disk is full`]);
    } finally {
      execFileSync('umount', [full]);
      rmSync(full, { recursive: true, force: true });
      rmSync(root, { recursive: true, force: true });
    }
  });

  test('a shadow repository deleted mid-session is made anew, and the checkpoint says the earlier ones are gone', async () => {
    const home = mkdtempSync(join(tmpdir(), 'cove-cp-home-'));
    const { root, checkpoints, checkpointEvents } = setup(home, true);
    try {
      await checkpoints.middleware.beforeTool(call('write1', 'mutating'));
      rmSync(shadowDirFor(home, root), { recursive: true, force: true });
      assert.deepEqual(await checkpoints.middleware.beforeTool(call('write2', 'mutating')), { action: 'allow' });
      const second = checkpointEvents()[1]!;
      assert.equal(second.roots.length, 1);
      assert.match(second.problems.join('\n'), /was missing \(deleted\?\) and was made anew/);
    } finally {
      rmSync(home, { recursive: true, force: true });
      rmSync(root, { recursive: true, force: true });
    }
  });

  test('a shadow repository deleted between runs: the next run says the earlier checkpoints are gone', async () => {
    const home = mkdtempSync(join(tmpdir(), 'cove-cp-home-'));
    const { root, checkpoints } = setup(home, true);
    try {
      await checkpoints.middleware.beforeTool(call('write1', 'mutating'));
      rmSync(shadowDirFor(home, root), { recursive: true, force: true });
      const { checkpoints: next, events } = nextRun(home, root, { hadCheckpoints: () => true });
      assert.deepEqual(await next.middleware.beforeTool(call('write2', 'mutating')), { action: 'allow' });
      const event = events.find((item): item is CheckpointEvent => item.type === 'checkpoint');
      assert.equal(event?.roots.length, 1);
      assert.match(event!.problems.join('\n'), /was missing \(deleted\?\) and was made anew/);
    } finally {
      rmSync(home, { recursive: true, force: true });
      rmSync(root, { recursive: true, force: true });
    }
  });

  test('a later run warms up at its start: edits made before and while it warms up are in its first checkpoint', async () => {
    const home = mkdtempSync(join(tmpdir(), 'cove-cp-home-'));
    const { root, checkpoints } = setup(home, true);
    try {
      await checkpoints.middleware.beforeTool(call('write1', 'mutating'));
      await checkpoints.finishRun();
      writeFileSync(join(root, 'a.txt'), 'edited between runs\n');
      const { checkpoints: next, events } = nextRun(home, root, { warmUp: true });
      // The warm-up walks the tree now; this edit lands while it runs or after it, so only its
      // watcher (started before the walk) or a second walk can see it.
      writeFileSync(join(root, 'b.txt'), 'made while the model thinks\n');
      assert.deepEqual(await next.middleware.beforeTool(call('write2', 'mutating')), { action: 'allow' });
      await next.finishRun();
      const first = events.find((item): item is CheckpointEvent => item.type === 'checkpoint' && item.toolCallId === 'write2');
      const show = (path: string) => execFileSync('git', ['--git-dir', shadowDirFor(home, root), 'show', `${first!.roots[0]!.commit}:${path}`], { encoding: 'utf8' });
      assert.equal(show('a.txt'), 'edited between runs\n');
      assert.equal(show('b.txt'), 'made while the model thinks\n');
      assert.deepEqual(first?.problems, []);
    } finally {
      rmSync(home, { recursive: true, force: true });
      rmSync(root, { recursive: true, force: true });
    }
  });

  test('settings: later files win, and a malformed value names its file', () => {
    const home = mkdtempSync(join(tmpdir(), 'cove-cp-home-'));
    const root = mkdtempSync(join(tmpdir(), 'cove-cp-root-'));
    try {
      writeFileSync(join(home, 'settings.json'), JSON.stringify({ checkpoints: { required: false, maxFileBytes: 10 } }));
      assert.deepEqual(loadCheckpointSettings(home, [root]), { enabled: true, required: false, maxFileBytes: 10 });
      writeFileSync(join(home, 'settings.json'), JSON.stringify({ checkpoints: { required: 'yes' } }));
      assert.throws(
        () => loadCheckpointSettings(home, [root]),
        (error: Error) => error.message.includes(join(home, 'settings.json')) && /checkpoints\.required must be true or false/.test(error.message),
      );
    } finally {
      rmSync(home, { recursive: true, force: true });
      rmSync(root, { recursive: true, force: true });
    }
  });
});
