/**
 * Frame times while the renderer takes two floods at once: one session's bash call prints a
 * lot, and another session's reply streams thousands of deltas. Each session is open in its own
 * window (two pages of one `cove serve`, as a person with both sessions side by side). Frames,
 * tasks over 50 ms and keypresses are recorded in both pages from before the prompts are sent
 * until the bash card shows its exit code and output and the reply has ended; meanwhile a
 * person types into each window's composer, a key every KEY_INTERVAL_MS. The issue's bar: no
 * task over 50 ms; the p95 frame and the keypress-to-paint latency are reported beside it.
 *
 * What floods is the caller's: ./renderer-streams.bench.ts (5 MB, over in a second or two) and
 * ./renderer-floods.bench.ts (tens of megabytes over many seconds, colours, `\r`, long lines).
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { SessionSummary } from '../shared/contract';
import type { BarePage } from './bare-page';
import { block, reply, type RecordedRequest, type Reply } from '../test/support/model-server';
import { FRAME_BUDGET_MS, frameStats, startFrameRecording, stopFrameRecording, type PageRecording } from './frame-recorder';
import { rendererSkipReason, request, selectSession, startRendererFixture, type RendererFixture } from './renderer-fixture';
import { median, percentile, type Measurement } from './support';
import { longRendererTasks, startTrace, stopTrace, type TraceTask } from './trace';
import { contentionSince, cpuSnapshot, type Contention } from './cpu-contention';

export interface FloodOptions {
  /** The benchmark's file name, for messages, and the start of every measurement's name. */
  file: string;
  name: string;
  /** The bash call's command, run in the project folder. */
  command: string;
  /** The reply streamed into the other window. */
  reply: Reply;
  /** In-page: true once the finished bash card (`card`, its element) shows what the command ended with. */
  bashShown: (card: string) => string;
  /** Throws unless the reply window shows the whole reply (`transcript` is the in-page expression of the transcript). */
  checkReply(page: BarePage, transcript: string): Promise<void>;
  /** Runs on the project folder before `cove serve` starts (e.g. to put a script there). */
  prepareWorkspace?(workspace: string): void;
  runs: number;
  doneTimeoutMs: number;
}

const BASH_PROMPT = 'Run the flood';
const REPLY_PROMPT = 'Stream the long reply';
const KEY_INTERVAL_MS = 150;
/**
 * `COVE_BENCH_TRACE=<folder>` records a Chromium trace of each run (every process) there, and
 * prints each renderer task over 50 ms with its wall time beside its thread's CPU time in it.
 */
const TRACE_DIR = process.env.COVE_BENCH_TRACE;
/** `COVE_BENCH_PROFILE=<folder>` saves each window's CPU profile of each run there (open it in DevTools' Performance panel). */
const PROFILE_DIR = process.env.COVE_BENCH_PROFILE;

async function startProfile(page: BarePage): Promise<void> {
  await page.send('Profiler.enable');
  await page.send('Profiler.setSamplingInterval', { interval: 500 });
  await page.send('Profiler.start');
}

async function stopProfile(page: BarePage, name: string): Promise<void> {
  const { profile } = await page.send<{ profile: unknown }>('Profiler.stop');
  mkdirSync(PROFILE_DIR!, { recursive: true });
  writeFileSync(join(PROFILE_DIR!, `${name}.cpuprofile`), JSON.stringify(profile));
}

/** Saves the run's trace, prints its long tasks, and gives each page's. */
async function saveTrace(fixture: RendererFixture, name: string, pages: BarePage[]): Promise<TraceTask[][]> {
  const events = await stopTrace(fixture.browser);
  mkdirSync(TRACE_DIR!, { recursive: true });
  writeFileSync(join(TRACE_DIR!, `${name}.json`), JSON.stringify({ traceEvents: events }));
  const tasks = longRendererTasks(events);
  for (const task of tasks) {
    const inside = task.inside
      .slice(0, 6)
      .map((part) => `${part.name} ×${part.count} ${part.wallMs.toFixed(0)}/${part.cpuMs.toFixed(0)}`)
      .join(', ');
    const page = pages.findIndex((candidate) => candidate.targetId === task.frame);
    process.stderr.write(
      `${name}: ${page === -1 ? `renderer ${task.pid}` : `window ${page + 1}`} task at ${task.atMs.toFixed(0)} ms: ${task.wallMs.toFixed(0)} ms wall, ${task.cpuMs.toFixed(0)} ms thread CPU; inside (wall/CPU ms): ${inside}\n`,
    );
  }
  return pages.map((page) => tasks.filter((task) => task.frame === page.targetId));
}

