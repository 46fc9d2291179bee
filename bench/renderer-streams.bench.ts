/**
 * Frame times while the renderer takes two floods at once: one session's bash call prints
 * 5 MB, and another session's reply streams in 20,000 deltas. Each session is open in its own
 * window (two pages of one `cove serve`, as a person with both sessions side by side), and
 * every window receives both sessions' events, so each page parses both floods and renders
 * one. Frames, tasks over 50 ms and keypresses are recorded in both pages from before the
 * prompts are sent until the bash card shows its exit code and the reply has ended; meanwhile
 * a person types into each window's composer, a key every KEY_INTERVAL_MS. The issue's bar: no
 * task over 50 ms; the p95 frame and the keypress-to-paint latency are reported beside it.
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { SessionSummary } from '../shared/contract';
import type { BarePage } from './bare-page';
import { block, reply, type RecordedRequest, type Reply } from '../test/support/model-server';
import { FRAME_BUDGET_MS, frameStats, startFrameRecording, stopFrameRecording, type PageRecording } from './frame-recorder';
import { rendererSkipReason, request, selectSession, startRendererFixture, type RendererFixture } from './renderer-fixture';
import { median, percentile, type Benchmark, type Measurement } from './support';

const BASH_PROMPT = 'Print five megabytes';
const REPLY_PROMPT = 'Stream twenty thousand deltas';
/** 3,750,000 random bytes in base64 lines of 100: 5,000,000 characters and 50,000 line breaks. */
const COMMAND = 'head -c 3750000 /dev/urandom | base64 -w 100';
const DELTAS = 20_000;
/** `COVE_BENCH_RUNS` runs fewer on a busy machine. */
const RUNS = Number(process.env.COVE_BENCH_RUNS ?? 3);
const DONE_TIMEOUT_MS = 180_000;
const KEY_INTERVAL_MS = 150;
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

function script(request: RecordedRequest): Reply {
  const prompt = JSON.stringify(request.body.messages[0]?.content ?? '');
  const toolAnswered = request.body.messages.length > 1;
  if (prompt.includes(BASH_PROMPT)) {
    return toolAnswered ? reply.text('The output ended.') : reply.message([block.text('Printing it.'), block.toolUse('bash', { command: COMMAND })]);
  }
  if (prompt.includes(REPLY_PROMPT)) return reply.manyDeltas(DELTAS);
  throw new Error(`the renderer benchmark's model has no reply for ${prompt.slice(0, 120)}`);
}

const TRANSCRIPT = `document.querySelector('[role="region"][aria-label="Transcript"]')`;
/** In-page: the run's end marker ("Done") is in the transcript. */
const RUN_ENDED = `${TRANSCRIPT}?.querySelector('[role="note"][aria-label="Done"]')`;
/** In-page: the bash card is done, says exit 0, and shows its output. */
const BASH_DONE = `(() => {
  const card = ${TRANSCRIPT}?.querySelector('article[aria-label="bash tool: Done"]');
  return card && Array.from(card.querySelectorAll('.exit-badge')).some((badge) => badge.textContent === 'exit 0') && card.querySelector('[role="group"][aria-label="bash output"]');
})()`;

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

async function runOnce(fixture: RendererFixture, bashPage: BarePage, replyPage: BarePage, run: number): Promise<RunResult> {
  const bashSession = await openSession(fixture, bashPage, `Bash flood ${run}`);
  const replySession = await openSession(fixture, replyPage, `Reply flood ${run}`);
  if (PROFILE_DIR) await Promise.all([startProfile(bashPage), startProfile(replyPage)]);
  await Promise.all([startFrameRecording(bashPage), startFrameRecording(replyPage)]);
  const cpuBefore = await fixture.browser.rendererCpuSeconds();
  const sent = performance.now();
  await Promise.all([
    request(fixture.api, 'session:send', { sessionId: bashSession, text: BASH_PROMPT }),
    request(fixture.api, 'session:send', { sessionId: replySession, text: REPLY_PROMPT }),
  ]);
  const bashDone = (async () => {
    await bashPage.waitFor(`${BASH_DONE} && ${RUN_ENDED}`, DONE_TIMEOUT_MS);
    return performance.now() - sent;
  })();
  const replyDone = (async () => {
    await replyPage.waitFor(RUN_ENDED, DONE_TIMEOUT_MS);
    return performance.now() - sent;
  })();
  const bothDone = Promise.all([bashDone, replyDone]);
  await Promise.all([typeUntil(bashPage, bothDone), typeUntil(replyPage, bothDone)]);
  const [bashDoneMs, replyDoneMs] = await bothDone;
  const rendererCpu = (await fixture.browser.rendererCpuSeconds()) - cpuBefore;
  const [bash, reply] = await Promise.all([stopFrameRecording(bashPage), stopFrameRecording(replyPage)]);
  if (PROFILE_DIR) await Promise.all([stopProfile(bashPage, `bash-${run}`), stopProfile(replyPage, `reply-${run}`)]);
  const shown = await replyPage.evaluate<number>(`(${TRANSCRIPT}.querySelector('article[aria-label="Cove\\'s reply"]')?.textContent.match(/tok/g) ?? []).length`);
  if (shown !== DELTAS) throw new Error(`the reply shows ${shown} of ${DELTAS} deltas`);
  return { bash, reply, rendererCpu, bashDoneMs, replyDoneMs };
}

const benchmark: Benchmark = async () => {
  const why = rendererSkipReason();
  if (why) {
    process.stderr.write(`renderer-streams.bench: skipped: ${why}\n`);
    return [];
  }
  const fixture = await startRendererFixture({ script });
  try {
    const bashPage = await fixture.openPage();
    const replyPage = await fixture.openPage();
    const runs: RunResult[] = [];
    for (let run = 1; run <= RUNS; run++) runs.push(await runOnce(fixture, bashPage, replyPage, run));
    fixture.assertNoProblems();
    const seconds = (values: number[]) => `${(median(values) / 1000).toFixed(1)} s`;
    const context = `${RUNS} runs pooled; bash card done after ${seconds(runs.map((r) => r.bashDoneMs))}, reply done after ${seconds(runs.map((r) => r.replyDoneMs))} (medians)`;
    const name = 'renderer: 5 MB bash + 20,000 deltas at once';
    return [
      {
        kind: 'measurement',
        name: `${name}: renderer CPU`,
        value: median(runs.map((r) => r.rendererCpu * 1000)),
        unit: 'ms',
        goal: undefined,
        detail: `both windows' renderer processes, median of ${RUNS} runs: the work done, frames included (a quieter machine draws more of them), so compare runs made side by side`,
      },
      ...windowMeasurements(
        `${name}, bash window`,
        runs.map((r) => r.bash),
        context,
      ),
      ...windowMeasurements(
        `${name}, reply window`,
        runs.map((r) => r.reply),
        context,
      ),
    ];
  } finally {
    await fixture.close();
  }
};

/** The longest task against the budget; the p95 frame and the keypress latencies beside it. */
function windowMeasurements(name: string, recordings: PageRecording[], context: string): Measurement[] {
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

export default benchmark;
