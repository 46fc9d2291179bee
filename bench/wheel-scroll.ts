/**
 * Scrolling a transcript from its top to its bottom the way a person does: one wheel turn of a
 * screenful per step, sent through the browser's input pipeline (DevTools
 * Input.dispatchMouseEvent, type mouseWheel), so the page sees a real wheel event and the
 * transcript stops following its bottom as it does for a person. Setting scrollTop from a
 * script, as this benchmark did before, is not a person's scroll: the transcript kept following
 * and jumped back to the bottom, so "scrolling through" measured about four frames.
 *
 * Before it starts, the whole history must be in (the first prompt drawn at the top). At each
 * step it checks that rows cover the screen (no blank screen) and times the wheel event to the
 * frame that shows the new position. It fails unless the steps taken match the transcript's
 * height in screens, so it cannot pass by scrolling less than the whole.
 */
import type { BarePage } from './bare-page';

/** A screen counts as covered when rows fill all but this many pixels of it. */
const UNCOVERED_SLACK_PX = 2;
/** Steps may differ this much from height / screen: rows measured on the way change the height. */
const STEP_TOLERANCE = 0.15;
const STEP_TIMEOUT_MS = 10_000;
const MAX_STEPS = 100_000;

/**
 * In the page, before each wheel event: resolves once the scroll it causes has been drawn
 * (scroll event, the next frame, then a message posted from it, which arrives after that frame
 * is produced), with the latency from the wheel event's time stamp and what the screen shows.
 * When nothing scrolls (the bottom), it resolves after a few frames with moved: false.
 */
const ARM_STEP = `(() => {
  const scroller = document.querySelector('[role="region"][aria-label="Transcript"]');
  if (!scroller) throw new Error('no transcript (region "Transcript") on the page');
  const startTop = scroller.scrollTop;
  window.__coveStep = new Promise((resolve, reject) => {
    let wheelAt = null;
    let frames = 0;
    const timer = setTimeout(() => reject(new Error('a wheel step got no frame within ${STEP_TIMEOUT_MS} ms')), ${STEP_TIMEOUT_MS});
    const coverage = () => {
      const view = scroller.getBoundingClientRect();
      const spans = Array.from(scroller.querySelectorAll('.transcript-row'))
        .map((row) => row.getBoundingClientRect())
        .map((box) => [Math.max(box.top, view.top), Math.min(box.bottom, view.bottom)])
        .filter(([top, bottom]) => bottom > top)
        .sort((a, b) => a[0] - b[0]);
      let covered = 0;
      let reach = view.top;
      for (const [top, bottom] of spans) {
        if (bottom <= reach) continue;
        covered += bottom - Math.max(top, reach);
        reach = bottom;
      }
      return view.height - covered;
    };
    const finish = (moved) => {
      clearTimeout(timer);
      scroller.removeEventListener('wheel', onWheel);
      scroller.removeEventListener('scroll', onScroll);
      resolve({
        moved,
        latency: wheelAt === null ? null : performance.now() - wheelAt,
        uncovered: coverage(),
        scrollTop: scroller.scrollTop,
        scrollHeight: scroller.scrollHeight,
        clientHeight: scroller.clientHeight,
      });
    };
    const afterFrame = (then) => requestAnimationFrame(() => {
      const channel = new MessageChannel();
      channel.port1.onmessage = then;
      channel.port2.postMessage(0);
    });
    const onWheel = (event) => {
      wheelAt = event.timeStamp;
      const idle = () => {
        frames += 1;
        if (scroller.scrollTop !== startTop) return;
        if (frames >= 5) return finish(false);
        afterFrame(idle);
      };
      afterFrame(idle);
    };
    const onScroll = () => {
      // Rows measured as they come in move the position too; only the wheel's scroll counts.
      if (wheelAt === null) return;
      scroller.removeEventListener('scroll', onScroll);
      afterFrame(() => finish(true));
    };
    scroller.addEventListener('wheel', onWheel, { passive: true });
    scroller.addEventListener('scroll', onScroll);
  });
})()`;