function scriptFor(options: FloodOptions) {
  return (request: RecordedRequest): Reply => {
    const prompt = JSON.stringify(request.body.messages[0]?.content ?? '');
    const toolAnswered = request.body.messages.length > 1;
    if (prompt.includes(BASH_PROMPT)) {
      return toolAnswered ? reply.text('The output ended.') : reply.message([block.text('Running it.'), block.toolUse('bash', { command: options.command })]);
    }
    if (prompt.includes(REPLY_PROMPT)) return options.reply;
    throw new Error(`${options.file}: the model has no reply for ${prompt.slice(0, 120)}`);
  };
}

export const TRANSCRIPT = `document.querySelector('[role="region"][aria-label="Transcript"]')`;
/** In-page: the run's end marker ("Done") is in the transcript. */
const RUN_ENDED = `${TRANSCRIPT}?.querySelector('[role="note"][aria-label="Done"]')`;
/** In-page: the bash card is done, says exit 0, and shows its output. */
function bashDone(options: FloodOptions): string {
  return `(() => {
  const card = ${TRANSCRIPT}?.querySelector('article[aria-label="bash tool: Done"]');
  return Boolean(card && Array.from(card.querySelectorAll('.exit-badge')).some((badge) => badge.textContent === 'exit 0') && card.querySelector('[role="group"][aria-label="bash output"]') && ${options.bashShown('card')});
})()`;
}

async function openSession(fixture: RendererFixture, page: BarePage, title: string): Promise<string> {
  const session = await request<SessionSummary>(fixture.api, 'session:create', { workspaces: [fixture.workspace], title, permissionMode: 'bypass' });
  await selectSession(page, title);
  await page.waitFor(`${TRANSCRIPT}?.textContent.includes('Nothing here yet')`);
  return session.id;
}

interface RunResult {
  bash: PageRecording;
  reply: PageRecording;
  /** CPU seconds both pages' renderers spent from Send until both floods were shown. */
  rendererCpu: number;
  bashDoneMs: number;
  replyDoneMs: number;
  /** What else the machine ran meanwhile (Linux only). */
  contention?: Contention;
  /** Each window's tasks over 50 ms in the run's trace (COVE_BENCH_TRACE only). */
  traced?: { bash: TraceTask[]; reply: TraceTask[] };
}

const COMPOSER = `document.querySelector('textarea[aria-label="Message"]')`;

/** Types into the page's composer until `done` settles: a key, then a pause, as a person types. */
async function typeUntil(page: BarePage, done: Promise<unknown>): Promise<void> {
  await page.evaluate(`${COMPOSER}.focus()`);
  let finished = false;
  void done.finally(() => (finished = true)).catch(() => {});
  const letters = 'the quick brown fox jumps over the lazy dog ';
  for (let index = 0; !finished; index++) {
    await page.type(letters[index % letters.length]!);
    await new Promise((resolve) => setTimeout(resolve, KEY_INTERVAL_MS));
  }
  await page.evaluate(`(() => { const box = ${COMPOSER}; box.select(); document.execCommand('delete'); })()`);
}

