/**
 * The model's copy of a command's output: plain text capped to its head and tail (the start says
 * what ran, the end says how it ended), with a marker counting what was left out between.
 *
 * Only what can be kept is cleaned. The head is cleaned as it arrives until it is full; after
 * that the output is held raw, and only its last part (a little more than the tail the model
 * sees) survives to be cleaned once, at the end. A `seq 1 1000000` thus costs a cheap line count
 * over its 7 MB, not escape stripping and CRLF conversion of all of it.
 */
import type { SecretRedactor } from '../agent/types';
import { TerminalTextCleaner } from './ansi';

export interface ModelOutputLimits {
  headChars: number;
  tailChars: number;
}

export const DEFAULT_MODEL_LIMITS: ModelOutputLimits = { headChars: 10_000, tailChars: 20_000 };

/** Whole lines read better than a cut; `window` is how far we look for a line break. */
const LINE_ALIGN_WINDOW = 2_000;

/**
 * How much more than it shows the model's copy keeps on each side of a cut when it redacts: the
 * rest of a line or a PEM block (a few KB) that a cut would split, so that redaction, done once at
 * the end on what is kept, sees every kept secret whole. Redacting only what is kept, not all of
 * a long output, is what keeps a 20 MB `cat` cheap.
 */
export const REDACTION_MARGIN = 64 * 1024;

/**
 * Raw text held for the tail, as a multiple of the cleaned tail it must yield: escapes and CRLFs
 * make raw text longer than what it cleans to, so a tail of colored lines still fills.
 */
const RAW_TAIL_FACTOR = 2;

interface Counted {
  chars: number;
  lines: number;
}

/**
 * Characters and lines of raw terminal text as the cleaner would count them, but for escapes:
 * a CRLF is one character. Newlines are found with indexOf, which is far cheaper than cleaning.
 */
function countRaw(text: string): Counted {
  let lines = 0;
  let returns = 0;
  for (let at = text.indexOf('\n'); at >= 0; at = text.indexOf('\n', at + 1)) {
    lines++;
    if (at > 0 && text.charCodeAt(at - 1) === 13) returns++;
  }
  return { chars: text.length - returns, lines };
}

function countNewlines(text: string): number {
  let count = 0;
  for (let at = text.indexOf('\n'); at >= 0; at = text.indexOf('\n', at + 1)) count++;
  return count;
}

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
  /** Cleaned text after the head, while none of it has been dropped. */
  private tailParts: string[] = [];
  private tailLength = 0;
  /** Cleaned characters and lines so far, the head and `tailParts` included. */
  private total: Counted = { chars: 0, lines: 0 };
  /**
   * Once the cleaned tail outgrew what is kept: output held raw from then on, to be cleaned at
   * the end. `cleanedBefore` is the cleaned text just before it, kept until raw text replaces it.
   */
  private raw: { parts: string[]; length: number; cleanedBefore: string; dropped: Counted } | undefined;
  /** What is kept before the cut: the limits, plus REDACTION_MARGIN on each side when redacting. */
  private readonly kept: ModelOutputLimits;

  constructor(
    private readonly limits: ModelOutputLimits = DEFAULT_MODEL_LIMITS,
    private readonly secrets?: SecretRedactor,
  ) {
    this.kept = secrets ? { headChars: limits.headChars + REDACTION_MARGIN, tailChars: limits.tailChars + REDACTION_MARGIN } : limits;
  }

  push(chunk: string): void {
    if (this.raw) this.holdRaw(chunk);
    else this.add(this.cleaner.push(chunk));
  }

  /** Ends the stream and returns the capped text, and whether anything was left out. */
  finish(): { text: string; truncated: boolean } {
    const tail = this.finishTail();
    const omittedChars = this.total.chars - this.head.length - tail.length;
    const omittedLines = this.total.lines - countNewlines(this.head) - countNewlines(tail);
    if (!this.secrets) return withMarker(this.head, tail, omittedChars, omittedLines);
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
    return withMarker(head, shownTail, omitted, this.total.lines - countNewlines(head) - countNewlines(shownTail));
  }

  /** The kept tail, cleaned, with the totals brought up to date for what was held raw. */
  private finishTail(): string {
    if (!this.raw) {
      this.add(this.cleaner.flush());
      return cutTail(this.tailParts.join(''), this.kept.tailChars);
    }
    const { parts, cleanedBefore, dropped } = this.raw;
    const cleaner = new TerminalTextCleaner();
    const cleaned = cleaner.push(parts.join('')) + cleaner.flush();
    this.total.chars += dropped.chars + cleaned.length;
    this.total.lines += dropped.lines + countNewlines(cleaned);
    return cutTail(cleanedBefore + cleaned, this.kept.tailChars);
  }

  private add(text: string): void {
    if (text === '') return;
    this.total.chars += text.length;
    this.total.lines += countNewlines(text);
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
    if (this.tailLength > 2 * this.kept.tailChars) this.startRaw();
  }

  /**
   * From here on nothing is cleaned until the end. The cleaned tail keeps its last part (the
   * output may end soon), and what the cleaner held back goes first into the raw text, so the
   * cleaner at the end picks up exactly where this one stopped.
   */
  private startRaw(): void {
    // What is dropped of the cleaned tail was counted as it came; the marker counts it as omitted.
    const cleanedBefore = this.tailParts.join('').slice(-this.kept.tailChars);
    this.tailParts = [];
    this.tailLength = 0;
    const held = this.cleaner.drain();
    this.raw = { parts: held === '' ? [] : [held], length: held.length, cleanedBefore, dropped: { chars: 0, lines: 0 } };
  }

  private holdRaw(chunk: string): void {
    const raw = this.raw!;
    raw.parts.push(chunk);
    raw.length += chunk.length;
    const budget = RAW_TAIL_FACTOR * this.kept.tailChars;
    // Compact once the parts hold twice the budget: amortized linear, bounded memory.
    if (raw.length <= 2 * budget) return;
    const joined = raw.parts.join('');
    // The kept raw text starts at a line, so the cleaner at the end never starts inside an escape.
    const lineStart = joined.indexOf('\n', joined.length - budget);
    const cut = lineStart >= 0 && lineStart - (joined.length - budget) < LINE_ALIGN_WINDOW ? lineStart + 1 : joined.length - budget;
    const counted = countRaw(joined.slice(0, cut));
    raw.dropped.chars += counted.chars;
    raw.dropped.lines += counted.lines;
    // Raw text enough for the whole tail has arrived: the cleaned text before it will not be shown.
    raw.cleanedBefore = '';
    raw.parts = [joined.slice(cut)];
    raw.length = raw.parts[0]!.length;
  }
}
