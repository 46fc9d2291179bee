/**
 * What `cove run` prints. `--json`: one event per line on stdout, buffered so a reply of
 * thousands of deltas costs a few writes rather than one per delta. Otherwise: the reply's text
 * on stdout and a line per tool call on stderr, so `cove run … > answer.md` keeps just the answer.
 *
 * A streamed attempt that is cut and retried must leave nothing on stdout. A file or pipe cannot
 * be unwritten, so there a reply's text is held until its message ends (nobody watches a file
 * fill up); a terminal shows it live and erases the attempt's rows when it is discarded.
 */
import type { CoveEvent } from '../../shared/events';
import { todoLines } from './todo-output';

const FLUSH_BYTES = 64 * 1024;

export class BufferedWriter {
  private chunks: string[] = [];
  private size = 0;
  private scheduled: NodeJS.Immediate | undefined;

  constructor(private readonly stream: NodeJS.WritableStream) {}

  write(text: string): void {
    this.chunks.push(text);
    this.size += text.length;
    if (this.size >= FLUSH_BYTES) this.flush();
    else this.scheduled ??= setImmediate(() => this.flush());
  }

  flush(): void {
    if (this.scheduled) clearImmediate(this.scheduled);
    this.scheduled = undefined;
    if (this.chunks.length === 0) return;
    this.stream.write(this.chunks.join(''));
    this.chunks = [];
    this.size = 0;
  }
}

export function jsonPrinter(out: BufferedWriter): (event: CoveEvent) => void {
  return (event) => out.write(`${JSON.stringify(event)}\n`);
}

function brief(value: unknown, max = 120): string {
  const text = typeof value === 'string' ? value : JSON.stringify(value);
  const line = (text ?? '').replace(/\s+/g, ' ');
  return line.length > max ? `${line.slice(0, max - 1)}…` : line;
}

export interface Terminal {
  /** Columns of the terminal stdout is, or undefined when stdout is a file or a pipe. */
  columns(): number | undefined;
  /** The columns a line takes when drawn (see `terminalOf`). */
  width(line: string): number;
}

export const NOT_A_TERMINAL: Terminal = { columns: () => undefined, width: (line) => line.length };

/**
 * The terminal stdout is. string-width measures what a terminal draws (wide CJK, emoji, no
 * ANSI), so the erased rows are the drawn rows; it is loaded only for a terminal, because its
 * emoji regex alone takes 50 ms or more to compile at start-up.
 */
export async function terminalOf(stream: NodeJS.WriteStream): Promise<Terminal> {
  if (!stream.isTTY) return NOT_A_TERMINAL;
  const { default: stringWidth } = await import('string-width');
  return { columns: () => stream.columns || 80, width: stringWidth };
}

/** Rows the text occupies on a terminal `columns` wide, when it starts at the left edge. */
export function rowsOf(text: string, columns: number, width: (line: string) => number): number {
  return text.split('\n').reduce((rows, line) => rows + Math.max(1, Math.ceil(width(line) / columns)), 0);
}

/** Moves to the first row `text` was drawn on and clears from there to the end of the screen. */
export function eraseSequence(text: string, columns: number, width: (line: string) => number): string {
  const up = rowsOf(text, columns, width) - 1;
  return `${up > 0 ? `\x1b[${up}A` : ''}\r\x1b[J`;
}

/** A human-readable view of the events. */
export function humanPrinter(out: BufferedWriter, err: BufferedWriter, terminal: Terminal = NOT_A_TERMINAL): (event: CoveEvent) => void {
  let lineOpen = false;
  /** The text of the attempt being streamed: held back (a file) or already drawn (a terminal). */
  let attempt = '';
  const endLine = () => {
    if (lineOpen) out.write('\n');
    lineOpen = false;
  };
  const discardAttempt = () => {
    const columns = terminal.columns();
    if (columns && attempt) out.write(eraseSequence(attempt, columns, terminal.width));
    out.flush();
    attempt = '';
    lineOpen = false;
  };
  return (event) => {
    if (event.subagentId) return;
    switch (event.type) {
      case 'messageUpdate':
        if (event.delta.type === 'text') {
          attempt += event.delta.text;
          if (terminal.columns()) out.write(event.delta.text);
          lineOpen = !event.delta.text.endsWith('\n');
        }
        break;
      case 'messageStart':
        attempt = '';
        break;
      case 'messageEnd':
        if (!terminal.columns()) out.write(attempt);
        attempt = '';
        endLine();
        break;
      case 'toolExecutionStart':
        out.flush();
        err.write(`● ${event.toolName} ${brief(event.args)}\n`);
        break;
      case 'toolExecutionEnd': {
        const first = event.result.content.find((block) => block.type === 'text');
        const summary = first && first.type === 'text' ? brief(first.text) : '';
        err.write(`  ${event.isError ? '✗' : '✓'} ${summary}\n`);
        err.flush();
        break;
      }
      case 'providerRetry':
        discardAttempt();
        err.write(`  retrying (attempt ${event.attempt} of ${event.maxAttempts}) in ${(event.delayMs / 1000).toFixed(1)} s: ${event.error}\n`);
        break;
      case 'loopDetected':
        err.write(`  the model repeated ${event.toolName} ${event.count} times (${event.action})\n`);
        break;
      case 'todoUpdate':
        err.write(todoLines(event.todos));
        break;
      case 'contextCompacted':
        err.write(`  context compacted: ${event.removedMessages} older messages ${event.summarized ? 'summarized' : 'dropped'}\n`);
        break;
      case 'hookRun':
        // A hook that only went on stays quiet; one that decided or failed is shown.
        if (event.decision === null) break;
        out.flush();
        err.write(`  ⚑ ${event.hookEvent} hook ${event.decision}: ${brief(event.command, 60)}${event.output ? ` — ${brief(event.output)}` : ''}\n`);
        break;
      case 'checkpoint':
        // A checkpoint that recorded everything stays quiet; what it could not record is said.
        for (const problem of event.problems) err.write(`  ⚑ checkpoint: ${problem}\n`);
        break;
      case 'agentEnd':
        // A stopped run keeps the text that had arrived (the agent stores it); a failed one does not.
        if (!terminal.columns() && event.stopReason === 'aborted') out.write(attempt);
        attempt = '';
        endLine();
        // A failed run's reason is printed once, by the command, as its last line.
        if (event.stopReason === 'error') break;
        err.write(
          `\n[${event.stopReason}] ${event.usage.input + event.usage.cacheRead + event.usage.cacheWrite} in / ${event.usage.output} out tokens, ${event.cost ? `$${event.cost.total.toFixed(4)}` : 'cost unknown'}\n`,
        );
        break;
      default:
        break;
    }
  };
}
