/**
 * Frame times while the renderer takes two floods at once: one session's bash call prints
 * 5 MB, and another session's reply streams in 20,000 deltas. Each session is open in its own
 * window (two pages of one `cove serve`, as a person with both sessions side by side), and
 * every window receives both sessions' events, so each page parses both floods and renders
 * one. Frames are recorded in both pages from before the prompts are sent until the bash card
 * shows its exit code and the reply has ended. The issue's bar: the median frame within 50 ms;
 * the p95 and the count of longer frames are reported beside it.
 */
import type { SessionSummary } from '../shared/contract';
import type { BarePage } from './bare-page';
import { block, reply, type RecordedRequest, type Reply } from '../test/support/model-server';
import { frameMeasurements, frameStats, startFrameRecording, stopFrameRecording } from './frame-recorder';
import { rendererSkipReason, request, selectSession, startRendererFixture, type RendererFixture } from './renderer-fixture';
import { median, type Benchmark, type Measurement } from './support';

const BASH_PROMPT = 'Print five megabytes';
const REPLY_PROMPT = 'Stream twenty thousand deltas';
/** 3,750,000 random bytes in base64 lines of 100: 5,000,000 characters and 50,000 line breaks. */
const COMMAND = 'head -c 3750000 /dev/urandom | base64 -w 100';
const DELTAS = 20_000;
const RUNS = 3;
const DONE_TIMEOUT_MS = 180_000;

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
  bashFrames: number[];
  replyFrames: number[];
  bashDoneMs: number;
  replyDoneMs: number;
}

async function runOnce(fixture: RendererFixture, bashPage: BarePage, replyPage: BarePage, run: number): Promise<RunResult> {
  const bashSession = await openSession(fixture, bashPage, `Bash flood ${run}`);
  const replySession = await openSession(fixture, replyPage, `Reply flood ${run}`);
  await Promise.all([startFrameRecording(bashPage), startFrameRecording(replyPage)]);
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
  const [bashDoneMs, replyDoneMs] = await Promise.all([bashDone, replyDone]);
  const [bashFrames, replyFrames] = await Promise.all([stopFrameRecording(bashPage), stopFrameRecording(replyPage)]);
  const shown = await replyPage.evaluate<number>(`(${TRANSCRIPT}.querySelector('article[aria-label="Cove\\'s reply"]')?.textContent.match(/tok/g) ?? []).length`);
  if (shown !== DELTAS) throw new Error(`the reply shows ${shown} of ${DELTAS} deltas`);
  return { bashFrames, replyFrames, bashDoneMs, replyDoneMs };
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
    const results: Measurement[] = [
      ...frameMeasurements(`${name}, bash window`, frameStats(runs.flatMap((r) => r.bashFrames)), context),
      ...frameMeasurements(`${name}, reply window`, frameStats(runs.flatMap((r) => r.replyFrames)), context),
    ];
    return results;
  } finally {
    await fixture.close();
  }
};

export default benchmark;
