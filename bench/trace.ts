/**
 * A Chromium trace of a benchmark run, recorded from the browser's own DevTools session (so
 * every process is in it), and what it says about the renderers' long tasks: each task over
 * 50 ms on a renderer's main thread with its wall time (`dur`) beside the CPU time its thread
 * got in it (`tdur`), and what ran inside. A task whose thread CPU time is far below its wall
 * time waited for a core (the thread was descheduled); one whose CPU time is as long did the
 * work itself.
 */
import type { BareBrowser } from './bare-page';

const CATEGORIES = [
  'devtools.timeline',
  'disabled-by-default-devtools.timeline',
  'disabled-by-default-devtools.timeline.frame',
  'toplevel',
  'v8',
  'v8.execute',
  'blink',
  'cc',
  'disabled-by-default-v8.gc',
  '__metadata',
];

export interface TraceEvent {
  name: string;
  cat: string;
  ph: string;
  pid: number;
  tid: number;
  /** Microseconds. */
  ts: number;
  dur?: number;
  /** Thread CPU time, microseconds (thread clock). */
  tts?: number;
  tdur?: number;
  args?: Record<string, unknown>;
}

export async function startTrace(browser: BareBrowser): Promise<void> {
  await browser.send('Tracing.start', { transferMode: 'ReturnAsStream', traceConfig: { includedCategories: CATEGORIES, recordMode: 'recordContinuously' } });
}

export async function stopTrace(browser: BareBrowser): Promise<TraceEvent[]> {
  const complete = browser.nextEvent('Tracing.tracingComplete');
  await browser.send('Tracing.end');
  const { stream } = (await complete) as { stream: string };
  let text = '';
  for (;;) {
    const chunk = await browser.send<{ data: string; eof: boolean; base64Encoded?: boolean }>('IO.read', { handle: stream, size: 1 << 20 });
    text += chunk.base64Encoded ? Buffer.from(chunk.data, 'base64').toString('utf8') : chunk.data;
    if (chunk.eof) break;
  }
  await browser.send('IO.close', { handle: stream });
  const parsed = JSON.parse(text) as TraceEvent[] | { traceEvents: TraceEvent[] };
  return Array.isArray(parsed) ? parsed : parsed.traceEvents;
}

export interface TraceTask {
  pid: number;
  /** The main frame (page target id) drawn by that renderer, when the trace says. */
  frame?: string;
  /** The task's wall time and its thread's CPU time in it, ms. */
  wallMs: number;
  cpuMs: number;
  /** Milliseconds from the trace's first event. */
  atMs: number;
  /** What ran inside, by event name: wall and CPU ms summed over the task's direct children, and GC anywhere below. */
  inside: Array<{ name: string; wallMs: number; cpuMs: number; count: number }>;
}

const GC = /GC|Scavenge|MarkCompact|Sweep/;

/** Each main frame's renderer process: devtools.timeline names the frame each layer tree draws when tracing starts. */
function framesByPid(events: readonly TraceEvent[]): Map<number, string> {
  const frames = new Map<number, string>();
  for (const event of events) {
    const frame = (event.args?.data as { frame?: string } | undefined)?.frame;
    if (event.name === 'SetLayerTreeId' && frame) frames.set(event.pid, frame);
  }
  return frames;
}

/** Every task over `overMs` on a web page renderer's main thread (CrRendererMain), longest first; Chromium's own WebUI renderers are left out. */
export function longRendererTasks(events: readonly TraceEvent[], overMs = 50): TraceTask[] {
  const pageRenderers = new Set(events.filter((e) => e.ph === 'M' && e.name === 'process_name' && (e.args as { name?: string })?.name === 'Renderer').map((e) => e.pid));
  const mainThreads = new Set(
    events.filter((e) => e.ph === 'M' && e.name === 'thread_name' && (e.args as { name?: string })?.name === 'CrRendererMain' && pageRenderers.has(e.pid)).map((e) => `${e.pid}:${e.tid}`),
  );
  const frames = framesByPid(events);
  const start = events.reduce((first, e) => (e.ts > 0 && e.ts < first ? e.ts : first), Infinity);
  const byThread = new Map<string, TraceEvent[]>();
  for (const event of events) {
    const key = `${event.pid}:${event.tid}`;
    if (event.ph !== 'X' || !mainThreads.has(key)) continue;
    const list = byThread.get(key) ?? [];
    list.push(event);
    byThread.set(key, list);
  }
  const tasks: TraceTask[] = [];
  for (const list of byThread.values()) {
    list.sort((a, b) => a.ts - b.ts || (b.dur ?? 0) - (a.dur ?? 0));
    for (const task of list) {
      if (task.name !== 'ThreadControllerImpl::RunTask' || (task.dur ?? 0) <= overMs * 1000) continue;
      const end = task.ts + task.dur!;
      const inside = list.filter((e) => e !== task && e.ts >= task.ts && e.ts + (e.dur ?? 0) <= end);
      // Direct children: those not inside another event inside the task.
      const direct = inside.filter((e) => !inside.some((o) => o !== e && o.ts <= e.ts && o.ts + (o.dur ?? 0) >= e.ts + (e.dur ?? 0) && (o.dur ?? 0) > (e.dur ?? 0)));
      const sums = new Map<string, { wallMs: number; cpuMs: number; count: number }>();
      const add = (name: string, e: TraceEvent) => {
        const sum = sums.get(name) ?? { wallMs: 0, cpuMs: 0, count: 0 };
        sum.wallMs += (e.dur ?? 0) / 1000;
        sum.cpuMs += (e.tdur ?? 0) / 1000;
        sum.count++;
        sums.set(name, sum);
      };
      for (const e of direct) add(e.name, e);
      for (const e of inside) if (!direct.includes(e) && GC.test(e.name)) add(`(GC) ${e.name}`, e);
      tasks.push({
        pid: task.pid,
        frame: frames.get(task.pid),
        wallMs: task.dur! / 1000,
        cpuMs: (task.tdur ?? 0) / 1000,
        atMs: (task.ts - start) / 1000,
        inside: [...sums.entries()].map(([name, sum]) => ({ name, ...sum })).sort((a, b) => b.wallMs - a.wallMs),
      });
    }
  }
  return tasks.sort((a, b) => b.wallMs - a.wallMs);
}
