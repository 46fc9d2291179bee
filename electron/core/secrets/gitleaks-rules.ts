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
  regexes: readonly RegExp[];
  target: 'secret' | 'match' | 'line';
  stopwords: readonly string[];
  /** "AND": every kind listed must excuse; otherwise any one does. */
  all: boolean;
}

export interface Rule {
  id: string;
  /** Global with indices, so the secret group's place is known. */
  regex: RegExp;
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
  sticky?: RegExp;
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

function compileAllowlist(raw: RawAllowlist): Allowlist | undefined {
  // A list that only names paths or commits cannot excuse text.
  if (!raw.regexes?.length && !raw.stopwords?.length) return undefined;
  if (raw.condition === 'AND' && raw.paths?.length) return undefined;
  const target = raw.regexTarget === 'match' || raw.regexTarget === 'line' ? raw.regexTarget : 'secret';
  return {
    regexes: (raw.regexes ?? []).map((source) => compileRe2(source)),
    target,
    stopwords: (raw.stopwords ?? []).map((word) => word.toLowerCase()),
    all: raw.condition === 'AND',
  };
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

export function loadGitleaksRules(): LoadedRules {
  const raw = data as unknown as { version: string; allowlist: RawAllowlist; rules: RawRule[] };
  const rules: Rule[] = [];
  const skipped: LoadedRules['skipped'] = [];
  for (const rule of raw.rules) {
    if (!rule.regex || rule.path) continue;
    try {
      const part = secretPart(rule.regex, rule.secretGroup ?? 0);
      const prefix = distinctivePrefix(part ? part.group : rule.regex);
      const semiGeneric = rule.regex.startsWith(SEMI_GENERIC_PREFIX) && (rule.keywords?.length ?? 0) > 0;
      const allowlists = (rule.allowlists ?? []).map(compileAllowlist).filter((list): list is Allowlist => list !== undefined);
      const fixedShape = semiGeneric && part !== undefined && isFixedShape(part.group);
      rules.push({
        id: rule.id,
        regex: compileRe2(rule.regex, 'gd'),
        keywords: (rule.keywords ?? []).map((word) => word.toLowerCase()),
        // A provider's prefix, or its name before a value of its exact shape, is context enough:
        // a low-entropy body is a test key, still a key.
        entropy: prefix || fixedShape ? 0 : (rule.entropy ?? 0),
        secretGroup: rule.secretGroup ?? 0,
        allowlists,
        ...(semiGeneric ? { sticky: compileRe2(rule.regex, 'yd') } : {}),
        ...(prefix ? { prefix } : {}),
      });
      // The prefixed secret alone, wherever it is assigned: `NR_TOKEN=NRJS-…` names no `new_relic`.
      if (semiGeneric && part && prefix) {
        rules.push({ id: rule.id, regex: compileRe2(`${part.flags}\\b(${part.group})${part.after}`, 'gd'), keywords: [prefix.toLowerCase()], entropy: 0, secretGroup: 1, allowlists });
      }
      // The provider's name as the context of a value of its exact shape assigned to any name on
      // the lines after: a section header (`[linkedin]` / `token = …`), the name field of a
      // name/value pair (`<add key="linkedinToken" value="…"/>`).
      if (fixedShape && part && !prefix) {
        rules.push({
          id: rule.id,
          regex: compileRe2(`${part.flags}${ASSIGNED}(${part.group})${part.after}`, 'gd'),
          keywords: (rule.keywords ?? []).map((word) => word.toLowerCase()),
          entropy: 0,
          secretGroup: 1,
          allowlists,
        });
      }
    } catch (error) {
      if (!(error instanceof RegexTranslationError) && !(error instanceof SyntaxError)) throw error;
      skipped.push({ id: rule.id, reason: error.message });
    }
  }
  const global = [compileAllowlist(raw.allowlist)].filter((list): list is Allowlist => list !== undefined);
  return { rules, global, skipped, version: raw.version };
}
