/**
 * Frame times measured in the page itself: a requestAnimationFrame loop notes each frame's
 * start, and the gaps between them are the frame durations a person sees (a long task or a
 * slow render shows as one long gap). The in-page code is sent as source text, because the
 * TypeScript loader wraps named functions in a helper that does not exist in the page.
 */
import { appendFileSync } from 'node:fs';
import type { BarePage } from './bare-page';
import { median, percentile } from './support';

const LOAF_FILE = process.env.COVE_BENCH_LOAF;

/** The bar: no frame over 50 ms at the median. */
export const FRAME_BUDGET_MS = 50;

/**
 * Besides frames: every task over 50 ms (the Long Tasks API), and each keypress's latency to
 * the paint that shows it: from the key event's own time stamp (when the browser got it, so
 * time it waited behind other work counts) to the first moment after the next frame, which a
 * message posted from requestAnimationFrame reaches once that frame has been drawn.
 */
const START_RECORDING = `(() => {
  const record = { times: [], tasks: [], keys: [], running: true };
  window.__coveFrames = record;
  const tick = (time) => {
    record.times.push(time);
    if (record.running) requestAnimationFrame(tick);
  };
  requestAnimationFrame(tick);
  record.observer = new PerformanceObserver((list) => {
    for (const entry of list.getEntries()) record.tasks.push(entry.duration);
  });
  record.observer.observe({ type: 'longtask' });
  // Long animation frames, with what ran in them, for COVE_BENCH_LOAF (see loafLine).
  record.frames = [];
  record.loafObserver = new PerformanceObserver((list) => {
    for (const frame of list.getEntries()) {
      if (frame.duration <= 50) continue;
      record.frames.push({
        at: Math.round(frame.startTime),
        duration: Math.round(frame.duration),
        blocking: Math.round(frame.blockingDuration),
        styleAndLayout: frame.styleAndLayoutStart ? Math.round(frame.startTime + frame.duration - frame.styleAndLayoutStart) : 0,
        scripts: frame.scripts.map((script) => ({
          invoker: script.invoker,
          source: (script.sourceURL || '').split('/').pop() + (script.sourceFunctionName ? ' ' + script.sourceFunctionName : ''),
          duration: Math.round(script.duration),
          forcedLayout: Math.round(script.forcedStyleAndLayoutDuration),
        })),
      });
    }
  });
  record.loafObserver.observe({ type: 'long-animation-frame' });
  record.onKey = (event) => {
    if (!record.running || event.key.length !== 1) return;
    const pressed = event.timeStamp;
    requestAnimationFrame(() => {
      const channel = new MessageChannel();
      channel.port1.onmessage = () => record.keys.push(performance.now() - pressed);
      channel.port2.postMessage(0);
    });
  };
  document.addEventListener('keydown', record.onKey, true);
})()`;

const STOP_RECORDING = `(() => {
  const record = window.__coveFrames;
  if (!record) throw new Error('no frame recording was started in this page');
  record.running = false;
  for (const entry of record.observer.takeRecords()) record.tasks.push(entry.duration);
  record.observer.disconnect();
  document.removeEventListener('keydown', record.onKey, true);
  record.loafObserver.disconnect();
  return { times: record.times, tasks: record.tasks, keys: record.keys, longFrames: record.frames };
})()`;

export async function startFrameRecording(page: BarePage): Promise<void> {
  await page.evaluate(START_RECORDING);
}

export interface PageRecording {
  /** Frame durations, ms. */
  frames: number[];
  /** Durations of the tasks over 50 ms, ms. */
  longTasks: number[];
  /** Keypress-to-paint latencies, ms. */
  keys: number[];
}

/** Stops the page's recording. */
export async function stopFrameRecording(page: BarePage): Promise<PageRecording> {
  const { times, tasks, keys, longFrames } = await page.evaluate<{ times: number[]; tasks: number[]; keys: number[]; longFrames: unknown[] }>(STOP_RECORDING);
  // `COVE_BENCH_LOAF=<file>` appends each recording's frames over 50 ms (the Long Animation
  // Frames API: the scripts that ran in each, their forced layouts, and the frame's own style
  // and layout), a JSON line per page, to see what a long task was made of.
  if (LOAF_FILE) appendFileSync(LOAF_FILE, `${JSON.stringify({ url: await page.evaluate<string>('location.href'), longFrames })}\n`);
  return { frames: gaps(times), longTasks: tasks, keys };
}

function gaps(times: readonly number[]): number[] {
  return times.slice(1).map((time, index) => time - times[index]!);
}

export interface FrameStats {
  frames: number;
  median: number;
  p95: number;
  longest: number;
  /** Frames longer than FRAME_BUDGET_MS. */
  overBudget: number;
  /** All frames' time, and the part of it spent in frames over the budget (a count hides that a few long frames can fill most of the time). */
  totalMs: number;
  overBudgetMs: number;
}

export function frameStats(durations: readonly number[]): FrameStats {
  const over = durations.filter((duration) => duration > FRAME_BUDGET_MS);
  const sum = (values: readonly number[]) => values.reduce((total, value) => total + value, 0);
  return {
    frames: durations.length,
    median: median(durations),
    p95: percentile(durations, 0.95),
    longest: Math.max(...durations),
    overBudget: over.length,
    totalMs: sum(durations),
    overBudgetMs: sum(over),
  };
}
