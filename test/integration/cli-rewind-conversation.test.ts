/**
 * `cove rewind --conversation` through the built `cove`: two prompts, a rewind to before the
 * second that cuts the conversation too, and a third prompt whose request, as the scripted model
 * server receives it, holds the first exchange and nothing of the second. The stored events keep
 * the second prompt (the audit loses nothing) and the rewind event says the cut was made.
 */
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { openStore } from '../../electron/core/store';
import { block, reply } from '../support/model-server';
import { cliFixture } from '../support/cove-cli';

const SCRIPT = [
  reply.message([block.toolUse('write_file', { path: 'one.txt', content: 'one\n' }, { id: 'toolu_one' })]),
  reply.text('first answer'),
  reply.message([block.toolUse('write_file', { path: 'two.txt', content: 'two\n' }, { id: 'toolu_two' })]),
  reply.text('second answer'),
  reply.text('third answer'),
  reply.text('fourth answer'),
];

describe('cove rewind --conversation', () => {
  test('the next request starts from before the prompt: the cut messages are not sent, the files are back, the events stay', async () => {
    const f = await cliFixture(SCRIPT);
    try {
      const run = (args: string[]) => f.home.run(['run', '--json', '--permission-mode', 'bypass', ...args]);
      const first = await run(['--workspace', f.workspace, 'PROMPT-ONE write one']);
      assert.equal(first.code, 0, first.stderr);
      const id = first.events[0]!.sessionId;
      const second = await run(['--resume', id, 'PROMPT-TWO write two']);
      assert.equal(second.code, 0, second.stderr);
      assert.ok(existsSync(join(f.workspace, 'two.txt')));

      const dry = await f.home.run(['rewind', id, '--to', '2', '--conversation', '--dry-run']);
      assert.equal(dry.code, 0, dry.stderr);
      assert.match(dry.stdout, /would cut the conversation back to before prompt 2/);
      const rewound = await f.home.run(['rewind', id, '--to', '2', '--conversation']);
      assert.equal(rewound.code, 0, `${rewound.stdout}\n${rewound.stderr}`);
      assert.match(rewound.stdout, /cutting the conversation back to before prompt 2/);
      assert.equal(existsSync(join(f.workspace, 'two.txt')), false);
      assert.equal(readFileSync(join(f.workspace, 'one.txt'), 'utf8'), 'one\n');

      const third = await run(['--resume', id, 'PROMPT-THREE what now?']);
      assert.equal(third.code, 0, third.stderr);
      const sent = JSON.stringify(f.server.requests.at(-1)!.body.messages);
      assert.match(sent, /PROMPT-ONE write one/);
      assert.match(sent, /first answer/);
      assert.match(sent, /toolu_one/);
      assert.match(sent, /PROMPT-THREE what now\?/);
      for (const gone of [/PROMPT-TWO/, /second answer/, /toolu_two/, /rewound the workspace files/]) assert.doesNotMatch(sent, gone);

      const store = openStore(f.home.path);
      try {
        const events = store.loadEvents(id);
        assert.ok(
          events.some((event) => event.type === 'userMessage' && event.text === 'PROMPT-TWO write two'),
          'the cut prompt stays in the events',
        );
        const rewind = events.find((event) => event.type === 'rewind');
        assert.equal(rewind?.type === 'rewind' && rewind.conversationCut, true);
      } finally {
        store.close();
      }

      // Without --conversation the conversation goes on, told what the rewind undid.
      const kept = await f.home.run(['rewind', id, '--to', '1']);
      assert.equal(kept.code, 0, `${kept.stdout}\n${kept.stderr}`);
      const fourth = await run(['--resume', id, 'PROMPT-FOUR and now?']);
      assert.equal(fourth.code, 0, fourth.stderr);
      const next = JSON.stringify(f.server.requests.at(-1)!.body.messages);
      assert.match(next, /PROMPT-THREE/);
      assert.match(next, /rewound the workspace files to how they were before their prompt 1/);
    } finally {
      await f.close();
    }
  });

  test('a prompt that is no longer in the conversation is refused by name, and nothing changes', async () => {
    const f = await cliFixture([reply.message([block.toolUse('write_file', { path: 'a.txt', content: 'a\n' }, { id: 'toolu_a' })]), reply.text('ok')]);
    try {
      const first = await f.home.run(['run', '--json', '--permission-mode', 'bypass', '--workspace', f.workspace, 'write a']);
      assert.equal(first.code, 0, first.stderr);
      const id = first.events[0]!.sessionId;
      const store = openStore(f.home.path);
      store.replaceMessages(id, []);
      store.close();
      const refused = await f.home.run(['rewind', id, '--to', '1', '--conversation']);
      assert.equal(refused.code, 2);
      assert.match(refused.stderr, /prompt 1 is no longer in the conversation the model is sent .*rewind the files alone/);
      assert.ok(existsSync(join(f.workspace, 'a.txt')));
    } finally {
      await f.close();
    }
  });
});
