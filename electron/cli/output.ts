/**
 * What `cove run` prints. `--json`: one event per line on stdout, buffered so a reply of
 * thousands of deltas costs a few writes rather than one per delta. Otherwise: the reply's text
 * on stdout and a line per tool call on stderr, so `cove run … > answer.md` keeps just the answer.
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

/** A human-readable view of the events. */
export function humanPrinter(out: BufferedWriter, err: BufferedWriter): (event: CoveEvent) => void {
  let lineOpen = false;
  const endLine = () => {
    if (lineOpen) out.write('\n');
    lineOpen = false;
  };
  return (event) => {
    if (event.subagentId) return;
    switch (event.type) {
      case 'messageUpdate':
        if (event.delta.type === 'text') {
          out.write(event.delta.text);
          lineOpen = !event.delta.text.endsWith('\n');
        }
        break;
      case 'messageStart':
        break;
      case 'messageEnd':
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
      case 'agentEnd':
        endLine();
        // A failed run's reason is printed once, by the command, as its last line.
        if (event.stopReason === 'error') break;
        err.write(`\n[${event.stopReason}] ${event.usage.input + event.usage.cacheRead + event.usage.cacheWrite} in / ${event.usage.output} out tokens, $${event.cost.total.toFixed(4)}${event.cost.priced ? '' : ' (model not in the price table)'}\n`);
        break;
      default:
        break;
    }
  };
}
