/**
 * gitleaks' default rules (rules/gitleaks.json, MIT, refreshed by
 * scripts/refresh-gitleaks-rules.mjs) compiled to the rules Cove redacts with. They are judged
 * the way gitleaks judges them: the secret is the rule's `secretGroup` or its first non-empty
 * group, it must be more random than the rule's entropy floor, and neither the rule's allowlists
 * nor the global one (regexes on the secret, the match or the line; stopwords) may excuse it.
 * Rules that match file paths only are left out: redaction sees text, not files.
 */
import data from './rules/gitleaks.json' with { type: 'json' };
import { compileRe2, RegexTranslationError } from './re2-to-js';
import { distinctivePrefix, isFixedShape, secretPart } from './rule-prefix';

export interface Allowlist {
  readonly regexes: readonly RegExp[];
  target: 'secret' | 'match' | 'line';
  stopwords: readonly string[];
  /** "AND": every kind listed must excuse; otherwise any one does. */
  all: boolean;
}

export interface Rule {
  id: string;
  /** Global with indices, so the secret group's place is known. */
  readonly regex: RegExp;
  /** Lower case; the rule runs only on text containing one of them (none: always). */
  keywords: readonly string[];
  entropy: number;
  secretGroup: number;
  allowlists: readonly Allowlist[];
  /**
   * For rules of gitleaks' "semi-generic" form (`[\w.-]{0,50}?(?:keyword)…`): the same regex,
   * sticky. Such a match starts at most 50 word characters before its keyword, so it can be
   * tried there alone instead of at every place of every line.
   */
  readonly sticky?: RegExp | undefined;
  /** Whether the rule is of that form (known without compiling `sticky`). */
  semiGeneric: boolean;
  /** The provider prefix the secret begins with, when it has a distinctive one (rule-prefix.ts). */
  prefix?: string;
}

/** How gitleaks' GenerateSemiGenericRegex begins every rule it makes. */
const SEMI_GENERIC_PREFIX = '(?i)[\\w.-]{0,50}?(?:';
/** gitleaks' assignment operators and the quotes before a value, from GenerateSemiGenericRegex. */
const ASSIGNED = String.raw`(?:=|>|:{1,3}=|\|\||:|=>|\?=|,)[\x60'"\s=]{0,5}`;
/** How far before its keyword such a match may start. */
export const SEMI_GENERIC_REACH = 50;

interface RawAllowlist {
  regexes?: string[];
  regexTarget?: string;
  stopwords?: string[];
  condition?: string;
  paths?: string[];
}

interface RawRule {
  id: string;
  regex?: string;
  path?: string;
  keywords?: string[];
  entropy?: number;
  secretGroup?: number;
  allowlists?: RawAllowlist[];
}

/** Shannon entropy in bits per character, as gitleaks computes it. */
export function shannonEntropy(text: string): number {
  if (text === '') return 0;
  const counts = new Map<string, number>();
  for (const char of text) counts.set(char, (counts.get(char) ?? 0) + 1);
  let entropy = 0;
  for (const count of counts.values()) {
    const share = count / text.length;
    entropy -= share * Math.log2(share);
  }
  return entropy;
}

/**
 * Translating 300 RE2 sources took most of a start (50 ms on a quiet machine, for rules most
 * sessions never wake): a rule's regexes and its allowlists' are translated the first time they
 * are asked for, which is the first time one of its keywords appears.
 */
class LazyRegexes {
  private compiled: RegExp[] | undefined;

  constructor(private readonly sources: readonly string[]) {}

  get regexes(): readonly RegExp[] {
    return (this.compiled ??= this.sources.map((source) => compileRe2(source)));
  }
}

function compileAllowlist(raw: RawAllowlist): Allowlist | undefined {
  // A list that only names paths or commits cannot excuse text.
  if (!raw.regexes?.length && !raw.stopwords?.length) return undefined;
  if (raw.condition === 'AND' && raw.paths?.length) return undefined;
  const target = raw.regexTarget === 'match' || raw.regexTarget === 'line' ? raw.regexTarget : 'secret';
  const lazy = new LazyRegexes(raw.regexes ?? []);
  return {
    get regexes() {
      return lazy.regexes;
    },
    target,
    stopwords: (raw.stopwords ?? []).map((word) => word.toLowerCase()),
    all: raw.condition === 'AND',
  };
}

/** A rule whose regexes are translated when first asked for (see LazyRegexes). */
class GitleaksRule implements Rule {
  private compiled: RegExp | undefined;
  private compiledSticky: RegExp | undefined;
  readonly prefix?: string;

