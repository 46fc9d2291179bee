/**
 * The two views of a command's output. The model gets plain text capped to its head and tail
 * (the start says what ran, the end says how it ended); the UI gets the raw stream, coalesced
 * to a few updates a second and bounded in total. Memory stays bounded for any output size.
 */
import type { SecretRedactor } from '../agent/types';
import { TerminalTextCleaner } from './ansi';

export interface ModelOutputLimits {
  headChars: number;
  tailChars: number;
}

export const DEFAULT_MODEL_LIMITS: ModelOutputLimits = { headChars: 10_000, tailChars: 20_000 };

function countNewlines(text: string): number {
  let count = 0;
  for (let at = text.indexOf('\n'); at >= 0; at = text.indexOf('\n', at + 1)) count++;
  return count;
}

/** Whole lines read better than a cut; `window` is how far we look for a line break. */
const LINE_ALIGN_WINDOW = 2_000;

/**
 * How much more than it shows the model's copy keeps on each side of a cut when it redacts: the
 * rest of a line or a PEM block (a few KB) that a cut would split, so that redaction, done once at
 * the end on what is kept, sees every kept secret whole. Redacting only what is kept, not all of
 * a long output, is what keeps a 20 MB `cat` cheap.
 */
export const REDACTION_MARGIN = 64 * 1024;

function cutHead(text: string, chars: number): string {
  if (text.length <= chars) return text;
  const lineEnd = text.lastIndexOf('\n', chars - 1);
  return lineEnd >= 0 && chars - lineEnd <= LINE_ALIGN_WINDOW ? text.slice(0, lineEnd + 1) : text.slice(0, chars);
}

function cutTail(text: string, chars: number): string {
  if (text.length <= chars) return text;
  const tail = text.slice(-chars);
  const lineStart = tail.indexOf('\n');
  return lineStart >= 0 && lineStart < LINE_ALIGN_WINDOW ? tail.slice(lineStart + 1) : tail;
}

function withMarker(head: string, tail: string, omittedChars: number, omittedLines: number): { text: string; truncated: boolean } {
  if (omittedChars <= 0) return { text: head + tail, truncated: false };
  const lines = omittedLines > 0 ? ` (${omittedLines.toLocaleString('en-US')} lines)` : '';
  const separator = head.endsWith('\n') || head === '' ? '' : '\n';
  return { text: `${head}${separator}[… ${omittedChars.toLocaleString('en-US')} characters${lines} omitted …]\n${tail}`, truncated: true };
}

/** Plain text for the model: the first `headChars` and the last `tailChars`, with a marker between. */
export class ModelOutput {
  private readonly cleaner = new TerminalTextCleaner();
  private head = '';
  private headFull = false;
  private tailParts: string[] = [];
  private tailLength = 0;
  private totalChars = 0;
  private totalLines = 0;
  /** What is kept before the cut: the limits, plus REDACTION_MARGIN on each side when redacting. */
  private readonly kept: ModelOutputLimits;

  constructor(
    private readonly limits: ModelOutputLimits = DEFAULT_MODEL_LIMITS,
    private readonly secrets?: SecretRedactor,
  ) {
    this.kept = secrets ? { headChars: limits.headChars + REDACTION_MARGIN, tailChars: limits.tailChars + REDACTION_MARGIN } : limits;
  }

  push(chunk: string): void {
    this.add(this.cleaner.push(chunk));
  }

  /** Ends the stream and returns the capped text, and whether anything was left out. */
  finish(): { text: string; truncated: boolean } {
    this.add(this.cleaner.flush());
    const tail = this.alignedTail();
    const omittedChars = this.totalChars - this.head.length - tail.length;
    if (!this.secrets) return withMarker(this.head, tail, omittedChars, this.totalLines - countNewlines(this.head) - countNewlines(tail));
    // Redacted whole (lines kept, so line counts hold), then cut: a cut never meets half a secret.
    const redact = (text: string) => (this.secrets!.redactLines ?? this.secrets!.redact).call(this.secrets, text).text;
    const { headChars, tailChars } = this.limits;
    if (omittedChars <= 0) {
      const whole = redact(this.head + tail);
      const head = cutHead(whole, headChars);
      const rest = whole.length <= headChars + tailChars ? whole.slice(head.length) : cutTail(whole.slice(head.length), tailChars);
      return withMarker(head, rest, whole.length - head.length - rest.length, countNewlines(whole) - countNewlines(head) - countNewlines(rest));
    }
    const redactedHead = redact(this.head);
    const redactedTail = redact(tail);
    const head = cutHead(redactedHead, headChars);
    const shownTail = cutTail(redactedTail, tailChars);
    const omitted = omittedChars + redactedHead.length - head.length + redactedTail.length - shownTail.length;
    return withMarker(head, shownTail, omitted, this.totalLines - countNewlines(head) - countNewlines(shownTail));
  }

