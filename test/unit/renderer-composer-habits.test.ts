import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { makeEvent } from '../../shared/events';
import { applyCompletion, tokenAt } from '../../renderer/features/composer/completion-token';
import { EMPTY_TRANSCRIPT, foldEvents } from '../../renderer/features/transcript/model';
import type { UserItem } from '../../renderer/features/transcript/model-types';

const sessionId = 's1';

describe('composer completion tokens', () => {
  test('a slash command only at the start; a mention at any word start', () => {
    assert.deepEqual(tokenAt('/rev', 4), { kind: 'command', query: 'rev', start: 0, end: 4 });
    assert.equal(tokenAt('say /rev', 8), null);
    assert.equal(tokenAt('/usr/bin', 8), null, 'a path is no command');
    assert.deepEqual(tokenAt('look at @src/ma please', 15), { kind: 'mention', query: 'src/ma', start: 8, end: 15 });
    assert.equal(tokenAt('mail me@x.io', 12), null);
  });

  test('accepting replaces the whole word; a folder keeps the mention open', () => {
    assert.deepEqual(applyCompletion('/rev', tokenAt('/rev', 4)!, 'review'), { text: '/review ', caret: 8 });
    const token = tokenAt('see @sr and more', 7)!;
    assert.deepEqual(applyCompletion('see @sr and more', token, 'src/'), { text: 'see @src/ and more', caret: 9 });
    assert.deepEqual(applyCompletion('see @sr and more', token, 'src/main.ts'), { text: 'see @src/main.ts and more', caret: 17 });
    assert.equal(applyCompletion('@my', tokenAt('@my', 3)!, 'my notes.md').text, '@"my notes.md" ');
  });
});

describe('transcript: prompts as typed, attachments and the task list', () => {
  const start = makeEvent('agentStart', { sessionId, model: 'm', prompt: 'Review src/a.ts carefully.' });
  const typed = makeEvent('userMessage', {
    sessionId,
    text: '/review src/a.ts',
    steered: false,
    command: 'review',
    attachments: [{ kind: 'file', path: 'src/a.ts' }],
  });

  test("a run's userMessage puts the typed text and attachments on its prompt row", () => {
    const state = foldEvents(EMPTY_TRANSCRIPT, [typed, start], 1);
    const users = state.items.filter((item): item is UserItem => item.kind === 'user');
    assert.equal(users.length, 1);
    assert.equal(users[0]!.text, '/review src/a.ts');
    assert.deepEqual(users[0]!.attachments, [{ kind: 'file', path: 'src/a.ts' }]);
  });

  test('hooks and the run start after the prompt: still one row, as typed', () => {
    const state = foldEvents(EMPTY_TRANSCRIPT, [typed, start, makeEvent('messageStart', { sessionId, messageId: 'm1', role: 'assistant' })], 1);
    const users = state.items.filter((item): item is UserItem => item.kind === 'user');
    assert.deepEqual(
      users.map((user) => user.text),
      ['/review src/a.ts'],
    );
    assert.equal(state.running, true);
  });

  test('a built-in command keeps its answer and takes no later run', () => {
    const cost = makeEvent('userMessage', { sessionId, text: '/cost', steered: false, command: 'cost', answer: 'This session: $0.01' });
    const next = makeEvent('userMessage', { sessionId, text: 'go on', steered: false });
    const state = foldEvents(EMPTY_TRANSCRIPT, [cost, next, makeEvent('agentStart', { sessionId, model: 'm', prompt: 'go on' })], 1);
    const users = state.items.filter((item): item is UserItem => item.kind === 'user');
    assert.deepEqual(
      users.map((user) => [user.text, user.answer]),
      [
        ['/cost', 'This session: $0.01'],
        ['go on', undefined],
      ],
    );
  });

  test('the latest todoUpdate of the main agent is the list; a subagent list is not', () => {
    const todos = [
      { content: 'a', status: 'completed' as const },
      { content: 'b', status: 'in_progress' as const },
    ];
    const state = foldEvents(EMPTY_TRANSCRIPT, [start, makeEvent('todoUpdate', { sessionId, todos }), makeEvent('todoUpdate', { sessionId, subagentId: 'x', todos: [] })], 1);
    assert.deepEqual(state.todos, todos);
  });
});
