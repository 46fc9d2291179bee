/**
 * The assembler hands deltas on once per network read: the consecutive deltas of one block that
 * arrive together become one, a delta of another block hands the held one on first, and a held
 * delta goes out by itself once the current read is parsed, so a slow stream is not held back.
 * The events are fed in the shapes the SDK yields them; the end-to-end path (real SDK, scripted
 * server) is in test/unit/agent-loop.test.ts and test/integration/cli-long-stream.test.ts.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import type Anthropic from '@anthropic-ai/sdk';
import type { MessageDelta } from '../../shared/events';
import { MessageAssembler } from '../../electron/core/agent/provider';

type Event = Anthropic.RawMessageStreamEvent;

function assembler() {
  const handed: MessageDelta[] = [];
  const asHanded: MessageDelta[] = [];
  const instance = new MessageAssembler({
    onStart: () => {},
    onDelta: (delta) => {
      handed.push(delta);
      asHanded.push(structuredClone(delta));
    },
  });
  const feed = (...events: unknown[]) => events.forEach((event) => instance.accept(event as Event));
  return { instance, handed, asHanded, feed };
}

const start = { type: 'message_start', message: { id: 'msg_1', usage: { input_tokens: 1, output_tokens: 0 } } };
const textBlock = (index: number) => ({ type: 'content_block_start', index, content_block: { type: 'text', text: '' } });
const toolBlock = (index: number) => ({ type: 'content_block_start', index, content_block: { type: 'tool_use', id: 'toolu_1', name: 'bash', input: {} } });
const text = (index: number, value: string) => ({ type: 'content_block_delta', index, delta: { type: 'text_delta', text: value } });
const json = (index: number, value: string) => ({ type: 'content_block_delta', index, delta: { type: 'input_json_delta', partial_json: value } });
const stop = (index: number) => ({ type: 'content_block_stop', index });
const nextImmediate = () => new Promise((resolve) => setImmediate(resolve));

test('deltas of one block that arrive together are handed on as one; another block hands the held one on first', () => {
  const { instance, handed, feed } = assembler();
  feed(start, textBlock(0), ...Array.from({ length: 1000 }, (_, i) => text(0, `${i} `)), stop(0), toolBlock(1), json(1, '{"command":'), json(1, '"ls"}'), stop(1));
  assert.deepEqual(handed, [{ type: 'text', index: 0, text: Array.from({ length: 1000 }, (_, i) => `${i} `).join('') }]);
  instance.flush();
  assert.deepEqual(handed.slice(1), [{ type: 'toolCallDelta', index: 1, toolCallId: 'toolu_1', toolName: 'bash', partialJson: '{"command":"ls"}' }]);
  instance.flush();
  assert.equal(handed.length, 2, 'nothing is handed on twice');
});

test('a held delta goes out by itself once the read is parsed, and later deltas start a new one', async () => {
  const { instance, handed, asHanded, feed } = assembler();
  feed(start, textBlock(0), text(0, 'a'), text(0, 'b'));
  assert.deepEqual(handed, [], 'held while the read is parsed');
  await nextImmediate();
  assert.deepEqual(handed, [{ type: 'text', index: 0, text: 'ab' }]);
  feed(text(0, 'c'));
  await nextImmediate();
  assert.deepEqual(handed.slice(1), [{ type: 'text', index: 0, text: 'c' }]);
  assert.deepEqual(handed, asHanded, 'what was handed on is never changed afterwards');
  assert.deepEqual(instance.partial(), [{ type: 'text', text: 'abc' }], 'the message holds every delta once');
});
