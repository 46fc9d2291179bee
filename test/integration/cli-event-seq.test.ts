import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { block, reply } from '../support/model-server';
import { cliFixture } from '../support/cove-cli';
import { openStore } from '../../electron/core/store';

describe('seq through cove run --json', () => {
  test('every printed event carries the seq it is stored under, counting up without a gap, across runs', async () => {
    const f = await cliFixture([
      reply.message([block.text('Reading it.', { chunks: 5 }), block.toolUse('read_file', { path: 'a.txt' }, { id: 'toolu_a' })]),
      reply.text('It says alpha.', { chunks: 3 }),
      reply.text('Still alpha.', { chunks: 2 }),
    ]);
    try {
      writeFileSync(join(f.workspace, 'a.txt'), 'alpha\n');
      const first = await f.home.run(['run', '--json', '--workspace', f.workspace, 'what does a say?']);
      assert.equal(first.code, 0, first.stderr);
      const sessionId = first.events[0]!.sessionId;
      const second = await f.home.run(['run', '--json', '--resume', sessionId, 'and now?']);
      assert.equal(second.code, 0, second.stderr);
      const printed = [...first.events, ...second.events] as Array<(typeof first.events)[number] & { seq?: number }>;
      assert.deepEqual(
        printed.map((event) => event.seq),
        printed.map((_, index) => index + 1),
        'the resumed run goes on from the stored seq',
      );
      const store = openStore(f.home.path);
      try {
        assert.deepEqual(store.loadEvents(sessionId), printed, 'stored and printed are the same events, deltas included');
      } finally {
        store.close();
      }
    } finally {
      await f.close();
    }
  });
});