  private add(text: string): void {
    if (text === '') return;
    this.totalChars += text.length;
    this.totalLines += countNewlines(text);
    let rest = text;
    if (!this.headFull) {
      const room = this.kept.headChars - this.head.length;
      if (rest.length <= room) {
        this.head += rest;
        return;
      }
      let cut = room;
      const lineEnd = rest.lastIndexOf('\n', room - 1);
      if (lineEnd >= 0 && room - lineEnd <= LINE_ALIGN_WINDOW) cut = lineEnd + 1;
      this.head += rest.slice(0, cut);
      this.headFull = true;
      rest = rest.slice(cut);
    }
    this.tailParts.push(rest);
    this.tailLength += rest.length;
    // Compact once the parts hold twice the tail: amortized linear, bounded memory.
    if (this.tailLength > 2 * this.kept.tailChars) {
      const joined = this.tailParts.join('').slice(-this.kept.tailChars);
      this.tailParts = [joined];
      this.tailLength = joined.length;
    }
  }

  private alignedTail(): string {
    const joined = this.tailParts.join('');
    if (joined.length <= this.kept.tailChars) return joined;
    const tail = joined.slice(-this.kept.tailChars);
    const lineStart = tail.indexOf('\n');
    return lineStart >= 0 && lineStart < LINE_ALIGN_WINDOW ? tail.slice(lineStart + 1) : tail;
  }
}

export interface UiUpdate {
  chunk: string;
  /** All output bytes so far, including any the UI no longer receives. */
  bytes: number;
  elapsedMs: number;
  /** Set once, on the update after which chunks stop. */
  truncatedForUi?: true;
}

export const UI_BYTE_LIMIT = 5 * 1024 * 1024;
export const UPDATE_INTERVAL_MS = 200;
export const UI_TRUNCATION_NOTE = '\r\n[output truncated for the UI]\r\n';
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

/**
 * Coalesces raw chunks into at most one update per `intervalMs`, each carrying only what is new.
 * After `byteLimit` bytes have gone to the UI it sends one truncation note, then byte counts only.
 */
export class UiStream {
  private pending: string[] = [];
  private timer: NodeJS.Timeout | undefined;
  private lastSent = 0;
  private sentBytes = 0;
  private truncated = false;
  private noteDue = false;
  /** When the text held back from the last update began waiting. */
  private heldSince: number | undefined;
  private timerHoldsBack = false;
  bytes = 0;

  constructor(
    private readonly send: (update: UiUpdate) => void,
    private readonly startedAt: number,
    private readonly intervalMs = UPDATE_INTERVAL_MS,
    private readonly byteLimit = UI_BYTE_LIMIT,
    private readonly secrets?: SecretRedactor,
  ) {}

  get truncatedForUi(): boolean {
    return this.truncated;
  }

  push(chunk: string): void {
    const size = Buffer.byteLength(chunk, 'utf8');
    this.bytes += size;
    if (!this.truncated) {
      if (this.sentBytes + size <= this.byteLimit) {
        this.pending.push(chunk);
        this.sentBytes += size;
      } else {
        this.truncated = true;
        this.noteDue = true;
      }
    }
    // New output is due at the usual interval, sooner than a release of held-back text.
    if (!this.timer || this.timerHoldsBack) {
      if (this.timer) clearTimeout(this.timer);
      const wait = Math.max(0, this.lastSent + this.intervalMs - Date.now());
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
    const cut = final || this.noteDue ? text.length : overdue ? Math.max(sendablePrefix(text), wordBoundary(text, text.length)) : sendablePrefix(text);
    const sent = text.slice(0, cut);
    const chunk = (this.secrets && sent !== '' ? this.secrets.redact(sent).text : sent) + (this.noteDue ? UI_TRUNCATION_NOTE : '');
    this.pending = cut < text.length ? [text.slice(cut)] : [];
    if (this.pending.length === 0) this.heldSince = undefined;
    else {
      if (cut > 0 || this.heldSince === undefined) this.heldSince = Date.now();
      this.timer = setTimeout(() => this.flush(false), HOLD_BACK_MS - (Date.now() - this.heldSince));
      this.timerHoldsBack = true;
    }
    if (chunk === '' && !this.noteDue && !this.truncated) return;
    const update: UiUpdate = { chunk, bytes: this.bytes, elapsedMs: Date.now() - this.startedAt };
    if (this.noteDue) update.truncatedForUi = true;
    this.noteDue = false;
    this.lastSent = Date.now();
    this.send(update);
  }

  /** Stops the timer without sending. */
  dispose(): void {
    if (this.timer) clearTimeout(this.timer);
    this.timer = undefined;
  }
}
