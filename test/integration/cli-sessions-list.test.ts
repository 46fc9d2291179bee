/**
 * `cove sessions` sizes its list: the 200 most recent by default, saying how many there are in
 * all and how to see them; `--limit N` and `--all`. Real store file, real `cove` process.
 */
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { openStore } from '../../electron/core/store';
import { CoveHome } from '../support/cove-cli';

const TOTAL = 230;
let home: CoveHome;
/** Ids newest first, as the list shows them. */
let newestFirst: string[];

before(() => {
  home = new CoveHome();
  const store = openStore(home.path);
  try {
    const made = Array.from({ length: TOTAL }, (_, index) => store.createSession({ workspaces: ['/tmp'], title: `session ${index}`, model: 'claude-sonnet-4-5', permissionMode: 'default' }));
    newestFirst = store.listSessions().map((session) => session.id);
    assert.equal(made.length, newestFirst.length);
  } finally {
    store.close();
  }
});
after(() => home.remove());

const ids = (stdout: string) =>
  stdout
    .trim()
    .split('\n')
    .map((line) => (JSON.parse(line) as { id: string }).id);

describe('cove sessions lists', () => {
  test('the 200 most recent by default, and says how many there are and how to list them', async () => {
    const result = await home.run(['sessions', '--json']);
    assert.equal(result.code, 0, result.stderr);
    assert.deepEqual(ids(result.stdout), newestFirst.slice(0, 200));
    assert.equal(result.stderr, `cove sessions: the 200 most recent of ${TOTAL} sessions; --limit N lists more, --all lists every one\n`);
  });

  test('as many as --limit says, and every one with --all, without a note', async () => {
    const limited = await home.run(['sessions', '--json', '--limit', '7']);
    assert.deepEqual(ids(limited.stdout), newestFirst.slice(0, 7));
    assert.match(limited.stderr, new RegExp(`the 7 most recent of ${TOTAL} sessions`));
    const all = await home.run(['sessions', '--all']);
    assert.equal(all.code, 0, all.stderr);
    assert.equal(all.stdout.trim().split('\n').length, TOTAL);
    assert.equal(all.stderr, '');
    const enough = await home.run(['sessions', '--json', '--limit', String(TOTAL)]);
    assert.deepEqual(ids(enough.stdout), newestFirst);
    assert.equal(enough.stderr, '');
  });

  test('refuses a --limit that is not a count, or one given with --all or --search', async () => {
    for (const [args, expected] of [
      [['--limit', '0'], /--limit must be a whole number of at least 1 \(got '0'\)/],
      [['--limit', 'ten'], /--limit must be a whole number/],
      [['--limit', '5', '--all'], /either --limit N or --all/],
      [['--all', '--search', 'x'], /--limit and --all size the list of sessions/],
    ] as const) {
      const result = await home.run(['sessions', ...args]);
      assert.equal(result.code, 2, `${args.join(' ')}: ${result.stderr}`);
      assert.match(result.stderr, expected);
    }
  });
});
