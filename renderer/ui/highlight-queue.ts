/**
 * Blocks waiting to be highlighted, each with its latest text only (a streamed block asks again
 * on every redraw; what it asked before is dropped), done one block per task, never inside
 * React's render: a finished reply's dozen code blocks, highlighted in the render that drew
 * them, made one task of 200–800 ms (`npm run bench -- renderer-floods`), and a key pressed then
 * waited for all of it.
 */
export interface HighlightJob {
  text: string;
  language: string;
  deliver(lines: string[] | undefined): void;
}

export class HighlightQueue {
  private readonly waiting = new Map<object, HighlightJob>();
  private planned = false;

  /**
   * `highlight` does one job's work, or answers null while the highlighter is not there yet
   * (`whenReady` then says when to try again); `nextTask` runs a function in a task of its own.
   */
  constructor(
    private readonly highlight: (text: string, language: string) => string[] | undefined | null,
    private readonly whenReady: () => Promise<unknown>,
    private readonly nextTask: (run: () => void) => void = (run) => setTimeout(run, 0),
  ) {}

  /** Highlights `job` in a later task, in place of what `owner` asked before. */
  ask(owner: object, job: HighlightJob): void {
    this.waiting.delete(owner);
    this.waiting.set(owner, job);
    this.plan();
  }

  /** `owner` no longer wants what it asked (its component changed text or went away). */
  withdraw(owner: object): void {
    this.waiting.delete(owner);
  }

  get size(): number {
    return this.waiting.size;
  }

  private plan(): void {
    if (this.planned || this.waiting.size === 0) return;
    this.planned = true;
    this.nextTask(() => this.turn());
  }

  private turn(): void {
    this.planned = false;
    const next = this.waiting.entries().next();
    if (next.done) return;
    const [owner, job] = next.value;
    const lines = this.highlight(job.text, job.language);
    if (lines === null) {
      // A failed load leaves the text plain, which is still readable; the next ask tries again.
      this.whenReady().then(
        () => this.plan(),
        () => undefined,
      );
      return;
    }
    this.waiting.delete(owner);
    job.deliver(lines);
    this.plan();
  }
}

/**
 * The highlighted lines of `before` where `text` has the same line at the same place, the others
 * undefined; undefined when none is shared.
 */
export function sharedLines(before: string, lines: readonly string[], text: string): (string | undefined)[] | undefined {
  const old = before.split(/\r?\n/);
  const shared = text.split(/\r?\n/).map((line, index) => (old[index] === line ? lines[index] : undefined));
  return shared.some((line) => line !== undefined) ? shared : undefined;
}
