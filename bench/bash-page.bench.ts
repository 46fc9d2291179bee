/**
 * Big command output as a person watching `cove serve` in Chromium feels it: from clicking Send
 * on a prompt whose command prints `seq 1 1000000` and then a marker line, until the page's
 * terminal shows that marker; against the same for a command printing only the marker. What the
 * big output adds stands beside a bare node-pty reading the same output (less its own small
 * run), in the same rounds, and what is left after the PTY read is reported against its goal.
 */
import type { Page } from 'playwright-core';
import { launchChromium, openApp, skipReason, startE2E, startSession } from '../test/e2e/support';
import { barePty } from './bash-baseline';
import { BIG_COMMAND, commandScript } from './bash-run.bench';
import { median, type Benchmark } from './support';

const ROUNDS = 5;

async function timed(run: () => Promise<unknown>): Promise<number> {
  const started = process.hrtime.bigint();
  await run();
  return Number(process.hrtime.bigint() - started) / 1e6;
}

/** Sends the command as the prompt and resolves when the newest terminal's last line is `marker`. */
async function runInPage(page: Page, command: string, marker: string): Promise<number> {
  await page.getByRole('textbox', { name: 'Message' }).fill(command);
  return timed(async () => {
    await page.getByRole('button', { name: 'Send' }).click();
    await page.waitForFunction(
      (expected) => {
        const terminals = document.querySelectorAll('pre.terminal');
        const text = (terminals[terminals.length - 1]?.textContent ?? '').trimEnd();
        return text === expected || text.endsWith(`\n${expected}`);
      },
      marker,
      { polling: 'raf', timeout: 60_000 },
    );
  });
}

/** Until the run is over, so the next prompt starts a run rather than steering this one. */
async function idle(page: Page): Promise<void> {
  await page.getByRole('button', { name: 'Send' }).waitFor({ timeout: 60_000 });
  await page.getByRole('button', { name: 'Stop' }).waitFor({ state: 'detached', timeout: 60_000 });
}

const benchmark: Benchmark = async () => {
  const why = skipReason();
  if (why) {
    process.stderr.write(`bash-page.bench: skipped: ${why}\n`);
    return [];
  }
  const browser = await launchChromium();
  const e2e = await startE2E(commandScript, browser);
  try {
    const { page } = e2e;
    await openApp(e2e);
    await startSession(e2e, '');
    await page.getByRole('combobox', { name: /^Permission mode/ }).selectOption({ label: 'Bypass (never ask)' });
    await e2e.waitForSessions((sessions) => sessions[0]?.permissionMode === 'bypass', 'the session in bypass mode');
    const samples = { bareBig: [] as number[], bareSmall: [] as number[], pageBig: [] as number[], pageSmall: [] as number[] };
    for (let round = -1; round < ROUNDS; round++) {
      const bigMarker = `end-big-${round + 1}`;
      const smallMarker = `end-small-${round + 1}`;
      const bareBig = await timed(() => barePty(`${BIG_COMMAND} && echo ${bigMarker}`, e2e.workspace, bigMarker));
      const bareSmall = await timed(() => barePty(`echo ${smallMarker}`, e2e.workspace, smallMarker));
      const pageBig = await runInPage(page, `${BIG_COMMAND} && echo ${bigMarker}`, bigMarker);
      await idle(page);
      const pageSmall = await runInPage(page, `echo ${smallMarker}`, smallMarker);
      await idle(page);
      if (round < 0) continue;
      samples.bareBig.push(bareBig);
      samples.bareSmall.push(bareSmall);
      samples.pageBig.push(pageBig);
      samples.pageSmall.push(pageSmall);
    }
    if (e2e.problems.length > 0) throw new Error(`bash-page.bench: the page reported problems:\n${e2e.problems.join('\n')}`);
    const bareRead = median(samples.bareBig) - median(samples.bareSmall);
    const pageExtra = median(samples.pageBig) - median(samples.pageSmall);
    return [
      {
        kind: 'comparison',
        name: `cove serve → Chromium: ${BIG_COMMAND} until its last line shows`,
        baselineLabel: 'bare node-pty read',
        coveLabel: 'extra time',
        baselineMs: bareRead,
        coveMs: pageExtra,
        ratio: pageExtra / bareRead,
        goal: 1.5,
      },
      {
        kind: 'measurement',
        name: 'cove serve → Chromium: work after the PTY',
        value: pageExtra - bareRead,
        unit: 'ms',
        goal: 100,
        detail: `extra time less the bare read; medians of ${ROUNDS}: page ${median(samples.pageBig).toFixed(0)} / ${median(samples.pageSmall).toFixed(0)} ms, bare ${median(samples.bareBig).toFixed(0)} / ${median(samples.bareSmall).toFixed(0)} ms`,
      },
    ];
  } catch (error) {
    process.stderr.write(`bash-page.bench: failed; the page is in ${await e2e.screenshot('bash-page-FAILED')}\n`);
    throw error;
  } finally {
    await e2e.close();
    await browser.close();
  }
};
export default benchmark;
