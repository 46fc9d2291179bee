// Search keeps each session's best message, cuts to the limit before any snippet is built, and
// ranks only the newest CANDIDATES matching messages when a word is that common.
import { test, describe } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { openStore, SNIPPET_CLOSE, SNIPPET_OPEN } from '../../electron/core/store';
import type { Store } from '../../electron/core/store';
import { CANDIDATES } from '../../electron/core/store/search';
import { writeStoredSessions } from '../../bench/session-list-fixture';

function temporaryFolder(t: { after(fn: () => void): void }): string {
  const dir = mkdtempSync(join(tmpdir(), 'cove-search-rank-'));
  t.after(() => rmSync(dir, { recursive: true, force: true }));
  return dir;
}

function openTestStore(t: { after(fn: () => void): void }, dir = temporaryFolder(t)): Store {
  let time = 1_700_000_000_000;
  const store = openStore(dir, { now: () => ++time });
  t.after(() => store.close());
  return store;
}

function sessionWith(store: Store, title: string, ...texts: string[]): string {
  const id = store.createSession({ workspaces: ['/w'], model: 'm', permissionMode: 'default', title }).id;
  texts.forEach((text, index) => store.appendMessage(id, { role: index % 2 === 0 ? 'user' : 'assistant', content: [{ type: 'text', text }] }));
  return id;
}

describe('search ranking', () => {
  test("a session's snippet comes from its best message, not its first or last", (t) => {
    const store = openTestStore(t);
    const filler = 'a long message about the release checklist, the changelog, the version bump and the tag';
    const id = sessionWith(store, 'Several', `${filler} with one mention of kestrel`, 'kestrel kestrel kestrel', `${filler} and kestrel once more`);
    const hits = store.search('kestrel');
    assert.equal(hits.length, 1, 'one hit for the session, however many of its messages match');
    assert.equal(hits[0]!.sessionId, id);
    assert.equal(hits[0]!.snippet, `${SNIPPET_OPEN}kestrel${SNIPPET_CLOSE} ${SNIPPET_OPEN}kestrel${SNIPPET_CLOSE} ${SNIPPET_OPEN}kestrel${SNIPPET_CLOSE}`);
  });

  test('the limit keeps the best sessions, each with its own snippet', (t) => {
    const store = openTestStore(t);
    const ids = Array.from({ length: 30 }, (_, index) => sessionWith(store, `S${index}`, `osprey ${'filler word '.repeat(index)} marker${index}`));
    const hits = store.search('osprey', { limit: 5 });
    // Shorter messages rank better under bm25: the first five sessions, in order.
    assert.deepEqual(
      hits.map((hit) => hit.sessionId),
      ids.slice(0, 5),
    );
    hits.forEach((hit, index) => assert.ok(hit.snippet.includes(`marker${index}`), `snippet ${index} is its own session's: ${hit.snippet}`));
  });

  test('a common word ranks the newest matches; a rare one is found at any age', (t) => {
    const dir = temporaryFolder(t);
    // The best match of all for the common word (a two-word message), stored first: the oldest.
    const first = openStore(dir, { now: () => 1_700_000_000_000 });
    const oldest = sessionWith(first, 'Old and short', 'function kestrel');
    first.close();
    // Six messages per session, most naming the common word: more matches than CANDIDATES.
    const stored = writeStoredSessions(dir, '/w', Math.ceil((CANDIDATES * 2) / 5));
    const store = openTestStore(t, dir);

    const common = store.search(stored.commonWord, { limit: 50 });
    assert.equal(common.length, 50);
    assert.ok(!common.some((hit) => hit.sessionId === oldest), 'the old match is outside the ranked window');
    const newestWindow = store.listSessions({ limit: Math.ceil(CANDIDATES / 4) }).map((session) => session.id);
    for (const hit of common) assert.ok(newestWindow.includes(hit.sessionId), `${hit.title} is among the newest sessions`);
    for (const hit of common) assert.ok(hit.snippet.includes(`${SNIPPET_OPEN}${stored.commonWord}${SNIPPET_CLOSE}`), hit.snippet);

    const rare = store.search(stored.rareWord);
    assert.ok(
      rare.some((hit) => hit.title.endsWith(', case 7')),
      `the oldest session holding the rare word is found: ${rare.map((hit) => hit.title).join('; ')}`,
    );
    assert.deepEqual(
      store.search('kestrel').map((hit) => hit.sessionId),
      [oldest],
      'a word only the old message holds finds it',
    );
  });
});