  constructor(
    readonly id: string,
    private readonly source: string,
    readonly keywords: readonly string[],
    readonly entropy: number,
    readonly secretGroup: number,
    readonly allowlists: readonly Allowlist[],
    readonly semiGeneric: boolean,
    prefix?: string,
  ) {
    if (prefix) this.prefix = prefix;
  }

  get regex(): RegExp {
    return (this.compiled ??= compileRe2(this.source, 'gd'));
  }

  get sticky(): RegExp | undefined {
    return this.semiGeneric ? (this.compiledSticky ??= compileRe2(this.source, 'yd')) : undefined;
  }
}

export interface LoadOptions {
  /**
   * Translate each rule's regexes when first used rather than now: what redaction does. A rule
   * that cannot be translated then throws there instead of being listed in `skipped`, so the
   * vendored set is checked eagerly by its tests.
   */
  lazy?: boolean;
}

export interface Candidate {
  secret: string;
  match: string;
  line: string;
}

export function allowed(candidate: Candidate, lists: readonly Allowlist[]): boolean {
  for (const list of lists) {
    const target = list.target === 'match' ? candidate.match : list.target === 'line' ? candidate.line : candidate.secret;
    const checks: boolean[] = [];
    if (list.regexes.length > 0) checks.push(list.regexes.some((regex) => regex.test(target)));
    if (list.stopwords.length > 0) {
      const lower = candidate.secret.toLowerCase();
      checks.push(list.stopwords.some((word) => lower.includes(word)));
    }
    if (list.all ? checks.every(Boolean) : checks.some(Boolean)) return true;
  }
  return false;
}

export interface LoadedRules {
  rules: Rule[];
  global: Allowlist[];
  /** Rules whose regex could not be translated, by id, with why. */
  skipped: { id: string; reason: string }[];
  version: string;
}

export function loadGitleaksRules(options: LoadOptions = {}): LoadedRules {
  const raw = data as unknown as { version: string; allowlist: RawAllowlist; rules: RawRule[] };
  const rules: Rule[] = [];
  const skipped: LoadedRules['skipped'] = [];
  for (const rule of raw.rules) {
    if (!rule.regex || rule.path) continue;
    const made: Rule[] = [];
    try {
      const part = secretPart(rule.regex, rule.secretGroup ?? 0);
      const prefix = distinctivePrefix(part ? part.group : rule.regex);
      const semiGeneric = rule.regex.startsWith(SEMI_GENERIC_PREFIX) && (rule.keywords?.length ?? 0) > 0;
      const allowlists = (rule.allowlists ?? []).map(compileAllowlist).filter((list): list is Allowlist => list !== undefined);
      const fixedShape = semiGeneric && part !== undefined && isFixedShape(part.group);
      const keywords = (rule.keywords ?? []).map((word) => word.toLowerCase());
      // A provider's prefix, or its name before a value of its exact shape, is context enough:
      // a low-entropy body is a test key, still a key.
      made.push(new GitleaksRule(rule.id, rule.regex, keywords, prefix || fixedShape ? 0 : (rule.entropy ?? 0), rule.secretGroup ?? 0, allowlists, semiGeneric, prefix));
      // The prefixed secret alone, wherever it is assigned: `NR_TOKEN=NRJS-…` names no `new_relic`.
      if (semiGeneric && part && prefix) {
        made.push(new GitleaksRule(rule.id, `${part.flags}\\b(${part.group})${part.after}`, [prefix.toLowerCase()], 0, 1, allowlists, false));
      }
      // The provider's name as the context of a value of its exact shape assigned to any name on
      // the lines after: a section header (`[linkedin]` / `token = …`), the name field of a
      // name/value pair (`<add key="linkedinToken" value="…"/>`).
      if (fixedShape && part && !prefix) {
        made.push(new GitleaksRule(rule.id, `${part.flags}${ASSIGNED}(${part.group})${part.after}`, keywords, 0, 1, allowlists, false));
      }
      if (!options.lazy) made.forEach(translated);
      rules.push(...made);
    } catch (error) {
      if (!(error instanceof RegexTranslationError) && !(error instanceof SyntaxError)) throw error;
      skipped.push({ id: rule.id, reason: error.message });
    }
  }
  const global = [compileAllowlist(raw.allowlist)].filter((list): list is Allowlist => list !== undefined);
  if (!options.lazy) global.flatMap((list) => list.regexes);
  return { rules, global, skipped, version: raw.version };
}

/** Every regex a rule holds, translated now: a source that cannot be translated throws here. */
function translated(rule: Rule): RegExp[] {
  return [rule.regex, ...(rule.sticky ? [rule.sticky] : []), ...rule.allowlists.flatMap((list) => list.regexes)];
}
