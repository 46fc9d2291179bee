/**
 * The session's secrets: known values (from secret files and the environment) and the built-in
 * patterns. `redact` replaces each with `[REDACTED:<kind>]`. Known values are found in one pass
 * of one regex (longest first, so a value containing another is replaced whole); patterns are
 * compiled once and skipped cheaply when their hint words are absent.
 */
import type { SecretRedactor } from '../agent/types';
import { allowed, loadGitleaksRules, SEMI_GENERIC_REACH, shannonEntropy, type Allowlist, type Rule } from './gitleaks-rules';
import { findAtPlaces, OperatorAfter, semiGenericOperator, startsAtKeyword } from './keyword-anchors';
import { KeywordScanner } from './keyword-scan';
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

/** One way of finding secrets: a gitleaks rule or one of Cove's own patterns. */
interface Detector {
  name: string;
  /** Global, with indices when a group holds the secret. */
  regex: RegExp;
  keywords: readonly string[];
  /** A group number, the `secret` group (-1), or the first non-empty group (0). */
  group: number;
  entropy: number;
  allowlists: readonly Allowlist[];
  accept?: (secret: string) => boolean;
  /**
   * gitleaks judges a file whole; in a long output a keyword on one line would let a loose rule
   * (any 40 hex digits, once "sourcegraph" appears) redact hashes far away. Such rules run only
   * on the lines around their keywords.
   */
  windowed: boolean;
  /** Lines before and after a keyword's line that a windowed detector sees. */
  before: number;
  after: number;
  /** Tried only just before each keyword (see `Rule.sticky`). */
  sticky?: RegExp;
  /** The characters a sticky match may start with, walking back from its keyword. */
  nameCharacter?: RegExp;
  /** What must follow a keyword for a try near it to be worth it (an assignment operator and a value). */
  operator?: OperatorAfter;
  /** For a windowed detector whose every match begins with a keyword: tried once at each instead. */
  anchored?: RegExp;
}

/** Lines before and after a keyword that a windowed rule sees (curl's rule spans up to 5). */
const WINDOW_LINES_BEFORE = 1;
const WINDOW_LINES_AFTER = 6;
/** A shape that holds its keyword and cannot cross a line needs the keyword's line, and its neighbours for a name or value wrapped there. */
const LINE_WINDOW = { before: 1, after: 1 };
const WIDE_WINDOW = { before: WINDOW_LINES_BEFORE, after: WINDOW_LINES_AFTER };

