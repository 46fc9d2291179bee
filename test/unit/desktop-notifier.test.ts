// Notifications and the dock/taskbar badge, driven with session summaries as the host sends
// them, under the stand-in `electron` module: the rules of attention.ts, then what notifier.ts
// asks of Electron on each platform.
import { test, describe, before, beforeEach } from 'node:test';
import assert from 'node:assert/strict';
import { register } from 'node:module';
import { resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import type { HostEvent, SessionSummary } from '../../shared/contract';
import { sessionSummary } from './helpers/session-summary';
import { AttentionTracker } from '../../electron/desktop/attention';
import { app, BrowserWindow, FakeNotification, recorded } from '../support/fake-electron';

const fakeElectron = pathToFileURL(resolve('test/support/fake-electron.ts')).href;
register(
  `data:text/javascript,${encodeURIComponent(`export async function resolve(specifier, context, next) {
  return specifier === 'electron' ? { url: ${JSON.stringify(fakeElectron)}, shortCircuit: true } : next(specifier, context);
}`)}`,
);

function summary(patch: Partial<SessionSummary> = {}): SessionSummary {
  return sessionSummary('s1', { title: 'Fix the flaky test', status: 'idle', ...patch });
}

describe('when a session needs the person', () => {
  test('a new prompt while away asks for approval; the same prompt again does not', () => {
    const tracker = new AttentionTracker();
    assert.equal(tracker.observe(summary({ status: 'running' }), true), null);
    const asked = tracker.observe(summary({ status: 'waiting', pendingPermissions: 1 }), true);
    assert.deepEqual(asked, { kind: 'approval', sessionId: 's1', title: 'Cove is waiting for you', body: 'Fix the flaky test: a tool call needs your approval.' });
    assert.equal(tracker.observe(summary({ status: 'waiting', pendingPermissions: 1 }), true), null);
    assert.equal(tracker.badgeCount(), 1);
  });

  test('a run that ends while away is told with how it ended; one that ends in view is not', () => {
    const tracker = new AttentionTracker();
    tracker.observe(summary({ status: 'running' }), false);
    assert.equal(tracker.observe(summary({ status: 'done' }), true)?.body, 'Fix the flaky test finished.');
    assert.equal(tracker.badgeCount(), 1);
    tracker.seen();
    assert.equal(tracker.badgeCount(), 0);
    tracker.observe(summary({ id: 's2', title: '', status: 'running' }), true);
    assert.equal(tracker.observe(summary({ id: 's2', title: '', status: 'error', lastError: 'overloaded' }), true)?.body, 'Untitled session failed: overloaded');
    tracker.observe(summary({ id: 's3', status: 'running' }), false);
    assert.equal(tracker.observe(summary({ id: 's3', status: 'done' }), false), null);
    assert.equal(tracker.observe(summary({ id: 's4', status: 'done' }), true), null, 'a session first seen finished (loaded from the store) is no news');
  });

  test('a prompt answered elsewhere leaves the badge; a deleted session leaves it too', () => {
    const tracker = new AttentionTracker();
    tracker.observe(summary({ status: 'waiting', pendingPermissions: 1 }), true);
    tracker.observe(summary({ id: 's2', status: 'waiting', pendingPermissions: 2 }), true);
    assert.equal(tracker.badgeCount(), 2);
    tracker.observe(summary({ status: 'running', pendingPermissions: 0 }), true);
    tracker.forget('s2');
    assert.equal(tracker.badgeCount(), 0);
  });
});

describe('the notifier under Electron', () => {
  let notifier: typeof import('../../electron/desktop/notifier');
  before(async () => {
    notifier = await import('../../electron/desktop/notifier');
  });
  beforeEach(() => {
    recorded.notifications.length = 0;
    recorded.badgeCounts.length = 0;
    recorded.dockBounces.length = 0;
    BrowserWindow.windows.length = 0;
    BrowserWindow.focused = null;
    app.removeAllListeners('browser-window-focus');
  });

  function start(platform: NodeJS.Platform) {
    let listener: (event: HostEvent) => void = () => {};
    const window = new BrowserWindow({ webPreferences: {}, width: 800, height: 600 });
    const shown: string[] = [];
    notifier.notifyWhenAway({
      subscribe: (next) => {
        listener = next;
        return () => {};
      },
      showSession: (sessionId) => {
        shown.push(sessionId);
        window.focus();
      },
      platform,
      log: () => {},
    });
    return { window, send: (session: SessionSummary) => listener({ kind: 'sessionChanged', session }), shown: () => shown };
  }

  test('macOS: a notification, a dock count and a bounce while away; clicking it brings the window back, which clears finished runs', () => {
    const { window, send, shown } = start('darwin');
    send(summary({ status: 'running' }));
    send(summary({ status: 'waiting', pendingPermissions: 1 }));
    assert.equal(recorded.notifications.length, 1);
    const notification = recorded.notifications[0]!;
    assert.ok(notification.shown);
    assert.equal(notification.options.body, 'Fix the flaky test: a tool call needs your approval.');
    assert.deepEqual(recorded.dockBounces, ['informational']);
    assert.deepEqual(recorded.badgeCounts, [1]);
    for (let update = 0; update < 5; update++) send(summary({ status: 'waiting', pendingPermissions: 1, updatedAt: update }));
    assert.deepEqual(recorded.badgeCounts, [1], 'the dock hears only when the count changes');
    send(summary({ status: 'running', pendingPermissions: 0 }));
    send(summary({ status: 'done' }));
    assert.equal(recorded.notifications.length, 2);
    assert.equal(recorded.badgeCounts.at(-1), 1, 'the finished run counts until it is seen');
    recorded.notifications[1]!.emit('click');
    assert.deepEqual(shown(), ['s1'], 'the window opens on that session');
    assert.equal(BrowserWindow.focused, window);
    assert.equal(recorded.badgeCounts.at(-1), 0);
  });

  test('nothing is shown while the window has focus', () => {
    const { window, send } = start('linux');
    window.focus();
    send(summary({ status: 'running' }));
    send(summary({ status: 'waiting', pendingPermissions: 1 }));
    send(summary({ status: 'done' }));
    assert.equal(recorded.notifications.length, 0);
  });

  test('Windows: the taskbar button flashes instead of a count, until the window is focused', () => {
    const { window, send } = start('win32');
    send(summary({ status: 'waiting', pendingPermissions: 1 }));
    assert.equal(window.flashing, true);
    assert.deepEqual(recorded.badgeCounts, []);
    window.focus();
    assert.equal(window.flashing, false);
  });

  test('where the OS has no notifications, the badge still counts', () => {
    FakeNotification.supported = false;
    try {
      const { send } = start('linux');
      send(summary({ status: 'waiting', pendingPermissions: 1 }));
      assert.equal(recorded.notifications.length, 0);
      assert.equal(recorded.badgeCounts.at(-1), 1);
    } finally {
      FakeNotification.supported = true;
    }
  });
});
