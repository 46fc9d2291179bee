/**
 * How a detector's secrets are found in a text (over all of it, in windows around its keywords,
 * or in one try just before each) and judged (entropy, allowlists), and how the spans found are
 * replaced.
 */
import { allowed, SEMI_GENERIC_REACH, shannonEntropy } from './rule-model';
import { findAtPlaces } from './keyword-anchors';
import { COVE_NAME, type Detector } from './detectors';

export interface Span {
  start: number;
  end: number;
  label: string;
}

function secretSpan(match: RegExpExecArray, detector: Detector): [number, number] {
  const whole: [number, number] = [match.index, match.index + match[0].length];
  if (Number.isNaN(detector.group)) return whole;
  // A rule with two forms of value names the second `secret2` (JS allows one group per name).
  if (detector.group === -1) return match.indices?.groups?.secret ?? match.indices?.groups?.secret2 ?? whole;
  if (detector.group > 0) return (match.indices?.[detector.group] as [number, number] | undefined) ?? whole;
  for (let group = 1; group < match.length; group++) {
    if (match[group]) return match.indices![group]!;
  }
  return whole;
}

function lineAround(text: string, start: number, end: number): string {
  const from = text.lastIndexOf('\n', start - 1) + 1;
  const to = text.indexOf('\n', end);
  return text.slice(from, to === -1 ? text.length : to);
}

/** What a provider's token is made of, for `Detector.tokenTail`. */
const TOKEN_CHARACTER = /[A-Za-z0-9_-]/;

/** Pushes the match's secret unless its entropy, `accept` or an allowlist excuses it. */
function judge(text: string, match: RegExpExecArray, detector: Detector, into: Span[], offset: number): void {
  const [start, end] = secretSpan(match, detector);
  const secret = text.slice(start, end);
  if (secret === '') return;
  if (detector.entropy > 0 && shannonEntropy(secret) <= detector.entropy) return;
  if (detector.accept && !detector.accept(secret, match)) return;
  if (detector.allowlists.length > 0 && allowed({ secret, match: match[0], line: lineAround(text, match.index, match.index + match[0].length) }, detector.allowlists)) return;
  let tail = end;
  if (detector.tokenTail && TOKEN_CHARACTER.test(text[end - 1]!)) while (tail < text.length && TOKEN_CHARACTER.test(text[tail]!)) tail++;
  into.push({ start: start + offset, end: tail + offset, label: detector.name });
}

/** Finds the detector's secrets in `text`, pushing their spans shifted by `offset`. */
export function findAll(text: string, detector: Detector, into: Span[], offset = 0): void {
  const { regex } = detector;
  regex.lastIndex = 0;
  for (let match = regex.exec(text); match; match = regex.exec(text)) {
    if (match[0] === '') regex.lastIndex++;
    else judge(text, match, detector, into, offset);
  }
}

/** The ASCII characters a class accepts, as a table: walking back is one load per character. */
const characterTables = new Map<RegExp, Uint8Array>();
function characterTable(characters: RegExp): Uint8Array {
  let table = characterTables.get(characters);
  if (!table) {
    table = Uint8Array.from({ length: 128 }, (_, code) => (characters.test(String.fromCharCode(code)) ? 1 : 0));
    characterTables.set(characters, table);
  }
  return table;
}

/** A semi-generic rule tried once per keyword, from the start of the word run before it. */
function findBefore(text: string, sticky: RegExp, nameCharacter: RegExp, detector: Detector, places: readonly number[], into: Span[]): void {
  const name = characterTable(nameCharacter);
  const { operator } = detector;
  const reach = SEMI_GENERIC_REACH;
  let covered = -1;
  // Keywords of one name share the run after them, and so the answer.
  let runEnd = -1;
  let assigned = true;
  for (const place of places) {
    if (place < covered) continue;
    if (operator) {
      if (place >= runEnd) {
        runEnd = operator.runEnd(text, place);
        assigned = operator.operatorAt(text, runEnd);
      }
      if (!assigned) continue;
    }
    let start = place;
    while (start > 0 && place - start < reach && name[text.charCodeAt(start - 1)] === 1) start--;
    sticky.lastIndex = start;
    const match = sticky.exec(text);
    if (!match || match[0] === '') continue;
    covered = match.index + match[0].length;
    judge(text, match, detector, into, 0);
  }
}

/**
 * How far a window reaches from its keyword within one long line. A rule with `.*` (curl's) run
 * from every keyword of a megabyte line to its end would take time squared in the line's length;
 * no credential is this long, and a private key block is matched by its own patterns over the
 * whole text.
 */
