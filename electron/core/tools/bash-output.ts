/**
 * The two views of a command's output. The model gets plain text capped to its head and tail
 * (./bash-model-output.ts); the UI gets the raw stream, redacted, coalesced to an update every
 * few tens of milliseconds, each bounded to the newest text of its batch. Memory stays bounded
 * for any output size.
 */
import type { SecretRedactor } from '../agent/types';

export { DEFAULT_MODEL_LIMITS, ModelOutput, REDACTION_MARGIN, type ModelOutputLimits } from './bash-model-output';

export interface UiUpdate {
  chunk: string;
  /** All output bytes so far, including any the UI did not receive. */
  bytes: number;
  elapsedMs: number;
  /** This update left out the older part of its batch; the chunk says how much, where it was. */
  truncatedForUi?: true;
  /**
   * The chunk ends inside a line that is still being written (sent because it waited too long
   * or grew too long): it was redacted with what was known so far.
   */
  lineOpen?: true;
  /**
   * Shown live but not stored: the call has sent UI_STORED_LIMIT already. Its end result's
   * `uiTail` carries what a redraw shows in place of these updates.
   */
  live?: true;
}

/**
 * An update at most this often. Between two, output is only collected, so redaction, the event,
 * the store and the printing run per batch, not per PTY read.
 */
export const UPDATE_INTERVAL_MS = 50;
/**
 * The interval after an update that left part of its batch out: in a flood, a longer batch costs
 * no more to show (only its newest lines are redacted and sent) and nobody reads faster.
 */
export const FLOOD_INTERVAL_MS = 200;
/**
 * The most one update carries: the newest text of its batch. The terminal in the UI keeps its
 * last few thousand lines, so a flood shows the same with a fraction of the bytes redacted,
 * stored and sent (`seq 1 1000000` sends a few hundred KB, not 7 MB).
 */
export const UI_BATCH_LIMIT = 32 * 1024;
/**
 * How much of a call's chunks the store keeps, from the start: past it updates are live-only and
 * the end result carries the newest UI_BATCH_LIMIT instead, so a redraw shows head and tail
 * and a call stores a few hundred KB whatever it prints.
 */
export const UI_STORED_LIMIT = 256 * 1024;
/** Where the older part of a batch was left out. */
export function skipNote(chars: number): string {
  return `[… ${chars.toLocaleString('en-US')} characters not shown here …]\r\n`;
}
/** How much of an unfinished line (or PEM block) is held back at most, and for how long, before it is sent anyway. */
export const HOLD_BACK_LIMIT = 16 * 1024;
export const HOLD_BACK_MS = 1000;

/**
 * The part of `text` that can be sent now: whole lines only, and never the start of a PEM block
 * whose END line has not arrived. Secret redaction works on each update's text, so a token or a
 * private key split across two updates would slip past it; holding back the unfinished part
 * keeps every secret inside one update. Past HOLD_BACK_LIMIT, or after HOLD_BACK_MS (a prompt
 * or a progress line without a newline must still show), the text is sent regardless.
 */
export function sendablePrefix(text: string): number {
  let end = Math.max(text.lastIndexOf('\n'), text.lastIndexOf('\r')) + 1;
  const begin = text.lastIndexOf('-----BEGIN', end);
  if (begin >= 0 && text.indexOf('-----END', begin) < 0) end = Math.min(end, text.lastIndexOf('\n', begin) + 1);
  return text.length - end > HOLD_BACK_LIMIT ? wordBoundary(text, text.length) : end;
}