async function runOnce(options: FloodOptions, fixture: RendererFixture, bashPage: BarePage, replyPage: BarePage, run: number): Promise<RunResult> {
  const bashSession = await openSession(fixture, bashPage, `Bash flood ${run}`);
  const replySession = await openSession(fixture, replyPage, `Reply flood ${run}`);
  if (PROFILE_DIR) await Promise.all([startProfile(bashPage), startProfile(replyPage)]);
  if (TRACE_DIR) await startTrace(fixture.browser);
  await Promise.all([startFrameRecording(bashPage), startFrameRecording(replyPage)]);
  const cpuBefore = await fixture.browser.rendererCpuSeconds();
  const rendererPids = await fixture.browser.rendererPids();
  const snapshotBefore = cpuSnapshot(rendererPids);
  const sent = performance.now();
  await Promise.all([
    request(fixture.api, 'session:send', { sessionId: bashSession, text: BASH_PROMPT }),
    request(fixture.api, 'session:send', { sessionId: replySession, text: REPLY_PROMPT }),
  ]);
  const bashFinished = (async () => {
    await bashPage.waitFor(`${bashDone(options)} && ${RUN_ENDED}`, options.doneTimeoutMs);
    return performance.now() - sent;
  })();
  const replyFinished = (async () => {
    await replyPage.waitFor(RUN_ENDED, options.doneTimeoutMs);
    return performance.now() - sent;
  })();
  const bothDone = Promise.all([bashFinished, replyFinished]);
  await Promise.all([typeUntil(bashPage, bothDone), typeUntil(replyPage, bothDone)]);
  const [bashDoneMs, replyDoneMs] = await bothDone;
  const rendererCpu = (await fixture.browser.rendererCpuSeconds()) - cpuBefore;
  const contention = contentionSince(snapshotBefore, cpuSnapshot(rendererPids));
  const [bash, replyRecording] = await Promise.all([stopFrameRecording(bashPage), stopFrameRecording(replyPage)]);
  const [tracedBash, tracedReply] = TRACE_DIR ? await saveTrace(fixture, `${options.file}-${run}`, [bashPage, replyPage]) : [];
  if (PROFILE_DIR) await Promise.all([stopProfile(bashPage, `${options.file}-bash-${run}`), stopProfile(replyPage, `${options.file}-reply-${run}`)]);
  await options.checkReply(replyPage, TRANSCRIPT);
  return { bash, reply: replyRecording, rendererCpu, bashDoneMs, replyDoneMs, contention, traced: tracedBash && tracedReply ? { bash: tracedBash, reply: tracedReply } : undefined };
}

/** Runs the two floods `options.runs` times and reports both windows' figures. */
export async function runFloods(options: FloodOptions): Promise<Measurement[]> {
  const why = rendererSkipReason();
  if (why) {
    process.stderr.write(`${options.file}: skipped: ${why}\n`);
    return [];
  }
  const fixture = await startRendererFixture({ script: scriptFor(options), prepareHome: (_data, workspace) => options.prepareWorkspace?.(workspace) });
  try {
    const bashPage = await fixture.openPage();
    const replyPage = await fixture.openPage();
    // `COVE_BENCH_NO_SETTLE=1` starts the first run at once, as before (to compare).
    if (!process.env.COVE_BENCH_NO_SETTLE) await fixture.browser.settle();
    const runs: RunResult[] = [];
    for (let run = 1; run <= options.runs; run++) runs.push(await runOnce(options, fixture, bashPage, replyPage, run));
    fixture.assertNoProblems();
    const seconds = (values: number[]) => `${(median(values) / 1000).toFixed(1)} s`;
    const context = `${options.runs} runs pooled; bash card done after ${seconds(runs.map((r) => r.bashDoneMs))}, reply done after ${seconds(runs.map((r) => r.replyDoneMs))} (medians)`;
    return [
      {
        kind: 'measurement',
        name: `${options.name}: renderer CPU`,
        value: median(runs.map((r) => r.rendererCpu * 1000)),
        unit: 'ms',
        goal: undefined,
        detail: `both windows' renderer processes, median of ${options.runs} runs: the work done, frames included (a quieter machine draws more of them), so compare runs made side by side`,
      },
      ...contentionMeasurements(options.name, runs),
      ...windowMeasurements(
        `${options.name}, bash window`,
        runs.map((r) => r.bash),
        context,
        runs.flatMap((r) => (r.traced ? [r.traced.bash] : [])),
      ),
      ...windowMeasurements(
        `${options.name}, reply window`,
        runs.map((r) => r.reply),
        context,
        runs.flatMap((r) => (r.traced ? [r.traced.reply] : [])),
      ),
    ];
  } finally {
    await fixture.close();
  }
}

/**
 * How much the renderers' main threads waited for a core, and what the rest of the machine
 * did, so a long task can be read as work or as waiting (./cpu-contention.ts).
 */
