/**
 * The session's secrets: known values (from secret files and the environment) and the built-in
 * patterns. `redact` replaces each with `[REDACTED:<kind>]`. Known values are found in one pass
 * of one regex (longest first, so a value containing another is replaced whole); patterns are
 * compiled once and skipped cheaply when their hint words are absent.
 */
import type { SecretRedactor } from '../agent/types';
import { findAll, findAround, findAtOwnPlaces, LineBreaks, replaceSpans, type Span } from './detector-search';
import { detectorIndex, REDACTED_MARKER, type Detector } from './detectors';
import type { KeywordScanner } from './keyword-scan';
import { watchWorkspaceSecrets, type SecretWatch } from './secret-watch';
import { BUILT_IN_PATTERNS, type SecretPattern } from './patterns';
import { privateKeyBodies, scanWorkspaceSecrets, type SecretValue, type WorkspaceScanOptions } from './secret-files';

export type { SecretValue };

export interface SecretSetOptions {
  values?: Iterable<SecretValue>;
  /** Default: the built-in patterns. */
  patterns?: readonly SecretPattern[];
  /** gitleaks' rules besides the patterns; default true. */
  gitleaks?: boolean;
  /**
   * Every rule whose keyword appears runs over the whole text, as gitleaks runs them, with none
   * of the shortcuts (one try per keyword, windows): the slow path the fast one is checked against.
   */
  exhaustive?: boolean;
}

export interface FromWorkspaceOptions extends WorkspaceScanOptions {
  /** Default: the built-in patterns. */
  patterns?: readonly SecretPattern[];
  /** Keep watching the roots and add the values of files created or changed later. Default false. */
  watch?: boolean;
  /** Told once per secret file that cannot be read, by its display path. */
  onUnreadable?: (path: string) => void;
}

/** Shorter values would redact ordinary words and numbers. */
export const MIN_SECRET_LENGTH = 6;

function escapeRegExp(value: string): string {
  return value.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}

export class SecretSet implements SecretRedactor {
  private readonly values = new Map<string, string>();
  /** Rebuilt on the first redact after values change. */
  private literals: RegExp | null | undefined = null;
  /** Detectors with no keywords run on every text. */
  private readonly unconditional: readonly Detector[];
  /** One pass for all keywords (gitleaks' prefilter): of 200 rules only those whose words appear run. */
  private readonly keywordScan: KeywordScanner;
  /** The scanner's number for REDACTED_MARKER. */
  private readonly marker: number;
  /** The detectors that have keywords, in the order their spans are named. */
  private readonly keyed: readonly Detector[];
  /** By the scanner's keyword number: the indexes in `keyed` of the detectors each keyword wakes. */
  private readonly wakes: readonly (readonly number[])[];
  /** With `exhaustive`, every keyed detector whose keyword appears runs on the whole text. */
  private readonly exhaustive: boolean;
  /** Display paths of the secret files whose values were loaded. */
  readonly files: string[] = [];
  /** Display paths of secret files that could not be read. */
  readonly unreadable: string[] = [];
  private watcher: SecretWatch | undefined;

  constructor(options: SecretSetOptions = {}) {
    const index = detectorIndex(options.patterns ?? BUILT_IN_PATTERNS, options.gitleaks !== false);
    ({ unconditional: this.unconditional, keyed: this.keyed, wakes: this.wakes, keywordScan: this.keywordScan, marker: this.marker } = index);
    this.exhaustive = options.exhaustive === true;
    for (const { value, label } of options.values ?? []) this.add(value, label);
  }

  /**
   * Scans the workspace for secret files (`.env*`, key files, `extraGlobs`) and takes their
   * values, plus secret-looking variables of the environment.
   */
  static async fromWorkspace(roots: readonly string[], options: FromWorkspaceOptions = {}): Promise<SecretSet> {
    const found = await scanWorkspaceSecrets(roots, options);
    const set = new SecretSet({ values: found.values, ...(options.patterns ? { patterns: options.patterns } : {}) });
    set.files.push(...found.files);
    set.unreadable.push(...found.unreadable);
    for (const path of found.unreadable) options.onUnreadable?.(path);
    if (options.watch) {
      set.watcher = watchWorkspaceSecrets(roots, set, {
        folders: found.folders,
        ...(options.extraGlobs ? { extraGlobs: options.extraGlobs } : {}),
        ...(options.onUnreadable ? { onUnreadable: options.onUnreadable } : {}),
      });
    }
    return set;
  }

  /** Stops watching the workspace (see `FromWorkspaceOptions.watch`). */
  close(): void {
    this.watcher?.close();
    this.watcher = undefined;
  }