/** gitleaks' usual end of a secret, which may be a line break without the secret crossing one. */
const TERMINATOR = /\(\?:\[\\x60'"\\s;\]\|\\\\\[nr\]\|\$\)/g;

/** Whether a rule's regex can match across a line break (other than by ending at one). */
function crossesLines(source: string): boolean {
  return /\\s|\\n|\\r|\[\\s\\S\]|\[\^/.test(source.replace(TERMINATOR, ''));
}

interface Span {
  start: number;
  end: number;
  label: string;
}

function escapeRegExp(value: string): string {
  return value.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}

/** The same regex, sticky, with indices. */
function sticky(regex: RegExp): RegExp {
  return new RegExp(regex.source, [...new Set([...regex.flags.replace('g', ''), 'y', 'd'])].join(''));
}

function fromPattern(pattern: SecretPattern): Detector {
  const named = pattern.regex.source.includes('(?<secret>');
  const flags = new Set([...pattern.regex.flags, 'g', ...(named ? ['d'] : [])]);
  const near = pattern.near ?? (pattern.hints?.length ? 'line' : 'text');
  return {
    name: pattern.name,
    regex: new RegExp(pattern.regex.source, [...flags].join('')),
    keywords: pattern.hints ?? [],
    group: named ? -1 : Number.NaN,
    entropy: 0,
    allowlists: [],
    windowed: near !== 'text',
    ...(near === 'line' ? LINE_WINDOW : WIDE_WINDOW),
    ...(near === 'word' ? { sticky: new RegExp(pattern.regex.source, [...flags].join('').replace('g', 'y')), nameCharacter: pattern.wordCharacters ?? COVE_NAME } : {}),
    ...(near !== 'text' && pattern.operatorAfter ? { operator: new OperatorAfter(pattern.operatorAfter.between, pattern.operatorAfter.operators, pattern.operatorAfter.value) } : {}),
    ...((near === 'line' || near === 'lines') && startsAtKeyword(pattern.regex.source, pattern.hints ?? []) ? { anchored: sticky(pattern.regex) } : {}),
    ...(pattern.accept ? { accept: pattern.accept } : {}),
  };
}

function fromRule(rule: Rule, global: readonly Allowlist[]): Detector {
  const window = rule.prefix && !rule.sticky && !crossesLines(rule.regex.source) ? LINE_WINDOW : WIDE_WINDOW;
  return {
    name: rule.id,
    regex: rule.regex,
    keywords: rule.keywords,
    group: rule.secretGroup,
    entropy: rule.entropy,
    allowlists: [...rule.allowlists, ...global],
    windowed: true,
    ...window,
    ...(rule.sticky ? { sticky: rule.sticky, nameCharacter: GITLEAKS_NAME } : {}),
    ...(rule.sticky && rule.keywords.every((keyword) => /^[\w.-]+$/.test(keyword)) ? { operator: semiGenericOperator() } : {}),
    ...(!rule.sticky && startsAtKeyword(rule.regex.source, rule.keywords) ? { anchored: sticky(rule.regex) } : {}),
  };
}

/** gitleaks' rules are compiled once per process: 200 regexes are cheap to share, not to rebuild. */
let gitleaks: Detector[] | undefined;
function gitleaksDetectors(): Detector[] {
  if (!gitleaks) {
    const loaded = loadGitleaksRules();
    gitleaks = loaded.rules.map((rule) => fromRule(rule, loaded.global));
  }
  return gitleaks;
}

function secretSpan(match: RegExpExecArray, detector: Detector): [number, number] {
  const whole: [number, number] = [match.index, match.index + match[0].length];
  if (Number.isNaN(detector.group)) return whole;
  if (detector.group === -1) return (match.indices?.groups?.secret as [number, number] | undefined) ?? whole;
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

/** Pushes the match's secret unless its entropy, `accept` or an allowlist excuses it. */
function judge(text: string, match: RegExpExecArray, detector: Detector, into: Span[], offset: number): void {
  const [start, end] = secretSpan(match, detector);
  const secret = text.slice(start, end);
  if (secret === '') return;
  if (detector.entropy > 0 && shannonEntropy(secret) <= detector.entropy) return;
  if (detector.accept && !detector.accept(secret)) return;
  if (detector.allowlists.length > 0 && allowed({ secret, match: match[0], line: lineAround(text, match.index, match.index + match[0].length) }, detector.allowlists)) return;
  into.push({ start: start + offset, end: end + offset, label: detector.name });
}

/** Finds the detector's secrets in `text`, pushing their spans shifted by `offset`. */
function findAll(text: string, detector: Detector, into: Span[], offset = 0): void {
  const { regex } = detector;
  regex.lastIndex = 0;
  for (let match = regex.exec(text); match; match = regex.exec(text)) {
    if (match[0] === '') regex.lastIndex++;
    else judge(text, match, detector, into, offset);
  }
}

/** Name characters before a keyword: gitleaks' semi-generic rules', and Cove's (`$token`, `@key`). */
const GITLEAKS_NAME = /[\w.-]/;
const COVE_NAME = /[\w.$@-]/;

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
class LineBreaks {
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

function findAround(text: string, lines: LineBreaks, detector: Detector, places: number[], into: Span[]): void {
  // Hits come in order of their end; a detector with keywords of several lengths needs sorting.
  places.sort((a, b) => a - b);
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

/** The text with every span replaced; overlapping spans are joined and named by the first. */
function replaceSpans(text: string, spans: Span[], keepLines = false): { text: string; count: number } {
  spans.sort((a, b) => a.start - b.start || b.end - a.end);
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

interface DetectorIndex {
  unconditional: readonly Detector[];
  /** The detectors that have keywords: what `exhaustive` runs on every text. */
  keyed: readonly Detector[];
  /** By the scanner's keyword number: the indexes in `keyed` of the detectors each keyword wakes. */
  wakes: readonly (readonly number[])[];
  keywordScan: KeywordScanner;
}

/**
 * Built once per pattern list and shared by every set that uses it (the built-in one a session
 * redacts with until its scan ends, then the session's own): the keyword automaton took 15–30 ms
 * of each start. Detectors hold no state between calls, so sharing them is safe.
 */
const detectorIndexes = new WeakMap<readonly SecretPattern[], Map<boolean, DetectorIndex>>();

function detectorIndex(patterns: readonly SecretPattern[], withGitleaks: boolean): DetectorIndex {
  let byFlag = detectorIndexes.get(patterns);
  if (!byFlag) detectorIndexes.set(patterns, (byFlag = new Map()));
  const known = byFlag.get(withGitleaks);
  if (known) return known;
  // Cove's patterns first: where both find the same secret, its more specific name is shown.
  const detectors = [...patterns.map(fromPattern), ...(withGitleaks ? gitleaksDetectors() : [])];
  const keyed = detectors.filter((detector) => detector.keywords.length > 0);
  const byKeyword = new Map<string, number[]>();
  keyed.forEach((detector, number) => {
    for (const keyword of detector.keywords) byKeyword.set(keyword, [...(byKeyword.get(keyword) ?? []), number]);
  });
  const keywords = [...byKeyword.keys()];
  const index = {
    unconditional: detectors.filter((detector) => detector.keywords.length === 0),
    keyed,
    wakes: keywords.map((keyword) => byKeyword.get(keyword)!),
    keywordScan: new KeywordScanner(keywords),
  };
  byFlag.set(withGitleaks, index);
  return index;
}

export class SecretSet implements SecretRedactor {
  private readonly values = new Map<string, string>();
  /** Rebuilt on the first redact after values change. */
  private literals: RegExp | null | undefined = null;
  /** Detectors with no keywords run on every text. */
  private readonly unconditional: readonly Detector[];
  /** One pass for all keywords (gitleaks' prefilter): of 200 rules only those whose words appear run. */
  private readonly keywordScan: KeywordScanner;
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
    ({ unconditional: this.unconditional, keyed: this.keyed, wakes: this.wakes, keywordScan: this.keywordScan } = index);
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
    for (const detector of this.unconditional) findAll(text, detector, spans);
    // Tools redact before they cut (bash, read_file); what they replaced still counts, so the
    // model is told that the output held secrets.
    const earlier = text.includes('[REDACTED:') ? (text.match(/\[REDACTED:[a-z0-9-]+\]/g)?.length ?? 0) : 0;
    if (this.exhaustive) {
      const lower = text.toLowerCase();
      for (const detector of this.keyed) if (detector.keywords.some((keyword) => lower.includes(keyword))) findAll(text, detector, spans);
    }
    let lines: LineBreaks | undefined;
    for (const [detector, places] of this.exhaustive ? [] : this.awake(text)) {
      if (detector.windowed) findAround(text, (lines ??= new LineBreaks(text)), detector, places, spans);
      else findAll(text, detector, spans);
    }
    if (spans.length === 0) return { text, count: earlier };
    this.learnKeyBodies(text, spans);
    const replaced = replaceSpans(text, spans, keepLines);
    return { text: replaced.text, count: replaced.count + earlier };
  }

  /** The detectors whose keywords appear, in their order, each with where its keywords start. */
  private awake(text: string): [Detector, number[]][] {
    const hits = this.keywordScan.collect(text);
    const { keywords, starts, count } = hits;
    const places: (number[] | undefined)[] = [];
    for (let index = 0; index < count; index++) {
      const start = starts[index]!;
      for (const number of this.wakes[keywords[index]!]!) {
        const list = places[number];
        if (list) list.push(start);
        else places[number] = [start];
      }
    }
    const awake: [Detector, number[]][] = [];
    places.forEach((list, number) => awake.push([this.keyed[number]!, list!]));
    return awake;
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
