/**
 * Many stored sessions. Page load through `cove serve` in Chromium, from navigation until the
 * list can be used (its newest session's row drawn), with 10,000 stored sessions beside the same
 * for an empty store (the baseline: what loading the app costs at all); the longest task and the
 * list's DOM nodes at that moment are reported with it. Then a search of the store at 10,000
 * sessions, through the contract as the renderer sends it, for a word most messages hold and for
 * a rare one.
 */
import type { Browser } from 'playwright-core';
import { launchChromium } from '../test/e2e/support';
import { rendererSkipReason, request, startRendererFixture, type RendererFixture } from './renderer-fixture';
import { writeStoredSessions, type StoredSessions } from './session-list-fixture';
import { compare, median, type Benchmark, type BenchmarkResult } from './support';

const COUNT = 10_000;
/** To a usable list, as a person opening the app feels it. */
const LOAD_GOAL_MS = 500;
const LOAD_RATIO_GOAL = 1.3;
const SEARCH_GOAL_MS = 100;
const SEARCH_RUNS = 9;

interface Load {
  ms: number;
  longestTaskMs: number;
  listNodes: number;
}

/** Long tasks from the start of the page, kept where the benchmark can read them. */
const RECORD_LONG_TASKS = `
  window.__longTasks = [];
  new PerformanceObserver((list) => { for (const entry of list.getEntries()) window.__longTasks.push(entry.duration); }).observe({ type: 'longtask', buffered: true });
`;

const problems: string[] = [];

/**
 * Usable: with sessions, the row of `title` is drawn; without (title null), the empty list's
 * words. Returns the page's clock at that frame, which starts at navigation.
 */
function usableAt(title: string | null): number | false {
  const met =
    title === null
      ? document.body.innerText.includes('No sessions yet')
      : Array.from(document.querySelectorAll('ul[aria-label="Session list"] li')).some((li) => li.getAttribute('aria-label') === title);
  return met ? performance.now() : false;
}

function afterLoad(): { longestTaskMs: number; listNodes: number } {
  const tasks = (window as unknown as { __longTasks: number[] }).__longTasks;
  return { longestTaskMs: Math.max(0, ...tasks), listNodes: document.querySelector('nav[aria-label="Sessions"]')!.querySelectorAll('*').length };
}

/** A new context each time, so nothing is cached in the tab. */
async function load(browser: Browser, url: string, title: string | null): Promise<Load> {
  const context = await browser.newContext({ viewport: { width: 1280, height: 860 } });
  try {
    await context.addInitScript(RECORD_LONG_TASKS);
    const page = await context.newPage();
    page.on('pageerror', (error) => problems.push(`page error: ${error.message}`));
    await page.goto(url, { waitUntil: 'commit' });
    const handle = await page.waitForFunction(usableAt, title, { polling: 'raf', timeout: 60_000 });
    const ms = (await handle.jsonValue()) as number;
    const { longestTaskMs, listNodes } = await page.evaluate(afterLoad);
    return { ms, longestTaskMs, listNodes };
  } finally {
    await context.close();
  }
}

async function searchTimes(fixture: RendererFixture<StoredSessions>): Promise<BenchmarkResult[]> {
  const results: BenchmarkResult[] = [];
  for (const [label, word] of [
    ['a common word', fixture.prepared.commonWord],
    ['a rare word', fixture.prepared.rareWord],
  ] as const) {
    const times: number[] = [];
    let hits = 0;
    for (let run = 0; run < SEARCH_RUNS; run++) {
      const started = performance.now();
      hits = (await request<unknown[]>(fixture.api, 'session:search', { text: word })).length;
      times.push(performance.now() - started);
      // A search that found nothing (a broken index, an error answered as an empty list) is not fast, it is wrong.
      if (hits === 0) throw new Error(`session-list.bench: searching ${COUNT} sessions for “${word}” found none`);
    }
    results.push({
      kind: 'measurement',
      name: `session search at ${COUNT} sessions, ${label} (“${word}”), through the socket`,
      value: median(times),
      unit: 'ms',
      goal: SEARCH_GOAL_MS,
      detail: `${hits} sessions found; fastest ${Math.min(...times).toFixed(1)} ms, slowest ${Math.max(...times).toFixed(1)} ms of ${SEARCH_RUNS}`,
    });
  }
  return results;
}

const benchmark: Benchmark = async () => {
  const why = rendererSkipReason();
  if (why) {
    process.stderr.write(`session-list.bench: skipped: ${why}\n`);
    return [];
  }
  const full = await startRendererFixture({ prepareHome: (dataDir, workspace) => writeStoredSessions(dataDir, workspace, COUNT) });
  const empty = await startRendererFixture();
  const browser = await launchChromium();
  const loads: { full: Load[]; empty: Load[] } = { full: [], empty: [] };
  try {
    const comparison = await compare({
      name: `page load to a usable sessions list: ${COUNT} stored sessions vs none`,
      goal: LOAD_RATIO_GOAL,
      baseline: {
        label: 'empty store',
        run: async () => {
          const result = await load(browser, empty.serve.url, null);
          loads.empty.push(result);
          return result.ms;
        },
      },
      cove: {
        label: `${COUNT} sessions`,
        run: async () => {
          const result = await load(browser, full.serve.url, full.prepared.newestTitle);
          loads.full.push(result);
          return result.ms;
        },
      },
    });
    const longest = Math.max(...loads.full.map((entry) => entry.longestTaskMs));
    const nodes = loads.full.at(-1)!.listNodes;
    const results: BenchmarkResult[] = [
      comparison,
      {
        kind: 'measurement',
        name: `page load to a usable list, ${COUNT} stored sessions`,
        value: comparison.coveMs,
        unit: 'ms',
        goal: LOAD_GOAL_MS,
        detail: `longest task ${longest.toFixed(0)} ms; ${nodes} DOM nodes in the sessions panel (empty store: ${loads.empty.at(-1)!.listNodes})`,
      },
      ...(await searchTimes(full)),
    ];
    if (problems.length > 0) throw new Error(`the page reported problems:\n${problems.join('\n')}`);
    full.assertNoProblems();
    empty.assertNoProblems();
    return results;
  } finally {
    await browser.close();
    await full.close();
    await empty.close();
  }
};

export default benchmark;