  /** Adds a value to redact wherever it appears; false when it is too short to be told from ordinary text. */
  add(value: string, label = 'secret'): boolean {
    if (value.length < MIN_SECRET_LENGTH) return false;
    if (!this.values.has(value)) {
      this.values.set(value, label);
      this.literals = undefined;
    }
    return true;
  }

  get size(): number {
    return this.values.size;
  }

  has(value: string): boolean {
    return this.values.has(value);
  }

  redact(text: string): { text: string; count: number } {
    return this.redactText(text, false);
  }

  redactLines(text: string): { text: string; count: number } {
    return this.redactText(text, true);
  }

  private redactText(text: string, keepLines: boolean): { text: string; count: number } {
    if (text.length < MIN_SECRET_LENGTH) return { text, count: 0 };
    // Rules count the characters between a name and its value, and a CR is one more (a PTY's
    // output, a Windows file): they judge the LF form, and the CRs come back afterwards.
    if (text.includes('\r\n')) {
      const lf = text.replace(/\r\n/g, '\n');
      const result = this.redactLf(lf, keepLines);
      return result.text === lf ? { text, count: result.count } : { text: result.text.replace(/\n/g, '\r\n'), count: result.count };
    }
    return this.redactLf(text, keepLines);
  }

  private redactLf(text: string, keepLines: boolean): { text: string; count: number } {
    const spans: Span[] = [];
    const literals = this.literalMatcher();
    if (literals) {
      literals.lastIndex = 0;
      for (let match = literals.exec(text); match; match = literals.exec(text)) {
        spans.push({ start: match.index, end: match.index + match[0].length, label: this.values.get(match[0]) ?? 'secret' });
      }
    }
    for (const detector of this.unconditional) {
      if (detector.places && !this.exhaustive) findAtOwnPlaces(text, detector, spans);
      else findAll(text, detector, spans);
    }
    // Tools redact before they cut (bash, read_file); what they replaced still counts, so the
    // model is told that the output held secrets.
    const { awake, marked } = this.exhaustive ? { awake: [], marked: text.includes(REDACTED_MARKER) } : this.awake(text);
    const earlier = marked ? (text.match(/\[REDACTED:[a-z0-9-]+\]/g)?.length ?? 0) : 0;
    if (this.exhaustive) {
      const lower = text.toLowerCase();
      for (const detector of this.keyed) if (detector.keywords.some((keyword) => lower.includes(keyword))) findAll(text, detector, spans);
    }
    let lines: LineBreaks | undefined;
    for (const [detector, places] of awake) {
      if (detector.windowed) findAround(text, (lines ??= new LineBreaks(text)), detector, places, spans);
      else findAll(text, detector, spans);
    }
    if (spans.length === 0) return { text, count: earlier };
    // Text redacted once passes again (an event after its tool's output): a marker's label is not
    // a secret, and a file value such as `password` must not break `[REDACTED:1password-…]`.
    const found = withRecurrences(text, spans);
    const kept = marked ? outsideMarkers(text, found) : found;
    if (kept.length === 0) return { text, count: earlier };
    this.learnKeyBodies(text, kept);
    const replaced = replaceSpans(text, kept, keepLines);
    return { text: replaced.text, count: replaced.count + earlier };
  }

  /**
   * The detectors whose keywords appear, in their order, each with where its keywords start; and
   * whether the text may hold an earlier redaction's marker.
   */
  private awake(text: string): { awake: [Detector, number[]][]; marked: boolean } {
    const hits = this.keywordScan.collect(text);
    const { keywords, starts, count } = hits;
    const places: (number[] | undefined)[] = [];
    let marked = false;
    for (let index = 0; index < count; index++) {
      const start = starts[index]!;
      const keyword = keywords[index]!;
      if (keyword === this.marker) marked = true;
      for (const number of this.wakes[keyword]!) {
        const list = places[number];
        if (list) list.push(start);
        else places[number] = [start];
      }
    }
    const awake: [Detector, number[]][] = [];
    places.forEach((list, number) => awake.push([this.keyed[number]!, list!]));
    return { awake, marked };
  }

  /**
   * A private key seen whole (a file read, a command's output) has its body lines remembered, so
   * a later view of part of it (a tail, a search hit, a diff's context) is redacted as well.
   */
  private learnKeyBodies(text: string, spans: readonly Span[]): void {
    for (const span of spans) {
      if (span.label !== 'private-key') continue;
      for (const line of privateKeyBodies(text.slice(span.start, span.end))) this.add(line, 'private-key');
    }
  }

