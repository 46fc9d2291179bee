/**
 * Frame times while the renderer takes two floods at once (./flood-windows.ts): one session's
 * bash call prints 5 MB, and another session's reply streams in 20,000 deltas. Both are over in
 * a second or two on a quiet machine; ./renderer-floods.bench.ts is the long variant.
 */
import { reply } from '../test/support/model-server';
import { runFloods } from './flood-windows';
import type { Benchmark } from './support';

/** 3,750,000 random bytes in base64 lines of 100: 5,000,000 characters and 50,000 line breaks. */
const COMMAND = 'head -c 3750000 /dev/urandom | base64 -w 100';
const DELTAS = 20_000;

const benchmark: Benchmark = () =>
  runFloods({
    file: 'renderer-streams.bench',
    name: 'renderer: 5 MB bash + 20,000 deltas at once',
    command: COMMAND,
    reply: reply.manyDeltas(DELTAS),
    bashShown: () => 'true',
    async checkReply(page, transcript) {
      const shown = await page.evaluate<number>(`(${transcript}.querySelector('article[aria-label="Cove\\'s reply"]')?.textContent.match(/tok/g) ?? []).length`);
      if (shown !== DELTAS) throw new Error(`the reply shows ${shown} of ${DELTAS} deltas`);
    },
    // `COVE_BENCH_RUNS` runs fewer on a busy machine.
    runs: Number(process.env.COVE_BENCH_RUNS ?? 3),
    doneTimeoutMs: 180_000,
  });

export default benchmark;
