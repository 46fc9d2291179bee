/**
 * The `cove` bundle carries zod's English messages only (scripts/zod-english-only.mjs): the other
 * locales were 368 KB parsed at every start. The messages a tool's bad arguments get through the
 * built command are still zod's English ones.
 */
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { readdirSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { block, reply } from '../support/model-server';
import { cliFixture, COVE_BIN } from '../support/cove-cli';

const dist = join(dirname(COVE_BIN), '..', 'dist');

describe('the cove bundle and zod', () => {
  test("holds zod's English locale and no other", () => {
    const locales = readdirSync(dist)
      .filter((name) => /^cli-.+\.js$/.test(name))
      .flatMap((name) => readFileSync(join(dist, name), 'utf8').match(/^\/\/ node_modules\/zod\/v4\/locales\/[^\s]+/gm) ?? []);
    assert.deepEqual([...new Set(locales)], ['// node_modules/zod/v4/locales/en.js']);
  });

  test("a tool argument out of range is told in zod's English words", async () => {
    const f = await cliFixture([reply.message([block.toolUse('read_file', { path: 'a.txt', offset: 0 }, { id: 'toolu_range' })]), reply.text('ok')]);
    try {
      const result = await f.home.run(['run', '--json', '--workspace', f.workspace, 'read it']);
      assert.equal(result.code, 0, result.stderr);
      const end = result.events.find((e) => e.type === 'toolExecutionEnd');
      assert.ok(end && end.type === 'toolExecutionEnd' && end.isError);
      assert.match(JSON.stringify(end.result.content), /field 'offset' Too small: expected number to be >=1/);
    } finally {
      await f.close();
    }
  });
});