  private literalMatcher(): RegExp | null {
    if (this.literals === undefined) {
      const sorted = [...this.values.keys()].sort((a, b) => b.length - a.length);
      this.literals = sorted.length === 0 ? null : new RegExp(sorted.map(escapeRegExp).join('|'), 'g');
    }
    return this.literals;
  }
}

/** The spans that do not overlap an earlier redaction's marker. */
function outsideMarkers(text: string, spans: readonly Span[]): Span[] {
  const markers = [...text.matchAll(/\[REDACTED:[a-z0-9-]+\]/g)].map((match) => [match.index, match.index + match[0].length] as const);
  if (markers.length === 0) return [...spans];
  return spans.filter((span) => !markers.some(([start, end]) => span.start < end && span.end > start));
}

/** The shortest secret whose other appearances near it are hidden too. */
const RECURRING_MIN = 12;
/** How far either side of a secret its repeats are looked for: its line and a few around it. */
const RECURRING_REACH = 1000;

/** The shortest body, after a secret's prefix, whose other appearances near the secret are hidden too. */
const BODY_MIN = 16;

/**
 * A provider's prefix at a secret's start: one to three short parts, each a letter and up to 9
 * letters or digits and then `_` or `-` (`shpss_`, `sk-lf-`, `s-s4t2ud-`, `sk_live_`).
 */
const KEY_PREFIX = /^(?:[A-Za-z][A-Za-z0-9]{0,9}[_-]){1,3}/;

/**
 * What follows a secret's prefix, after each of its separators, longest first: the part a twin
 * shares (a client id that is the secret's body without `shpss_`, a public key `pk-lf-…` with
 * the secret key's `sk-lf-` body, 42's `u-s4t2ud-…` beside `s-s4t2ud-…`). Long enough and with
 * a digit (a key's body, not the words of a name such as `my_long_password_here`).
 */
function bodiesOf(secret: string): string[] {
  const prefix = KEY_PREFIX.exec(secret)?.[0] ?? '';
  const bodies: string[] = [];
  for (let at = 0; at < prefix.length; at++) {
    if (secret[at] !== '_' && secret[at] !== '-') continue;
    const body = secret.slice(at + 1);
    if (body.length >= BODY_MIN && /\d/.test(body)) bodies.push(body);
  }
  return bodies;
}

/**
 * A secret found once is hidden where it recurs near by, where the rule's context is not
 * (`token = 'sk_d21e…' | 'sk_d21e…'`, a key set on one line and echoed on the next), and so is
 * its body after a provider's prefix (bodiesOf): the twin that shows the same characters under
 * another name or prefix. Only near by: a search of the whole text per secret would cost a pass
 * over it for each one.
 */
function withRecurrences(text: string, spans: Span[]): Span[] {
  const all = [...spans];
  for (const span of spans) {
    const length = span.end - span.start;
    if (length < RECURRING_MIN) continue;
    const secret = text.slice(span.start, span.end);
    const from = Math.max(0, span.start - RECURRING_REACH);
    const near = text.slice(from, span.end + RECURRING_REACH);
    /** Where a part of the secret stands near it, outside the secret itself (one inside a recurrence of the whole merges with it). */
    const elsewhere = (piece: string) => placesOf(near, piece, from).filter((start) => start < span.start || start >= span.end);
    for (const start of placesOf(near, secret, from)) if (start !== span.start) all.push({ start, end: start + length, label: span.label });
    for (const body of bodiesOf(secret)) for (const start of elsewhere(body)) all.push({ start, end: start + body.length, label: span.label });
    // A copy that differs after its head (cut short, or with another ending), or glued to the
    // word before it (`notSG.APhb3…`): the head of a long secret, to the end of its token there.
    if (length < HEAD_MIN) continue;
    for (const start of elsewhere(secret.slice(0, HEAD))) {
      let end = start + HEAD;
      while (end < text.length && COPY_CHARACTER.test(text[end]!)) end++;
      all.push({ start, end, label: span.label });
    }
  }
  return all;
}

/** Where `piece` occurs in `near`, not overlapping itself, as places in the text `near` begins at `from` of. */
function placesOf(near: string, piece: string, from: number): number[] {
  const places: number[] = [];
  for (let at = near.indexOf(piece); at !== -1; at = near.indexOf(piece, at + piece.length)) places.push(from + at);
  return places;
}

/** A secret this long or longer is hidden where its first HEAD characters recur near it. */
const HEAD_MIN = 32;
const HEAD = 24;
/** What a copy of a secret runs on in, to its token's end: base64's and keys' separators too. */
const COPY_CHARACTER = /[A-Za-z0-9_.+/=~-]/;
