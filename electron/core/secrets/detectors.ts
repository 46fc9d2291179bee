/**
 * The detectors redaction runs: Cove's patterns and gitleaks' rules, each with what says where it
 * can match (its keywords, the lines around them, the place just before one), and the index that
 * tells which of them a keyword wakes.
 */
import { keywordList, REDACTED_MARKER } from './detector-keywords';
import { generatedRules, prebuiltScanner } from './gitleaks-generated';
import { OperatorAfter, semiGenericOperator, startsAtKeyword } from './keyword-anchors';
import { KeywordScanner } from './keyword-scan';
import type { SecretPattern } from './patterns';
import { noteKeyPrefixes } from './prefixed-token';
import type { Allowlist, Rule } from './rule-model';

export { REDACTED_MARKER };

/** One way of finding secrets: a gitleaks rule or one of Cove's own patterns. */
export interface Detector {
  name: string;
  /** Global, with indices when a group holds the secret. */
  regex: RegExp;
  keywords: readonly string[];
  /** A group number, the `secret` group (-1), or the first non-empty group (0). */
  group: number;
  entropy: number;
  allowlists: readonly Allowlist[];
  accept?: (secret: string, match: RegExpExecArray) => boolean;
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
  /** For a detector with no keywords: where its matches can be, by its own scan (see `SecretPattern.places`). */
  places?: (text: string) => number[];
  /**
   * A provider's prefixed token whose rule wants one exact length (`dp\.pt\.[a-zA-Z0-9]{43}`,
   * `shpat_[a-fA-F0-9]{32}`, no end boundary): the secret runs on to the token's end, so that a
   * longer token (a test key, a newer format) does not show its tail.
   */
  tokenTail?: boolean;
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

/** Name characters before a keyword: gitleaks' semi-generic rules', and Cove's (`$token`, `@key`). */
export const GITLEAKS_NAME = /[\w.-]/;
export const COVE_NAME = /[\w.$@-]/;

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
    ...(pattern.places ? { places: pattern.places } : {}),
  };
}

/** One for all semi-generic rules: it holds tables, no state. */
let semiGenericShared: OperatorAfter | undefined;

/**
 * A gitleaks rule's detector. What needs the rule's regex translated (its window, whether it is
 * anchored at its keywords) is worked out the first time a keyword wakes it (see LazyRegexes).
 */
class RuleDetector implements Detector {
  readonly name: string;
  readonly keywords: readonly string[];
  readonly group: number;
  readonly entropy: number;
  readonly allowlists: readonly Allowlist[];
  /** The rule's lists without the global ones. */
  readonly ownAllowlists: readonly Allowlist[];
  readonly windowed = true;
  readonly nameCharacter?: RegExp;
  readonly operator?: OperatorAfter;
  readonly tokenTail: boolean;
  private shape: { before: number; after: number; anchored: RegExp | undefined } | undefined;

  constructor(
    private readonly rule: Rule,
    global: readonly Allowlist[],
  ) {
    this.name = rule.id;
    this.keywords = rule.keywords;
    this.group = rule.secretGroup;
    this.entropy = rule.entropy;
    this.tokenTail = rule.prefix !== undefined && !rule.semiGeneric;
    // Most rules have no lists of their own: they share the global ones' array. A provider's
    // prefix is context enough (as for the entropy floor, gitleaks-plan.ts): the global stopwords,
    // words a generic value is excused for holding, do not excuse a token that begins with its
    // provider's prefix (`glsa_abcdefghijklmnopqrstuvwxyz012345_89abcdef`, a test key typed as
    // a walk of the alphabet, is a key all the same). The rule's own lists still apply.
    const lists = rule.prefix ? (prefixedGlobal ??= withoutStopwords(global)) : global;
    this.allowlists = rule.allowlists.length === 0 ? lists : [...rule.allowlists, ...lists];
    this.ownAllowlists = rule.allowlists;
    if (rule.semiGeneric) {
      this.nameCharacter = GITLEAKS_NAME;
      if (rule.keywords.every((keyword) => /^[\w.-]+$/.test(keyword))) this.operator = semiGenericShared ??= semiGenericOperator();
    }
  }

  get regex(): RegExp {
    return this.rule.regex;
  }

  get sticky(): RegExp | undefined {
    return this.rule.sticky;
  }

  get before(): number {
    return this.worked().before;
  }

  get after(): number {
    return this.worked().after;
  }