function contentionMeasurements(name: string, runs: RunResult[]): Measurement[] {
  const measured = runs.flatMap((r) => (r.contention ? [r.contention] : []));
  if (measured.length === 0) return [];
  const ms = (values: number[]) => `${(median(values) * 1000).toFixed(0)} ms`;
  const cores = measured[0]!.cores;
  return [
    {
      kind: 'measurement',
      name: `${name}: renderer main threads waiting for a CPU`,
      value: median(measured.map((c) => c.rendererWaited * 1000)),
      unit: 'ms',
      goal: undefined,
      detail:
        `runnable but off-core (Linux schedstat), beside ${ms(measured.map((c) => c.rendererRan))} running; each run's ${ms(measured.map((c) => c.seconds))} ` +
        `on ${cores} cores (${ms(measured.map((c) => c.seconds * cores))} of CPU) had ${ms(measured.map((c) => c.machineBusy))} busy, ${ms(measured.map((c) => c.others))} of it ` +
        `by processes outside this benchmark (medians of ${measured.length} runs; the page's task and frame times are wall time and include the waiting)`,
    },
  ];
}

/** The longest task against the budget; the p95 frame and the keypress latencies beside it. */
function windowMeasurements(name: string, recordings: PageRecording[], context: string, traced: TraceTask[][]): Measurement[] {
  const frames = frameStats(recordings.flatMap((recording) => recording.frames));
  const tasks = recordings.flatMap((recording) => recording.longTasks);
  const keys = recordings.flatMap((recording) => recording.keys);
  const seconds = (ms: number) => `${(ms / 1000).toFixed(1)} s`;
  const taskTotal = tasks.reduce((total, task) => total + task, 0);
  const frameDetail = `median ${frames.median.toFixed(0)} ms, ${frames.overBudget} of ${frames.frames} frames over ${FRAME_BUDGET_MS} ms, longest ${frames.longest.toFixed(0)} ms`;
  return [
    {
      kind: 'measurement',
      name: `${name}: longest task`,
      value: tasks.length === 0 ? 0 : Math.max(...tasks),
      unit: 'ms',
      goal: FRAME_BUDGET_MS,
      detail: `${tasks.length} tasks over ${FRAME_BUDGET_MS} ms (${seconds(taskTotal)} in all); ${context}`,
    },
    ...tracedMeasurements(name, traced),
    { kind: 'measurement', name: `${name}: p95 frame`, value: frames.p95, unit: 'ms', goal: undefined, detail: frameDetail },
    {
      kind: 'measurement',
      name: `${name}: keypress to paint, p95`,
      value: percentile(keys, 0.95),
      unit: 'ms',
      goal: FRAME_BUDGET_MS,
      detail: `${keys.length} keys, median ${median(keys).toFixed(0)} ms, longest ${Math.max(...keys).toFixed(0)} ms`,
    },
  ];
}

/**
 * With COVE_BENCH_TRACE: the thread CPU time of the longest task in the window's traces, beside
 * its wall time, so a long task the machine stretched can be told from one that did 50 ms of work.
 */
function tracedMeasurements(name: string, traced: TraceTask[][]): Measurement[] {
  if (traced.length === 0) return [];
  const tasks = traced.flat();
  const longest = tasks.reduce<TraceTask | undefined>((found, task) => (!found || task.wallMs > found.wallMs ? task : found), undefined);
  const mostCpu = Math.max(0, ...tasks.map((task) => task.cpuMs));
  const wall = tasks.reduce((total, task) => total + task.wallMs, 0);
  const cpu = tasks.reduce((total, task) => total + task.cpuMs, 0);
  return [
    {
      kind: 'measurement',
      name: `${name}: longest task's thread CPU (trace)`,
      value: longest?.cpuMs ?? 0,
      unit: 'ms',
      goal: undefined,
      detail: longest
        ? `of ${longest.wallMs.toFixed(0)} ms wall; ${tasks.length} tasks over 50 ms in ${traced.length} traced runs, ${wall.toFixed(0)} ms wall and ${cpu.toFixed(0)} ms thread CPU in all, at most ${mostCpu.toFixed(0)} ms CPU in one (tracing itself costs CPU)`
        : `no task over 50 ms in ${traced.length} traced runs`,
    },
  ];
}
