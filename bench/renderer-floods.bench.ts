/**
 * The long variant of ./renderer-streams.bench.ts, closer to a person's floods: a bash call
 * prints 40 MB over about 16 s (./fixtures/long-flood.mjs: coloured log lines, a `\r` progress
 * bar, 256 KB lines with no break), while another session's reply streams 20,000 deltas of
 * Markdown with code blocks and a 1,000-row table. Each is open in its own window, typed into
 * all along (./flood-windows.ts). It checks the work happened: the bash card is done with exit
 * 0 and shows the flood's last line without scrolling, and the reply shows its last table row
 * and its last code block.
 *
 * `COVE_FLOOD_MB` and `COVE_FLOOD_SECONDS` change the flood's size and length.
 */
import { copyFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { reply } from '../test/support/model-server';
import { runFloods } from './flood-windows';
import type { Benchmark } from './support';

const MEGABYTES = Number(process.env.COVE_FLOOD_MB ?? 40);
const SECONDS = Number(process.env.COVE_FLOOD_SECONDS ?? 16);
const DELTAS = 20_000;
const TABLE_ROWS = 1000;
const FLOOD_SCRIPT = fileURLToPath(new URL('./fixtures/long-flood.mjs', import.meta.url));

/** A long answer as a model writes one: prose, code blocks, lists, and one big table. */
export function richReply(tableRows = TABLE_ROWS): string {
  const code = (n: number) =>
    [
      '```ts',
      `export function handler${n}(request: Request): Response {`,
      ...Array.from({ length: 30 }, (_, line) => `  const value${line} = compute(request, ${line * n}); // step ${line}`),
      `  return new Response(JSON.stringify({ ok: true, n: ${n} }));`,
      '}',
      '```',
    ].join('\n');
  const prose = (n: number) =>
    `Section ${n} explains what **changed** and why: the \`handler${n}\` function now reads the request once, ` +
    `keeps the [documented](https://example.com/docs/${n}) order, and returns early on _bad input_.`;
  const parts: string[] = ['# The report', ''];
  for (let n = 1; n <= 12; n++) {
    parts.push(`## Part ${n}`, '', prose(n), '', '- first point', '- second point with `code`', '- third point', '', code(n), '');
  }
  parts.push('## The table', '', '| # | file | status | lines | note |', '|---:|---|:---:|---:|---|');
  for (let row = 1; row <= tableRows; row++)
    parts.push(`| ${row} | src/module-${row % 97}/file-${row}.ts | ${row % 7 === 0 ? '**failed**' : 'ok'} | ${row * 13} | row ${row} of the table |`);
  parts.push('', '## The end', '', prose(99), '', code(999), '', 'That is the whole report.');
  return parts.join('\n');
}

const benchmark: Benchmark = () =>
  runFloods({
    file: 'renderer-floods.bench',
    name: `renderer: ${MEGABYTES} MB bash over ${SECONDS} s + 20,000 Markdown deltas`,
    command: `node long-flood.mjs ${MEGABYTES} ${SECONDS}`,
    prepareWorkspace: (workspace) => copyFileSync(FLOOD_SCRIPT, join(workspace, 'long-flood.mjs')),
    reply: reply.text(richReply(), { chunks: DELTAS }),
    // The last line is in view without scrolling: the terminal draws only the rows in view.
    bashShown: (card) => `${card}.querySelector('[role="group"][aria-label="bash output"]').textContent.includes('flood-done')`,
    async checkReply(page, transcript) {
      const shown = await page.evaluate<{ row: boolean; code: boolean; rows: number }>(`(() => {
        const article = Array.from(${transcript}.querySelectorAll('article[aria-label="Cove\\'s reply"]')).at(-1);
        return {
          row: Boolean(article?.textContent.includes('row ${TABLE_ROWS} of the table')),
          code: Boolean(article?.textContent.includes('handler999')),
          rows: article?.querySelectorAll('tbody tr').length ?? 0,
        };
      })()`);
      if (!shown.row || !shown.code || shown.rows !== TABLE_ROWS) throw new Error(`the reply is not shown whole: ${JSON.stringify(shown)} (expected ${TABLE_ROWS} table rows)`);
    },
    runs: Number(process.env.COVE_BENCH_RUNS ?? 3),
    doneTimeoutMs: 300_000,
  });

export default benchmark;