const REACH_BEFORE = 2048;
const REACH_AFTER = 4096;
/** Windows of close keywords are joined up to this length; the next one overlaps it by REACH_BEFORE. */
const MAX_WINDOW = 8192;

/** Where a text's line breaks are, found once (natively) for all its windows. */
export class LineBreaks {
  private readonly breaks: number[] = [];

  constructor(private readonly text: string) {
    for (let at = text.indexOf('\n'); at !== -1; at = text.indexOf('\n', at + 1)) this.breaks.push(at);
  }

  /** The number of breaks before `position`. */
  private rank(position: number): number {
    let low = 0;
    let high = this.breaks.length;
    while (low < high) {
      const middle = (low + high) >>> 1;
      if (this.breaks[middle]! < position) low = middle + 1;
      else high = middle;
    }
    return low;
  }

  /** The start of the line `lines` before `position`'s, but no further back than `reach`. */
  startBefore(position: number, lines: number, reach = REACH_BEFORE): number {
    const index = this.rank(position) - 1 - lines;
    const start = index < 0 ? 0 : this.breaks[index]! + 1;
    return Math.max(start, position - reach);
  }

  /** The end of the line `lines` after `position`'s, but no further on than `reach`. */
  endAfter(position: number, lines: number, reach = REACH_AFTER): number {
    const index = this.rank(position) + lines;
    const end = index < this.breaks.length ? this.breaks[index]! : this.text.length;
    return Math.min(end, position + reach);
  }
}

function ascending(places: readonly number[]): boolean {
  for (let index = 1; index < places.length; index++) if (places[index - 1]! > places[index]!) return false;
  return true;
}

/** A detector tried once before each of its own places (`Detector.places`): no windows, so no line breaks needed. */
export function findAtOwnPlaces(text: string, detector: Detector, into: Span[]): void {
  if (detector.sticky && detector.places) findBefore(text, detector.sticky, detector.nameCharacter ?? COVE_NAME, detector, detector.places(text), into);
}

export function findAround(text: string, lines: LineBreaks, detector: Detector, places: number[], into: Span[]): void {
  // Hits come in order of their end; a detector with keywords of several lengths needs sorting,
  // and the others (most places are of `key` and `token`) are spared a sort of thousands.
  if (!ascending(places)) places.sort((a, b) => a - b);
  if (detector.sticky) return findBefore(text, detector.sticky, detector.nameCharacter ?? COVE_NAME, detector, places, into);
  if (detector.anchored) return findAtPlaces(text, detector.anchored, places, (match) => judge(text, match, detector, into, 0));
  const { operator } = detector;
  if (operator) places = places.filter((place) => operator.operatorAt(text, operator.runEnd(text, place)));
  if (places.length === 0) return;
  const { before, after } = detector;
  let index = 0;
  while (index < places.length) {
    const start = lines.startBefore(places[index]!, before);
    let end = lines.endAfter(places[index]!, after);
    for (index++; index < places.length && places[index]! <= end && end - start < MAX_WINDOW; index++) end = Math.max(end, lines.endAfter(places[index]!, after));
    if (start === 0 && end === text.length) findAll(text, detector, into);
    else findAll(text.slice(start, end), detector, into, start);
  }
}

/** `[REDACTED:label]` for a span, once per line it covers when lines must be kept. */
function replacement(text: string, start: number, end: number, label: string, keepLines: boolean): string {
  const marker = `[REDACTED:${label}]`;
  if (!keepLines) return marker;
  const breaks = text.slice(start, end).match(/\r?\n/g);
  return breaks ? marker + breaks.map((lineBreak) => lineBreak + marker).join('') : marker;
}

/** The structural rules (patterns.ts, bare-values.ts): a span another rule also finds is named by that rule. */
const GUESSES = new Set(['prefixed-token', 'bare-value']);

/** The text with every span replaced; overlapping spans are joined and named by the first. */
export function replaceSpans(text: string, spans: Span[], keepLines = false): { text: string; count: number } {
  spans.sort((a, b) => a.start - b.start || b.end - a.end || Number(GUESSES.has(a.label)) - Number(GUESSES.has(b.label)));
  let out = '';
  let last = 0;
  let count = 0;
  for (let index = 0; index < spans.length;) {
    const { start, label } = spans[index]!;
    let end = spans[index]!.end;
    for (index++; index < spans.length && spans[index]!.start < end; index++) end = Math.max(end, spans[index]!.end);
    out += text.slice(last, start) + replacement(text, start, end, label, keepLines);
    last = end;
    count++;
  }
  return { text: out + text.slice(last), count };
}
