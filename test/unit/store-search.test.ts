import { test, describe } from 'node:test';
import assert from 'node:assert/strict';
import { SNIPPET_CLOSE, SNIPPET_OPEN } from '../../electron/core/store';
import type { Store } from '../../electron/core/store';
import { toMatchQuery } from '../../electron/core/store/search-query';
import { openTestStore } from '../support/store';

function sessionWith(store: Store, title: string, ...texts: string[]): string {
  const id = store.createSession({ workspaces: ['/w'], model: 'm', permissionMode: 'default', title }).id;
  texts.forEach((text, index) => store.appendMessage(id, { role: index % 2 === 0 ? 'user' : 'assistant', content: [{ type: 'text', text }] }));
  return id;
}

describe('toMatchQuery', () => {
  test('quotes every word as a prefix phrase and drops punctuation-only words', () => {
    assert.equal(toMatchQuery('fix parser'), '"fix"* "parser"*');
    assert.equal(toMatchQuery('  foo"bar  '), '"foo""bar"*');
    assert.equal(toMatchQuery('AND OR ( )'), '"AND"* "OR"*');
    assert.equal(toMatchQuery('a\u0000b'), '"a"* "b"*');
    assert.equal(toMatchQuery('" * ( - ^ :'), null);
    assert.equal(toMatchQuery(''), null);
  });
});

describe('search', () => {
  test('finds text across sessions with title and a highlighted snippet', (t) => {
    const { store } = openTestStore(t);
    const parser = sessionWith(store, 'Parser work', 'The tokenizer drops the last character of a heredoc', 'I will fix the tokenizer.');
    sessionWith(store, 'Styling', 'Make the sidebar darker');

    const hits = store.search('heredoc');
    assert.equal(hits.length, 1);
    assert.equal(hits[0]!.sessionId, parser);
    assert.equal(hits[0]!.title, 'Parser work');
    assert.equal(hits[0]!.status, 'idle');
    assert.deepEqual(hits[0]!.workspaces, ['/w']);
    assert.equal(hits[0]!.updatedAt, store.getSession(parser)!.updatedAt);
    assert.ok(hits[0]!.snippet.includes(`${SNIPPET_OPEN}heredoc${SNIPPET_CLOSE}`), hits[0]!.snippet);
    assert.equal(hits[0]!.matches, 1);
    assert.equal(store.search('tokenizer')[0]!.matches, 2, 'both messages of the session that say it');

    assert.deepEqual(
      store.search('TOKENIZER').map((hit) => hit.sessionId),
      [parser],
      'one hit per session, any case',
    );
    assert.deepEqual(
      store.search('sideb').map((hit) => hit.title),
      ['Styling'],
      'words match as prefixes',
    );
    assert.deepEqual(store.search('sidebar tokenizer'), [], 'every word must match in one message');
    assert.deepEqual(store.search('nonexistentword'), []);
  });

  test('ranks the session that matches best first', (t) => {
    const { store } = openTestStore(t);
    const filler = 'the build pipeline runs lint then unit tests then packaging for every platform we ship';
    const weak = sessionWith(store, 'Weak', `${filler} and once mentions migrations near the end. ${filler}`);
    const strong = sessionWith(store, 'Strong', 'migrations: migrations of the schema, migrations again');
    const middle = sessionWith(store, 'Middle', `schema migrations and ${filler}`);
    assert.deepEqual(
      store.search('migrations').map((hit) => hit.sessionId),
      [strong, middle, weak],
    );
    assert.deepEqual(
      store.search('migrations', { limit: 2 }).map((hit) => hit.sessionId),
      [strong, middle],
    );
  });

  test('indexes prose, not tool inputs or results', (t) => {
    const { store } = openTestStore(t);
    const id = sessionWith(store, 'Tools', 'read the config');
    store.appendMessage(id, {
      role: 'assistant',
      content: [
        { type: 'text', text: 'Reading it now.' },
        { type: 'tool_use', id: 'c1', name: 'read_file', input: { path: 'wombat.json' } },
      ],
    });
    store.appendMessage(id, { role: 'user', content: [{ type: 'tool_result', tool_use_id: 'c1', content: 'platypus: true' }] });
    assert.deepEqual(
      store.search('reading').map((hit) => hit.sessionId),
      [id],
    );
    assert.deepEqual(store.search('wombat'), []);
    assert.deepEqual(store.search('platypus'), []);
  });

  test('hostile input never throws and still finds the words in it', (t) => {
    const { store } = openTestStore(t);
    const id = sessionWith(store, 'Quotes', 'the foo"bar case and the NEAR operator in src/store.ts');
    const hostile = [
      'foo"bar',
      'AND OR (',
      '"',
      '""',
      '"unterminated',
      'NEAR(',
      'NEAR(a b, 2)',
      'a NOT b',
      '*',
      'foo*',
      '-foo',
      '+foo',
      '^foo',
      'text:foo',
      '{text}: foo',
      '(((((',
      ')',
      'foo AND',
      'OR',
      "'; DROP TABLE messages; --",
      '\u0000',
      '\\',
      '💥 emoji',
      'x'.repeat(10_000),
      '\n\t ',
    ];
    for (const query of hostile) {
      assert.doesNotThrow(() => store.search(query), `query ${JSON.stringify(query)} threw`);
    }
    for (const query of ['foo"bar', '(foo', 'near(', 'src/store.ts', 'store.ts)', '"operator"', 'NEAR operator', 'AND foo']) {
      assert.deepEqual(
        store.search(query).map((hit) => hit.sessionId),
        [id],
        `query ${JSON.stringify(query)} missed`,
      );
    }
    assert.equal(store.loadMessages(id).length, 1, 'the messages table is intact');
  });
});
