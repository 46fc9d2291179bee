/**
 * The last part of a process's stderr, for the settings screen: bounded in bytes and in lines so
 * a chatty server cannot grow Cove's memory.
 */
export class OutputTail {
  private text = '';

  constructor(
    private readonly maxChars = 64 * 1024,
    private readonly maxLines = 500,
  ) {}

  append(chunk: string): void {
    this.text += chunk;
    if (this.text.length > this.maxChars * 2) this.trim();
  }

  /** A line of Cove's own, e.g. that the server was restarted. */
  note(line: string): void {
    const separator = this.text === '' || this.text.endsWith('\n') ? '' : '\n';
    this.append(`${separator}[cove] ${line}\n`);
  }

  toString(): string {
    this.trim();
    return this.text;
  }

  private trim(): void {
    if (this.text.length > this.maxChars) {
      const cut = this.text.length - this.maxChars;
      const lineStart = this.text.indexOf('\n', cut);
      // Start at a line boundary when one is near, so the first line shown is whole.
      this.text = lineStart !== -1 && lineStart - cut < 1024 ? this.text.slice(lineStart + 1) : this.text.slice(cut);
    }
    let newlines = 0;
    for (let index = this.text.length - 2; index >= 0; index--) {
      if (this.text.charCodeAt(index) !== 10) continue;
      newlines++;
      if (newlines === this.maxLines) {
        this.text = this.text.slice(index + 1);
        break;
      }
    }
  }
}
