/**
 * A long streamed reply through `cove run --json`, the real SDK and the scripted server: the
 * deltas are coalesced and redacted before they are numbered, and none of that may lose, double
 * or reorder text. The 20,000-delta reply is the engine benchmark's; a merged delta there is far
 * longer than the redaction's 2 KB window, which once sent only its last 2 KB.
 */
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import type { CoveEvent } from '../../shared/events';
import { openStore } from '../../electron/core/store';
import { reply } from '../support/model-server';
import { cliFixture } from '../support/cove-cli';

const streamedText = (events: readonly CoveEvent[]) => events.flatMap((e) => (e.type === 'messageUpdate' && e.delta.type === 'text' ? [e.delta.text] : [])).join('');
const endedText = (events: readonly CoveEvent[]) => events.flatMap((e) => (e.type === 'messageEnd' ? e.content.flatMap((b) => (b.type === 'text' ? [b.text] : [])) : [])).join('');

describe('cove run and a long stream', () => {
  test('20,000 deltas: every one arrives, in order, numbered without a gap, stored as printed', async () => {
    const deltas = Array.from({ length: 20_000 }, (_, i) => `${i} `);
    const f = await cliFixture([reply.message([{ type: 'text', deltas }])]);
    try {
      const result = await f.home.run(['run', '--json', '--workspace', f.workspace, 'stream']);
      assert.equal(result.code, 0, result.stderr);
      const whole = deltas.join('');
      const streamed = streamedText(result.events);
      assert.equal(streamed.length, whole.length, 'the streamed text is as long as the reply');
      assert.equal(streamed, whole);
      assert.equal(endedText(result.events), whole);
      assert.deepEqual(
        result.events.map((e) => (e as { seq?: number }).seq),
        result.events.map((_, i) => i + 1),
      );
      assert.ok(result.events.filter((e) => e.type === 'messageUpdate').length < deltas.length, 'deltas a frame apart are coalesced');
      const store = openStore(f.home.path);
      try {
        const stored = store.loadEvents(result.events[0]!.sessionId);
        assert.deepEqual(JSON.parse(JSON.stringify(stored)), result.events, 'the store holds exactly what was printed');
      } finally {
        store.close();
      }
    } finally {
      await f.close();
    }
  });

  test('a token split over two deltas amid thousands never goes out whole; the text around it does', async () => {
    const token = `ghp_${'a1B2c3D4e5'.repeat(4).slice(0, 36)}`;
    const filler = (n: number) => Array.from({ length: n }, () => 'tok ');
    const deltas = [...filler(5_000), `token ${token.slice(0, 10)}`, `${token.slice(10)} `, ...filler(5_000)];
    const f = await cliFixture([reply.message([{ type: 'text', deltas }])]);
    try {
      const result = await f.home.run(['run', '--json', '--workspace', f.workspace, 'stream']);
      assert.equal(result.code, 0, result.stderr);
      assert.ok(!result.stdout.includes(token), 'no event carries the token');
      assert.ok(!result.stdout.includes(token.slice(10)), "no event carries the token's tail");
      const streamed = streamedText(result.events);
      assert.match(streamed, /\[REDACTED:github-[a-z-]+\]/);
      assert.ok(streamed.startsWith(`${'tok '.repeat(5_000)}token `), 'the text before the token arrives whole');
      assert.ok(streamed.endsWith(`] ${'tok '.repeat(5_000)}`), 'the text after the token arrives whole');
      assert.equal(endedText(result.events), `${'tok '.repeat(5_000)}token ${streamed.match(/\[REDACTED:[a-z-]+\]/)![0]} ${'tok '.repeat(5_000)}`);
    } finally {
      await f.close();
    }
  });
});
