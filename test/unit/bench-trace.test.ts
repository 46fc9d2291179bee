/**
 * The renderer benchmark's trace reading (bench/trace.ts): a long task's wall time beside its
 * thread's CPU time, what ran inside it, which window drew it, and Chromium's own WebUI
 * renderer left out.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { longRendererTasks, type TraceEvent } from '../../bench/trace';

const meta = (pid: number, tid: number, name: string, kind: 'process_name' | 'thread_name'): TraceEvent => ({ name: kind, cat: '__metadata', ph: 'M', pid, tid, ts: 0, args: { name } });
const complete = (pid: number, name: string, ts: number, dur: number, tdur: number, args?: Record<string, unknown>): TraceEvent => ({
  name,
  cat: 'toplevel',
  ph: 'X',
  pid,
  tid: pid,
  ts,
  dur,
  tdur,
  ...(args ? { args } : {}),
});

const PAGE = 10;
const WEBUI = 20;
const events: TraceEvent[] = [
  meta(PAGE, PAGE, 'Renderer', 'process_name'),
  meta(PAGE, PAGE, 'CrRendererMain', 'thread_name'),
  meta(WEBUI, WEBUI, 'WebUI Top Renderer', 'process_name'),
  meta(WEBUI, WEBUI, 'CrRendererMain', 'thread_name'),
  { name: 'SetLayerTreeId', cat: 'disabled-by-default-devtools.timeline', ph: 'I', pid: PAGE, tid: PAGE, ts: 1_000, args: { data: { frame: 'TARGET-A', layerTreeId: 1 } } },
  // A 90 ms task with 20 ms of CPU: a frame whose layout took 60 ms of wall and 12 of CPU, with a scavenge inside.
  complete(PAGE, 'ThreadControllerImpl::RunTask', 10_000, 90_000, 20_000),
  complete(PAGE, 'ProxyMain::BeginMainFrame', 10_000, 90_000, 20_000),
  complete(PAGE, 'Layout', 10_100, 60_000, 12_000),
  complete(PAGE, 'MinorGC', 20_000, 5_000, 1_000),
  // A 30 ms task: not long.
  complete(PAGE, 'ThreadControllerImpl::RunTask', 200_000, 30_000, 29_000),
  // Chromium's omnibox popup loading: long, but not a page's.
  complete(WEBUI, 'ThreadControllerImpl::RunTask', 10_000, 300_000, 70_000),
];

test('a long task is reported with its wall and thread CPU time, what ran inside, and its window', () => {
  const tasks = longRendererTasks(events);
  assert.equal(tasks.length, 1);
  const [task] = tasks;
  assert.equal(task!.pid, PAGE);
  assert.equal(task!.frame, 'TARGET-A');
  assert.equal(task!.wallMs, 90);
  assert.equal(task!.cpuMs, 20);
  assert.equal(task!.atMs, 9);
  assert.deepEqual(
    task!.inside.map((part) => [part.name, part.wallMs, part.cpuMs]),
    [
      ['ProxyMain::BeginMainFrame', 90, 20],
      ['(GC) MinorGC', 5, 1],
    ],
  );
});

test('the threshold is the caller’s', () => {
  assert.deepEqual(
    longRendererTasks(events, 20).map((task) => task.wallMs),
    [90, 30],
  );
});