  get anchored(): RegExp | undefined {
    return this.worked().anchored;
  }

  private worked(): { before: number; after: number; anchored: RegExp | undefined } {
    if (!this.shape) {
      const { rule } = this;
      const window = rule.prefix && !rule.semiGeneric && !crossesLines(rule.regex.source) ? LINE_WINDOW : WIDE_WINDOW;
      this.shape = { ...window, anchored: !rule.semiGeneric && startsAtKeyword(rule.regex.source, rule.keywords) ? sticky(rule.regex) : undefined };
    }
    return this.shape;
  }
}

/** The global allowlists as a prefixed rule's secret is judged by them: without their stopwords. */
let prefixedGlobal: readonly Allowlist[] | undefined;
const withoutStopwords = (lists: readonly Allowlist[]): Allowlist[] =>
  lists.map((list) =>
    // An "AND" list's stopwords are half of one condition; its regexes are compiled when first asked for.
    list.all || list.stopwords.length === 0
      ? list
      : {
          target: list.target,
          all: false,
          stopwords: [],
          get regexes() {
            return list.regexes;
          },
        },
  );

/** gitleaks' rules are compiled once per process: 200 regexes are cheap to share, not to rebuild. */
let gitleaks: RuleDetector[] | undefined;
function gitleaksDetectors(): RuleDetector[] {
  if (!gitleaks) {
    const loaded = generatedRules();
    gitleaks = loaded.rules.map((rule) => new RuleDetector(rule, loaded.global));
  }
  return gitleaks;
}

/**
 * A pattern of Cove's named for a gitleaks rule (`gcp-api-key`) takes that rule's own allowlists:
 * the values gitleaks' maintainers list as published on purpose (Google's keys in its own apps)
 * are left by either.
 */
function withOwnAllowlists(detector: Detector, ownByName: ReadonlyMap<string, readonly Allowlist[]>): Detector {
  const own = ownByName.get(detector.name);
  return own ? { ...detector, allowlists: own } : detector;
}

export interface DetectorIndex {
  unconditional: readonly Detector[];
  /** The detectors that have keywords: what `exhaustive` runs on every text. */
  keyed: readonly Detector[];
  /** By the scanner's keyword number: the indexes in `keyed` of the detectors each keyword wakes. */
  wakes: readonly (readonly number[])[];
  keywordScan: KeywordScanner;
  /** The scanner's number for `[REDACTED:`, which wakes no detector (see `REDACTED_MARKER`). */
  marker: number;
}

/**
 * Built once per pattern list and shared by every set that uses it (the built-in one a session
 * redacts with until its scan ends, then the session's own): the keyword automaton took 15–30 ms
 * of each start. Detectors hold no state between calls, so sharing them is safe.
 */
const detectorIndexes = new WeakMap<readonly SecretPattern[], Map<boolean, DetectorIndex>>();

export function detectorIndex(patterns: readonly SecretPattern[], withGitleaks: boolean): DetectorIndex {
  let byFlag = detectorIndexes.get(patterns);
  if (!byFlag) detectorIndexes.set(patterns, (byFlag = new Map()));
  const known = byFlag.get(withGitleaks);
  if (known) return known;
  // Cove's patterns first: where both find the same secret, its more specific name is shown.
  const rules = withGitleaks ? gitleaksDetectors() : [];
  // The first rule of a name with lists of its own (a rule's derived ones share its lists).
  const ownByName = new Map<string, readonly Allowlist[]>();
  for (const rule of rules) if (rule.ownAllowlists.length > 0 && !ownByName.has(rule.name)) ownByName.set(rule.name, rule.ownAllowlists);
  const detectors = [...patterns.map((pattern) => withOwnAllowlists(fromPattern(pattern), ownByName)), ...rules];
  const keyed = detectors.filter((detector) => detector.keywords.length > 0);
  const { keywords, wakes } = keywordList(keyed);
  // The structural prefixed-token rule leaves the prefixes these rules know to them.
  noteKeyPrefixes(keywords);
  const index = {
    unconditional: detectors.filter((detector) => detector.keywords.length === 0),
    keyed,
    wakes,
    // The default set's automaton is saved at build time (gitleaks-generated.ts); others are built.
    keywordScan: (withGitleaks ? prebuiltScanner(keywords) : undefined) ?? new KeywordScanner(keywords),
    marker: keywords.length - 1,
  };
  byFlag.set(withGitleaks, index);
  return index;
}