/** Tokens end at these (a name's `=` or `:` too); a cut just after one does not split a credential. */
const SEPARATOR = /[\s"'`,;:=<>(){}[\]|&]/;
/** How far back a cut looks for a separator, and how long a held word may grow. */
export const WORD_HOLD_LIMIT = 1024;

/**
 * Where to cut `text` at or before `end` so that the held rest is a word still being written:
 * just after the last separator; nothing when all of it is one short word; `end` when no
 * separator is within WORD_HOLD_LIMIT.
 */
export function wordBoundary(text: string, end: number): number {
  let index = end - 1;
  for (; index >= 0 && end - index <= WORD_HOLD_LIMIT; index--) {
    if (SEPARATOR.test(text[index]!)) return index + 1;
  }
  // The whole text is one word, short enough to wait for its end.
  return index < 0 ? 0 : end;
}

/** Lines are whole when a cut looks this far for a line break. */
const LINE_ALIGN_WINDOW = 4096;

/**
 * Where a cut at or after `at` starts: a line, or in a line too long for that the next word, so
 * the kept text never begins with the end of a token whose start was cut away (and that
 * redaction, seeing only the end, might not know).
 */
function lineStartFrom(text: string, at: number): number {
  if (at <= 0) return 0;
  const newline = text.indexOf('\n', at - 1);
  if (newline >= 0 && newline - at < LINE_ALIGN_WINDOW) return newline + 1;
  for (let index = at - 1; index < text.length && index - at < WORD_HOLD_LIMIT; index++) {
    if (SEPARATOR.test(text[index]!)) return index + 1;
  }
  return at;
}

/**
 * Coalesces raw chunks into at most one update per `intervalMs`, each carrying only what is new,
 * redacted, and of a batch over `batchLimit` only its newest lines. The cut comes after redaction:
 * the text redacted reaches HOLD_BACK_LIMIT further back than what is kept, so a PEM block whose
 * BEGIN line falls before the cut still has its body recognized.
 */
export class UiStream {
  private pending: string[] = [];
  private pendingLength = 0;
  /** Characters dropped from `pending` before a flush (output far faster than the interval). */
  private skipped = 0;
  private timer: NodeJS.Timeout | undefined;
  private lastSent = 0;
  private truncated = false;
  /** The last update left part of its batch out. */
  private flooding = false;
  private storedChars = 0;
  /** Of the live-only updates: the characters they stood for, and the newest lines they showed. */
  private live: { chars: number; recent: string } | undefined;
  /** When the text held back from the last update began waiting. */
  private heldSince: number | undefined;
  private timerHoldsBack = false;
  bytes = 0;

  constructor(
    private readonly send: (update: UiUpdate) => void,
    private readonly startedAt: number,
    private readonly intervalMs = UPDATE_INTERVAL_MS,
    private readonly batchLimit = UI_BATCH_LIMIT,
    private readonly secrets?: SecretRedactor,
    private readonly storedLimit = UI_STORED_LIMIT,
  ) {}

  /**
   * What a redraw shows after the stored updates, when some were live-only: a note of what it
   * leaves out, then the newest lines shown. Call after the final flush.
   */
  get redrawTail(): string | undefined {
    if (!this.live) return undefined;
    const { chars, recent } = this.live;
    return chars > recent.length ? skipNote(chars - recent.length) + recent : recent;
  }

  /** Whether any update left out part of the output. */
  get truncatedForUi(): boolean {
    return this.truncated;
  }

  push(chunk: string): void {
    this.bytes += Buffer.byteLength(chunk, 'utf8');
    this.pending.push(chunk);
    this.pendingLength += chunk.length;
    // Bounded memory when output outruns the timer: only the newest text can be shown anyway.
    if (this.pendingLength > 4 * this.window) this.compactPending();
    // New output is due at the usual interval, sooner than a release of held-back text.
    if (!this.timer || this.timerHoldsBack) {
      if (this.timer) clearTimeout(this.timer);
      const interval = this.flooding ? Math.max(this.intervalMs, FLOOD_INTERVAL_MS) : this.intervalMs;
      const wait = Math.max(0, this.lastSent + interval - Date.now());
      this.timer = setTimeout(() => this.flush(false), wait);
      this.timerHoldsBack = false;
    }
  }

  /** Sends what is pending: at the end everything, before it only what `sendablePrefix` allows. */
  flush(final = true): void {
    if (this.timer) clearTimeout(this.timer);
    this.timer = undefined;
    const text = this.pending.join('');
    const overdue = this.heldSince !== undefined && Date.now() - this.heldSince >= HOLD_BACK_MS;
    // Overdue, an open line is shown up to its last word: a token printed slowly stays held
    // until it is complete (or the line ends, or WORD_HOLD_LIMIT), and is redacted whole.
    const cut = final ? text.length : overdue ? Math.max(sendablePrefix(text), wordBoundary(text, text.length)) : sendablePrefix(text);
    const sent = text.slice(0, cut);
    this.pending = cut < text.length ? [text.slice(cut)] : [];
    this.pendingLength = text.length - cut;
    if (this.pending.length === 0) this.heldSince = undefined;
    else {
      if (cut > 0 || this.heldSince === undefined) this.heldSince = Date.now();
      this.timer = setTimeout(() => this.flush(false), HOLD_BACK_MS - (Date.now() - this.heldSince));
      this.timerHoldsBack = true;
    }
    if (sent === '') return;
    const shown = this.newest(sent);
    const update: UiUpdate = { chunk: shown.text, bytes: this.bytes, elapsedMs: Date.now() - this.startedAt };
    this.flooding = shown.skipped > 0;
    if (this.flooding) {
      update.truncatedForUi = true;
      this.truncated = true;
    }
    if (!final && !sent.endsWith('\n') && !sent.endsWith('\r')) update.lineOpen = true;
    if (this.storedChars >= this.storedLimit) {
      update.live = true;
      this.remember(shown.compacted + sent.length, shown.text);
    } else this.storedChars += shown.text.length;
    this.lastSent = Date.now();
    this.send(update);
  }

  /** Stops the timer without sending. */
  dispose(): void {
    if (this.timer) clearTimeout(this.timer);
    this.timer = undefined;
  }

  /** What is redacted of a batch: what is kept and HOLD_BACK_LIMIT before it. */
  private get window(): number {
    return this.batchLimit + HOLD_BACK_LIMIT;
  }

  /** The batch's newest lines, redacted before the cut, after a note of what was left out. */
  private newest(batch: string): { text: string; skipped: number; compacted: number } {
    const redact = (text: string) => (this.secrets ? this.secrets.redact(text).text : text);
    const skippedBefore = this.skipped;
    this.skipped = 0;
    if (batch.length <= this.batchLimit && skippedBefore === 0) return { text: redact(batch), skipped: 0, compacted: 0 };
    const from = lineStartFrom(batch, batch.length - this.window);
    const redacted = redact(batch.slice(from));
    const start = lineStartFrom(redacted, redacted.length - this.batchLimit);
    const kept = redacted.slice(start);
    const skipped = skippedBefore + from + start;
    return { text: skipped > 0 ? skipNote(skipped) + kept : kept, skipped, compacted: skippedBefore };
  }

  /** Keeps the newest whole lines of what live-only updates showed, already redacted. */
  private remember(chars: number, shown: string): void {
    const live = (this.live ??= { chars: 0, recent: '' });
    live.chars += chars;
    const recent = live.recent + shown;
    live.recent = recent.length <= this.batchLimit ? recent : recent.slice(lineStartFrom(recent, recent.length - this.batchLimit));
  }

  private compactPending(): void {
    const joined = this.pending.join('');
    const from = lineStartFrom(joined, joined.length - 2 * this.window);
    this.skipped += from;
    this.pending = [joined.slice(from)];
    this.pendingLength = joined.length - from;
  }
}
