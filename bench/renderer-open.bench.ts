/**
 * Opening a long session: from the click on a 10,000-item session in the list until its last
 * item is on screen, scrolled to the bottom, timed in the page, beside the same for a 10-item
 * session (the baseline: what opening any session costs). Each open is in a new page, so no
 * run finds another's transcript (the app reopens its tab's last session on a reload). The
 * transcript is virtualized, so only moving and folding the events should grow with its
 * length: the goal is 3× a short session's time, and a second at most. Then the long transcript,
 * its whole history loaded, is scrolled from its top to its bottom by wheel, a screenful per
 * turn (./wheel-scroll.ts), timing each turn to the frame that shows it.
 */
import type { BarePage } from './bare-page';
import { FRAME_BUDGET_MS, frameStats } from './frame-recorder';
import { request, sessionButton } from './renderer-fixture';
import { startLongAndShort, type LongAndShortFixture, type StoredTranscript } from './stored-transcript';
import { compare, median, type Benchmark, type BenchmarkResult } from './support';
import { wheelThroughTranscript } from './wheel-scroll';
import type { SessionView } from '../shared/contract';

type Fixture = LongAndShortFixture;

const LONG_ITEMS = 10_000;
/** A person stays with a view that answers within a second; the long session should too. */
const OPEN_GOAL_MS = 1000;
const SHORT_ITEMS = 10;
const OPEN_TIMEOUT_MS = 60_000;
const OPEN_RUNS = 5;
/** Only the first run's prompt says this (ids 1…n; "module 1 and" is not "module 10 and"). */
const FIRST_PROMPT = 'Check module 1 and tell me';

/**
 * Clicks the session's button, then checks every frame whether the reply that only the last
 * run has is inside the transcript's visible box with the transcript scrolled to its bottom;
 * resolves with the milliseconds from the click to that frame.
 */
const openAndWaitForEnd = (title: string, options: { lastReply: string; timeoutMs: number }) =>
  `new Promise((resolve, reject) => {
    const options = ${JSON.stringify(options)};
    const button = ${sessionButton(title)};
    if (!button) return reject(new Error('no session ' + ${JSON.stringify(title)} + ' in the list'));
    const started = performance.now();
    button.click();
    const check = () => {
      const now = performance.now();
      if (now - started > options.timeoutMs) return reject(new Error('the transcript did not show its last reply within ' + options.timeoutMs + ' ms'));
      const scroller = document.querySelector('[role="region"][aria-label="Transcript"]');
      if (scroller && scroller.scrollHeight - scroller.scrollTop - scroller.clientHeight <= 48) {
        const last = Array.from(scroller.querySelectorAll('article')).find((article) => article.textContent.includes(options.lastReply));
        const view = scroller.getBoundingClientRect();
        const box = last ? last.getBoundingClientRect() : null;
        if (box && box.bottom > view.top && box.top < view.bottom) return resolve(now - started);
      }
      requestAnimationFrame(check);
    };
    requestAnimationFrame(check);
  })`;

/** In a new page: the app keeps the open session in the tab's storage and would reopen it on a reload. */
async function openSession(fixture: Fixture, title: string, stored: StoredTranscript): Promise<{ page: BarePage; ms: number }> {
  const page = await fixture.openPage();
  await page.waitFor(sessionButton(title));
  const ms = await page.evaluate<number>(openAndWaitForEnd(title, { lastReply: stored.lastReply, timeoutMs: OPEN_TIMEOUT_MS }));
  return { page, ms };
}

/** What the renderer waits for before it can fold anything: `session:open` over the socket, timed from Node. */
async function timeSessionOpen(fixture: Fixture, stored: StoredTranscript): Promise<{ ms: number; bytes: number }> {
  const times: number[] = [];
  let bytes = 0;
  for (let run = 0; run < OPEN_RUNS; run++) {
    const started = performance.now();
    const view = await request<SessionView>(fixture.api, 'session:open', { sessionId: stored.sessionId });
    times.push(performance.now() - started);
    bytes = JSON.stringify(view).length;
  }
  return { ms: median(times), bytes };
}

async function timeOpening(fixture: Fixture, title: string, stored: StoredTranscript): Promise<number> {
  const { page, ms } = await openSession(fixture, title, stored);
  await page.close();
  return ms;
}

const benchmark: Benchmark = async () => {
  const fixture = await startLongAndShort('renderer-open.bench', LONG_ITEMS, SHORT_ITEMS);
  if (!fixture) return [];
  const { long, short } = fixture.prepared;
  const items = long.items.toLocaleString('en');
  try {
    const opening = await compare({
      name: `renderer: open a ${items}-item session (click → last item shown)`,
      goal: 3,
      runs: OPEN_RUNS,
      baseline: { label: `${short.items} items`, run: () => timeOpening(fixture, 'Short session', short) },
      cove: { label: `${items} items`, run: () => timeOpening(fixture, 'Long session', long) },
    });
    const socket = await timeSessionOpen(fixture, long);
    const { page } = await openSession(fixture, 'Long session', long);
    const scroll = await wheelThroughTranscript(page, FIRST_PROMPT);
    fixture.assertNoProblems();
    const turns = frameStats(scroll.latencies);
    const scrolled =
      `${scroll.steps} wheel turns of a screen (${scroll.viewport} px) through ${(scroll.height / 1000).toFixed(0)}k px (${scroll.screens.toFixed(0)} screens), ` +
      `rows covering every screen (at worst ${scroll.worstUncovered.toFixed(0)} px uncovered)`;
    const over = `${turns.overBudget} of ${turns.frames} turns over ${FRAME_BUDGET_MS} ms, longest ${turns.longest.toFixed(0)} ms`;
    const results: BenchmarkResult[] = [
      opening,
      {
        kind: 'measurement',
        name: `renderer: open a ${items}-item session`,
        value: opening.coveMs,
        unit: 'ms',
        goal: OPEN_GOAL_MS,
        detail: `median of ${OPEN_RUNS}; of it, session:open answers ${(socket.bytes / 1e6).toFixed(1)} MB in ${socket.ms.toFixed(0)} ms (timed from Node)`,
      },
      {
        kind: 'measurement',
        name: `renderer: wheel through a ${items}-item transcript: median turn → frame`,
        value: turns.median,
        unit: 'ms',
        goal: FRAME_BUDGET_MS,
        detail: `${over}; ${scrolled}`,
      },
      { kind: 'measurement', name: `renderer: wheel through a ${items}-item transcript: p95 turn → frame`, value: turns.p95, unit: 'ms', goal: undefined, detail: over },
    ];
    return results;
  } finally {
    await fixture.close();
  }
};

export default benchmark;
