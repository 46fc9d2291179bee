// The remembered window size and position, checked against simulated displays: a window is
// never restored where nobody can see or grab it.
import { test, describe } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { DEFAULT_SIZE, initialBounds, readWindowState, WINDOW_STATE_FILE, writeWindowState } from '../../electron/desktop/window-state';

const laptop = { x: 0, y: 25, width: 1440, height: 875 };
const monitorOnTheRight = { x: 1440, y: 0, width: 2560, height: 1415 };

describe('where the window opens', () => {
  test('where it was, when that is on a display today', () => {
    const saved = { bounds: { x: 1600, y: 100, width: 1600, height: 1000 }, maximized: true };
    assert.deepEqual(initialBounds(saved, [laptop, monitorOnTheRight]), { bounds: saved.bounds, maximized: true });
  });

  test('the default size, placed by the OS, when the monitor it was on is gone', () => {
    const saved = { bounds: { x: 1600, y: 100, width: 1600, height: 1000 }, maximized: false };
    assert.deepEqual(initialBounds(saved, [laptop]), { bounds: DEFAULT_SIZE, maximized: false });
  });

  test('shrunk and moved onto a smaller display it mostly left', () => {
    const saved = { bounds: { x: 1300, y: 25, width: 2000, height: 1200 }, maximized: false };
    assert.deepEqual(initialBounds(saved, [laptop]).bounds, { x: 0, y: 25, width: 1440, height: 875 });
  });

  test('not with its title bar above the top of every display, nor barely a corner showing', () => {
    assert.deepEqual(initialBounds({ bounds: { x: 100, y: -600, width: 1000, height: 700 }, maximized: false }, [laptop]).bounds, DEFAULT_SIZE);
    assert.deepEqual(initialBounds({ bounds: { x: 1400, y: 800, width: 1000, height: 700 }, maximized: false }, [laptop]).bounds, DEFAULT_SIZE);
  });

  test('the default size on a first start', () => {
    assert.deepEqual(initialBounds(undefined, [laptop]), { bounds: DEFAULT_SIZE, maximized: false });
  });
});

describe('the saved state on disk', () => {
  test('round-trips, leaves no temporary file, and a broken file is ignored with its path named', (t) => {
    const dir = mkdtempSync(join(tmpdir(), 'cove-window-state-'));
    t.after(() => rmSync(dir, { recursive: true, force: true }));
    const logged: string[] = [];
    assert.equal(
      readWindowState(dir, (line) => logged.push(line)),
      undefined,
    );
    writeWindowState(dir, { bounds: { x: 10, y: 20, width: 900, height: 700 }, maximized: false });
    assert.deepEqual(
      readWindowState(dir, (line) => logged.push(line)),
      { bounds: { x: 10, y: 20, width: 900, height: 700 }, maximized: false },
    );
    assert.deepEqual(readdirSync(dir), [WINDOW_STATE_FILE]);
    for (const broken of ['{"bounds":', '{"bounds":{"x":0,"y":0,"width":-5,"height":10}}', '{"bounds":{"x":"left","y":0,"width":5,"height":10}}', 'null']) {
      writeFileSync(join(dir, WINDOW_STATE_FILE), broken);
      assert.equal(
        readWindowState(dir, (line) => logged.push(line)),
        undefined,
        broken,
      );
    }
    assert.equal(logged.length, 4);
    assert.match(logged[0]!, new RegExp(`ignored .*${WINDOW_STATE_FILE}`));
  });
});
