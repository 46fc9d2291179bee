/**
 * The review pane's reverts in the session's record (electron/core/checkpoints/session-reverts.ts)
 * after a real `cove run`, stored in the real SQLite file: a hunk revert leaves a `revert`
 * event with the root before and after; `cove sessions --changes` ends the session's change at
 * what it left and lists it; undoing it puts the agent's line back, is recorded too, and a second
 * undo is refused; an undo over a line changed by hand since is refused with the file named and
 * nothing written; a rewind afterwards does not take the revert for a hand edit.
 */
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { RevertEvent } from '../../shared/events';
import type { SessionChangesView } from '../../shared/contract';
import { RewindError } from '../../electron/core/checkpoints/rewind';
import { planRewind } from '../../electron/core/checkpoints/rewind';
import { recordedHunkRevert, undoRevert } from '../../electron/core/checkpoints/session-reverts';
import { timelineOf } from '../../electron/core/checkpoints/timeline';
import { sessionChanges } from '../../electron/core/checkpoints/changes';
import { NO_SECRETS } from '../../electron/core/agent/types';
import { openStore } from '../../electron/core/store';
import { block, reply } from '../support/model-server';
import { cliFixture, type CliFixture } from '../support/cove-cli';

const LINES = Array.from({ length: 30 }, (_, index) => `line ${index + 1}`);
const ORIGINAL = `${LINES.join('\n')}\n`;

const SCRIPT = [
  reply.message([block.toolUse('edit_file', { path: 'list.txt', old_text: 'line 3\n', new_text: 'line three\n' }, { id: 'toolu_first' })]),
  reply.message([block.toolUse('edit_file', { path: 'list.txt', old_text: 'line 27\n', new_text: 'line twenty-seven\n' }, { id: 'toolu_second' })]),
  reply.text('done'),
];

/** A real `cove run` of SCRIPT over list.txt: the file, the text the agent left and the session's id. */
async function editedList(f: CliFixture) {
  const file = join(f.workspace, 'list.txt');
  writeFileSync(file, ORIGINAL);
  const result = await f.home.run(['run', '--json', '--workspace', f.workspace, '--permission-mode', 'bypass', 'edit the list']);
  assert.equal(result.code, 0, result.stderr);
  return { file, edited: readFileSync(file, 'utf8'), id: result.events[0]!.sessionId };
}

