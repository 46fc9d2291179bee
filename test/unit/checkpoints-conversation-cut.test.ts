/**
 * historyBefore on histories the agent really builds: a steered prompt merged after tool
 * results keeps those results (every kept tool_use stays answered), the same words sent twice
 * are told apart by order, and a run's prompt is found by the text its agentStart gave the agent.
 */
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { makeEvent } from '../../shared/events';
import type { ConversationMessage } from '../../electron/core/agent/types';
import { historyBefore } from '../../electron/core/checkpoints/conversation-cut';
import type { StoredEvent } from '../../electron/core/store';

const stored = (events: ReturnType<typeof makeEvent>[]) => events.map((event, index) => ({ ...event, seq: index + 1 }) as StoredEvent);
const prompt = (text: string, steered = false) => makeEvent('userMessage', { sessionId: 's', text, steered });
const start = (text: string) => makeEvent('agentStart', { sessionId: 's', model: 'm', prompt: text });

const toolUse: ConversationMessage = { role: 'assistant', content: [{ type: 'tool_use', id: 'toolu_1', name: 'bash', input: {} }] };
const toolResult = { type: 'tool_result' as const, tool_use_id: 'toolu_1', content: [{ type: 'text' as const, text: 'out' }] };

describe('historyBefore', () => {
  test('a steered prompt is cut out of its message of tool results, which stay', () => {
    const messages: ConversationMessage[] = [
      { role: 'user', content: [{ type: 'text', text: 'go' }] },
      toolUse,
      { role: 'user', content: [toolResult, { type: 'text', text: 'also this' }] },
      { role: 'assistant', content: [{ type: 'text', text: 'done' }] },
    ];
    const events = stored([prompt('go'), start('go'), prompt('also this', true)]);
    assert.deepEqual(historyBefore(messages, events, 2), [messages[0], toolUse, { role: 'user', content: [toolResult] }]);
    assert.deepEqual(historyBefore(messages, events, 1), []);
  });

  test('the same words twice: the later prompt is the later block; an expanded run prompt is found by its agentStart', () => {
    const messages: ConversationMessage[] = [
      { role: 'user', content: [{ type: 'text', text: 'again' }] },
      { role: 'assistant', content: [{ type: 'text', text: 'one' }] },
      { role: 'user', content: [{ type: 'text', text: 'again' }] },
      { role: 'assistant', content: [{ type: 'text', text: 'two' }] },
      { role: 'user', content: [{ type: 'text', text: 'Review the file: x.ts' }] },
      { role: 'assistant', content: [{ type: 'text', text: 'three' }] },
    ];
    const events = stored([prompt('again'), start('again'), prompt('again'), start('again'), prompt('/review x.ts'), start('Review the file: x.ts')]);
    assert.deepEqual(historyBefore(messages, events, 3), messages.slice(0, 4));
    assert.deepEqual(historyBefore(messages, events, 2), messages.slice(0, 2));
    assert.throws(() => historyBefore(messages, events, 4), /there is no prompt 4 in this session \(it has 3\)/);
    assert.throws(() => historyBefore(messages.slice(2), events, 1), /prompt 1 is no longer in the conversation/);
  });
});
