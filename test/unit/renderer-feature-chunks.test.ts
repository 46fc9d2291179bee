// A chunk of the interface (renderer/app/feature-chunks.ts) is fetched once however many ask
// for it, is there to draw synchronously once loaded, tells its listeners when it arrives, and
// is fetched again after a failure instead of keeping the failed answer.
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { chunk } from '../../renderer/app/feature-chunks';

describe('feature chunks', () => {
  test('one fetch for every caller, the module kept, and listeners told', async () => {
    let fetches = 0;
    const source = chunk(async () => {
      fetches += 1;
      return { name: 'view' };
    });
    let told = 0;
    const unsubscribe = source.subscribe(() => (told += 1));
    assert.equal(source.loaded(), undefined);
    const [first, second] = await Promise.all([source.load(), source.load()]);
    assert.equal(first, second);
    assert.equal(source.loaded(), first);
    assert.equal(fetches, 1);
    assert.equal(told, 1);
    unsubscribe();
    await source.load();
    assert.equal(fetches, 1, 'a loaded chunk is not fetched again');
  });

  test('a failed fetch is reported to its caller and the next load fetches again', async () => {
    let fetches = 0;
    const source = chunk(async () => {
      fetches += 1;
      if (fetches === 1) throw new Error('Failed to fetch dynamically imported module');
      return { name: 'view' };
    });
    await assert.rejects(source.load(), /Failed to fetch/);
    assert.equal(source.loaded(), undefined);
    assert.deepEqual(await source.load(), { name: 'view' });
    assert.equal(fetches, 2);
  });
});