describe('recorded reverts', () => {
  test('a hunk revert is an event, --changes accounts for it, and it can be undone once', async () => {
    const f = await cliFixture(SCRIPT);
    try {
      const { file, edited, id } = await editedList(f);
      assert.match(edited, /line three\n[\s\S]*line twenty-seven\n/);

      const store = openStore(f.home.path);
      const record = (event: RevertEvent) => void store.appendEvents(id, [event]);
      const base = { coveHome: f.home.path, workspaceRoots: [f.workspace], sessionId: id, record };
      const report = await recordedHunkRevert({ ...base, timeline: timelineOf(store.loadEvents(id)), root: f.workspace, path: 'list.txt', prompt: 1, hunk: 0 });
      assert.equal(report.reverted, true, report.reason);
      const reverted = edited.replace('line three\n', 'line 3\n');
      assert.equal(readFileSync(file, 'utf8'), reverted);

      const reverts = timelineOf(store.loadEvents(id)).reverts;
      assert.equal(reverts.length, 1);
      assert.deepEqual(
        { scope: reverts[0]!.scope, prompt: reverts[0]!.prompt, paths: reverts[0]!.paths, hunk: reverts[0]!.hunk },
        { scope: 'hunk', prompt: 1, paths: [file], hunk: report.hunk },
      );
      assert.notEqual(reverts[0]!.roots[0]!.before, reverts[0]!.roots[0]!.after);
      store.close();

      const changes = await f.home.run(['sessions', '--changes', id, '--json']);
      assert.equal(changes.code, 0, changes.stderr);
      const view = JSON.parse(changes.stdout) as SessionChangesView;
      const sessionDiff = view.session.find((entry) => entry.path === 'list.txt')!.diff;
      assert.doesNotMatch(sessionDiff, /line three/, 'the whole session ends at what the revert left');
      assert.match(sessionDiff, /\+line twenty-seven/);
      // By prompt agrees with the whole session: prompt 1's change no longer holds the reverted hunk.
      const promptDiff = view.prompts[0]!.files.find((entry) => entry.path === 'list.txt')!.diff;
      assert.doesNotMatch(promptDiff, /line three/, "prompt 1's change ends at what the revert left");
      assert.match(promptDiff, /\+line twenty-seven/);
      assert.deepEqual(
        view.reverts?.map((entry) => [entry.scope, entry.paths, entry.undone]),
        [['hunk', [file], false]],
      );
      const text = await f.home.run(['sessions', '--changes', id]);
      assert.match(text.stdout, new RegExp(`put back in the review pane:\\n  #${reverts[0]!.seq} reverted the hunk @@ -1,6 \\+1,6 @@ of ${file} \\(prompt 1's change\\)`));
      assert.match(text.stdout, new RegExp(`\\(cove rewind ${id} --undo-revert ${reverts[0]!.seq} puts the agent's change back\\)`));

      // The revert is Cove's own change: a rewind does not call list.txt changed by hand.
      const again = openStore(f.home.path);
      const plan = await planRewind({ coveHome: f.home.path, workspaceRoots: [f.workspace], timeline: timelineOf(again.loadEvents(id)), toPrompt: 1 });
      assert.deepEqual(plan.conflicts, []);

      const undo = await undoRevert({ ...base, record: (event) => void again.appendEvents(id, [event]), timeline: timelineOf(again.loadEvents(id)), seq: reverts[0]!.seq });
      assert.equal(undo.undone, true);
      assert.deepEqual(undo.restored, [file]);
      assert.equal(readFileSync(file, 'utf8'), edited, "the agent's line is back, byte for byte");
      const undoneView = JSON.parse((await f.home.run(['sessions', '--changes', id, '--json'])).stdout) as SessionChangesView;
      assert.match(undoneView.prompts[0]!.files.find((entry) => entry.path === 'list.txt')!.diff, /\+line three/, 'the undone revert is back in the prompt view');
      const after = timelineOf(again.loadEvents(id));
      assert.equal(after.reverts.at(-1)!.undoes, reverts[0]!.seq);
      await assert.rejects(undoRevert({ ...base, timeline: after, seq: reverts[0]!.seq }), (error: Error) => error instanceof RewindError && /undone already/.test(error.message));
      await assert.rejects(undoRevert({ ...base, timeline: after, seq: 9999 }), /no revert at seq 9999/);

      // Reverted again, then the line is edited by hand: the undo refuses and writes nothing.
      const second = await recordedHunkRevert({ ...base, record: (event) => void again.appendEvents(id, [event]), timeline: after, root: f.workspace, path: 'list.txt', prompt: 1, hunk: 0 });
      assert.equal(second.reverted, true, second.reason);
      const byHand = readFileSync(file, 'utf8').replace('line 3\n', 'line 3, by hand\n');
      writeFileSync(file, byHand);
      const latest = timelineOf(again.loadEvents(id));
      const refused = await undoRevert({ ...base, timeline: latest, seq: latest.reverts.at(-1)!.seq });
      assert.deepEqual(refused, { undone: false, restored: [], removed: [], conflicts: [file], failed: [] });
      assert.equal(readFileSync(file, 'utf8'), byHand);
      assert.equal(timelineOf(again.loadEvents(id)).reverts.length, 3, 'a refused undo records nothing');
      again.close();
    } finally {
      await f.close();
    }
  });

  test("after a hunk revert, the prompt view's hunks are the ones Revert hunk counts: its first is now the other one", async () => {
    const f = await cliFixture(SCRIPT);
    try {
      const { file, id } = await editedList(f);
      const store = openStore(f.home.path);
      try {
        const base = {
          coveHome: f.home.path,
          workspaceRoots: [f.workspace],
          sessionId: id,
          record: (event: RevertEvent) => void store.appendEvents(id, [event]),
          root: f.workspace,
          path: 'list.txt',
          prompt: 1,
        };
        assert.equal((await recordedHunkRevert({ ...base, timeline: timelineOf(store.loadEvents(id)), hunk: 0 })).reverted, true);
        const view = await sessionChanges({ coveHome: f.home.path, workspaceRoots: [f.workspace], timeline: timelineOf(store.loadEvents(id)), secrets: NO_SECRETS });
        assert.equal(view.prompts[0]!.files[0]!.diff.match(/^@@ /gm)?.length, 1, 'one hunk is left in prompt 1');
        const next = await recordedHunkRevert({ ...base, timeline: timelineOf(store.loadEvents(id)), hunk: 0 });
        assert.equal(next.reverted, true, next.reason);
        assert.equal(readFileSync(file, 'utf8'), ORIGINAL, 'the first hunk shown was line 27, and it is put back');
        const empty = await sessionChanges({ coveHome: f.home.path, workspaceRoots: [f.workspace], timeline: timelineOf(store.loadEvents(id)), secrets: NO_SECRETS });
        assert.deepEqual(empty.prompts[0]!.files, [], 'nothing of prompt 1 is left to show');
        assert.deepEqual(empty.session, []);
      } finally {
        store.close();
      }
    } finally {
      await f.close();
    }
  });

  test('cove rewind --undo-revert undoes a revert made in the app, once, and refuses over a hand edit; bad input is one clear line', async () => {
    const f = await cliFixture(SCRIPT);
    try {
      const { file, edited, id } = await editedList(f);
      const revertOnce = async () => {
        const store = openStore(f.home.path);
        try {
          const record = (event: RevertEvent) => void store.appendEvents(id, [event]);
          const base = { coveHome: f.home.path, workspaceRoots: [f.workspace], sessionId: id, record, root: f.workspace, path: 'list.txt', prompt: 1, hunk: 0 };
          assert.equal((await recordedHunkRevert({ ...base, timeline: timelineOf(store.loadEvents(id)) })).reverted, true);
          return timelineOf(store.loadEvents(id)).reverts.at(-1)!.seq;
        } finally {
          store.close();
        }
      };
      const seq = await revertOnce();
      const reverted = readFileSync(file, 'utf8');

      const dry = await f.home.run(['rewind', id, '--undo-revert', `#${seq}`, '--dry-run']);
      assert.equal(dry.code, 0, dry.stderr);
      assert.match(dry.stdout, new RegExp(`would undo revert #${seq} of session ${id}: the agent's change would be back\\n  put back  ${file}\\ndry run: nothing was changed`));
      assert.equal(readFileSync(file, 'utf8'), reverted, 'a dry run changes nothing');

      const undo = await f.home.run(['rewind', id, '--undo-revert', String(seq)]);
      assert.equal(undo.code, 0, undo.stderr);
      assert.match(undo.stdout, new RegExp(`undid revert #${seq} of session ${id}`));
      assert.equal(readFileSync(file, 'utf8'), edited, "the agent's line is back, byte for byte");
      const store = openStore(f.home.path);
      const undone = timelineOf(store.loadEvents(id)).reverts.at(-1)!;
      const told = JSON.stringify(store.loadMessages(id).at(-1));
      store.close();
      assert.equal(undone.undoes, seq, 'recorded as the app records it');
      assert.match(told, /undid their revert of .*list\.txt: your change is back/, 'the model is told at its next run');
      const listed = await f.home.run(['sessions', '--changes', id]);
      assert.match(listed.stdout, new RegExp(`#${undone.seq} undid #${seq}`));

      const twice = await f.home.run(['rewind', id, '--undo-revert', String(seq)]);
      assert.equal(twice.code, 2);
      assert.match(twice.stderr, new RegExp(`cove rewind: --undo-revert ${seq}: the revert at seq ${seq} was undone already`));

      // Reverted again in the app, then edited by hand: refused, the file named, nothing written.
      const again = await revertOnce();
      const byHand = readFileSync(file, 'utf8').replace('line 3\n', 'line 3, by hand\n');
      writeFileSync(file, byHand);
      const refused = await f.home.run(['rewind', id, '--undo-revert', String(again)]);
      assert.equal(refused.code, 1);
      assert.match(refused.stderr, new RegExp(`refused: changed since revert #${again}, and would be overwritten: ${file}; nothing was changed`));
      assert.equal(readFileSync(file, 'utf8'), byHand);

      for (const [args, message] of [
        [['--undo-revert', 'last'], /--undo-revert takes the number of a revert, as cove sessions --changes lists it \(#N; got 'last'\)/],
        [['--undo-revert', String(again), '--to', '1'], /--undo-revert puts back exactly what that revert changed; it takes no --to/],
        [['--undo-revert', '9999'], /there is no revert at seq 9999 in this session/],
      ] as const) {
        const bad = await f.home.run(['rewind', id, ...args]);
        assert.equal(bad.code, 2, bad.stderr);
        assert.match(bad.stderr, message);
        assert.equal(bad.stderr.trim().split('\n').length, 1, 'one line');
      }
    } finally {
      await f.close();
    }
  });
});