/** Scrolls to the top by wheel until the first prompt is drawn there: then the whole history is in. */
const AT_TOP_WITH = (firstPrompt: string) => `(() => {
  const scroller = document.querySelector('[role="region"][aria-label="Transcript"]');
  if (!scroller || scroller.scrollTop > 0) return false;
  return Array.from(scroller.querySelectorAll('article')).some((article) => article.textContent.includes(${JSON.stringify(firstPrompt)}));
})()`;

interface Step {
  moved: boolean;
  latency: number | null;
  uncovered: number;
  scrollTop: number;
  scrollHeight: number;
  clientHeight: number;
}

export interface WheelScroll {
  /** Wheel event → the frame showing its scroll, ms, one per step. */
  latencies: number[];
  steps: number;
  /** The transcript's height in screens at the end: what the steps should number. */
  screens: number;
  height: number;
  viewport: number;
  /** The most uncovered pixels any step's screen had (within the slack, or this throws). */
  worstUncovered: number;
}

async function wheel(page: BarePage, x: number, y: number, deltaY: number): Promise<void> {
  await page.send('Input.dispatchMouseEvent', { type: 'mouseWheel', x, y, deltaX: 0, deltaY });
}

export async function wheelThroughTranscript(page: BarePage, firstPrompt: string): Promise<WheelScroll> {
  const box = await page.evaluate<{ x: number; y: number; height: number }>(`(() => {
    const box = document.querySelector('[role="region"][aria-label="Transcript"]').getBoundingClientRect();
    return { x: box.left + box.width / 2, y: box.top + box.height / 2, height: box.height };
  })()`);
  // Up to the top, a long way per turn, until the first prompt shows there.
  const topDeadline = Date.now() + 120_000;
  while (!(await page.evaluate<boolean>(AT_TOP_WITH(firstPrompt)))) {
    if (Date.now() > topDeadline) throw new Error(`the transcript's first prompt ("${firstPrompt}") never showed at its top: the whole history did not load`);
    await wheel(page, box.x, box.y, -100_000);
    await page.evaluate('new Promise((resolve) => requestAnimationFrame(() => requestAnimationFrame(resolve)))');
  }
  const latencies: number[] = [];
  let worstUncovered = 0;
  let last: Step | undefined;
  let steps = 0;
  for (;;) {
    if (steps > MAX_STEPS) throw new Error(`over ${MAX_STEPS} wheel steps without reaching the bottom`);
    await page.evaluate(ARM_STEP);
    await wheel(page, box.x, box.y, box.height);
    const step = await page.evaluate<Step>('window.__coveStep');
    if (!step.moved) break;
    steps += 1;
    last = step;
    if (step.latency !== null) latencies.push(step.latency);
    if (step.uncovered > UNCOVERED_SLACK_PX) {
      throw new Error(`blank screen: at ${step.scrollTop} of ${step.scrollHeight} px (step ${steps}), rows left ${step.uncovered.toFixed(0)} of ${step.clientHeight} px empty`);
    }
    worstUncovered = Math.max(worstUncovered, step.uncovered);
  }
  if (!last) throw new Error('the wheel did not scroll the transcript at all');
  if (last.scrollHeight - last.scrollTop - last.clientHeight > 1) throw new Error(`the wheel stopped at ${last.scrollTop} of ${last.scrollHeight} px, short of the bottom`);
  const screens = (last.scrollHeight - last.clientHeight) / last.clientHeight;
  if (Math.abs(steps - screens) > Math.max(2, screens * STEP_TOLERANCE)) {
    throw new Error(`${steps} wheel steps of a screen (${last.clientHeight} px) for ${screens.toFixed(0)} screens (${last.scrollHeight} px): the scroll did not go screen by screen`);
  }
  return { latencies, steps, screens, height: last.scrollHeight, viewport: last.clientHeight, worstUncovered };
}
