import { describe, test, mock } from 'node:test';
import assert from 'node:assert/strict';
import { deferredWrite } from '../../renderer/store/deferred-storage';

function writer(delayMs = 400) {
  const stored: unknown[] = [];
  const target = new EventTarget();
  const write = deferredWrite('cove.drafts', { delayMs, store: (key, value) => stored.push([key, value]), target: target as unknown as Window });
  return { stored, target, write };
}

describe('deferred storage writes (the composer drafts)', () => {
  test('a burst of keys costs one write, of the last value, once typing pauses', () => {
    mock.timers.enable({ apis: ['setTimeout'] });
    try {
      const { stored, write } = writer(400);
      for (const text of ['h', 'he', 'hel', 'hell', 'hello']) {
        write.write({ s1: text });
        mock.timers.tick(100);
      }
      assert.deepEqual(stored, [], 'nothing written while the keys come faster than the delay');
      mock.timers.tick(400);
      assert.deepEqual(stored, [['cove.drafts', { s1: 'hello' }]]);
      mock.timers.tick(2000);
      assert.equal(stored.length, 1, 'no write without a new value');
    } finally {
      mock.timers.reset();
    }
  });

  test('leaving the page writes the waiting value at once, and only once', () => {
    mock.timers.enable({ apis: ['setTimeout'] });
    try {
      const { stored, target, write } = writer(400);
      write.write({ s1: 'unsaved' });
      target.dispatchEvent(new Event('pagehide'));
      assert.deepEqual(stored, [['cove.drafts', { s1: 'unsaved' }]]);
      mock.timers.tick(1000);
      target.dispatchEvent(new Event('pagehide'));
      assert.equal(stored.length, 1, 'the timer and a second pagehide find nothing waiting');
    } finally {
      mock.timers.reset();
    }
  });

  test('flush writes now; an empty flush writes nothing', () => {
    const { stored, write } = writer(60_000);
    write.flush();
    assert.deepEqual(stored, []);
    write.write({});
    write.flush();
    assert.deepEqual(stored, [['cove.drafts', {}]]);
  });
});
