/**
 * gitleaks' default rules (rules/gitleaks.json, MIT, refreshed by
 * scripts/refresh-gitleaks-rules.mjs) worked out into the rules Cove redacts with: each regex
 * translated from RE2 to JavaScript, its provider prefix, its form, and the rules derived from
 * it. This runs at build time (scripts/generate-secret-rules.mjs writes the result to
 * rules/gitleaks.generated.json, which redaction loads) and in tests; a start of redaction
 * never reads the raw rules or runs the translator, which took a quarter of its time.
 *
 * The rules are judged the way gitleaks judges them: the secret is the rule's `secretGroup` or
 * its first non-empty group, it must be more random than the rule's entropy floor, and neither
 * the rule's allowlists nor the global one may excuse it. Rules that match file paths only are
 * left out: redaction sees text, not files.
 */
import data from './rules/gitleaks.json' with { type: 'json' };
import type { PlannedAllowlist, PlannedRule, RulePlan } from './gitleaks-generated';
import { re2ToJs, RegexTranslationError } from './re2-to-js';
import { distinctivePrefix, isFixedShape, secretPart } from './rule-prefix';

/**
 * How gitleaks' GenerateSemiGenericRegex begins every rule it makes: case-blind, or (asked to keep
 * the name's case) with a second name run inside `(?i:…)`. A rule of the second form run as a
 * plain regex over its keyword's lines tried both runs at every place of them: 0.4 ms a megabyte
 * of output for one `sumo` in a package name.
 */
const SEMI_GENERIC_PREFIXES = ['(?i)[\\w.-]{0,50}?(?:', '[\\w.-]{0,50}?(?i:[\\w.-]{0,50}?(?:'];
/** A semi-generic rule whose name keeps its case inside the rule's `(?i)`: `(?-i:` before its assignment operator. */
const keepsNameCase = (regex: string) => regex.slice(0, regex.indexOf('(?:=|>|')).includes('(?-i:');
/**
 * What a JWT's header begins with in base64url: `{"` (`eyI`…`eyL`) or `{ ` (`eyA`…`eyD`). gitleaks'
 * `jwt` rule is woken by `ey`, which is in `key` and `they`: about 2,000 times a megabyte of
 * command output, each a try of the rule on its lines.
 */
const JOSE_STARTS = ['eya', 'eyb', 'eyc', 'eyd', 'eyi', 'eyj', 'eyk', 'eyl'];

/** gitleaks' assignment operators and the quotes before a value, from GenerateSemiGenericRegex. */
const ASSIGNED = String.raw`(?:=|>|:{1,3}=|\|\||:|=>|\?=|,)[\x60'"\s=]{0,5}`;

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

/** The JS source of an RE2 one, checked by compiling it with every flag redaction uses it with. */
function translate(source: string, flags: readonly string[]): string {
  const js = re2ToJs(source);
  for (const flag of flags) new RegExp(js, flag);
  return js;
}

function planAllowlist(raw: RawAllowlist): PlannedAllowlist | undefined {
  // A list that only names paths or commits cannot excuse text.
  if (!raw.regexes?.length && !raw.stopwords?.length) return undefined;
  if (raw.condition === 'AND' && raw.paths?.length) return undefined;
  return {
    regexes: (raw.regexes ?? []).map((source) => translate(source, [''])),
    target: raw.regexTarget === 'match' || raw.regexTarget === 'line' ? raw.regexTarget : 'secret',
    stopwords: (raw.stopwords ?? []).map((word) => word.toLowerCase()),
    all: raw.condition === 'AND',
  };
}

/** One gitleaks rule as the rules Cove runs for it (one, two with a prefixed or fixed-shape secret). */
function planRule(rule: RawRule & { regex: string }, allowlists: number[]): PlannedRule[] {
  const part = secretPart(rule.regex, rule.secretGroup ?? 0);
  const prefix = distinctivePrefix(part ? part.group : rule.regex);
  const semiGeneric = SEMI_GENERIC_PREFIXES.some((start) => rule.regex.startsWith(start)) && (rule.keywords?.length ?? 0) > 0;
  // Only the case-blind form's exact shapes lower the entropy floor, as before the second form was
  // known for one (it was run as a plain regex and judged by its floor).
  const fixedShape = semiGeneric && rule.regex.startsWith(SEMI_GENERIC_PREFIXES[0]!) && part !== undefined && isFixedShape(part.group);
  const keywords = (rule.keywords ?? []).map((word) => word.toLowerCase()).flatMap((word) => (word === 'ey' ? JOSE_STARTS : [word]));
  const made = (source: string, words: string[], entropy: number, secretGroup: number, generic: boolean, withPrefix?: string): PlannedRule => ({
    id: rule.id,
    // Semi-generic rules also run sticky (see Rule.sticky).
    source: translate(source, generic ? ['gd', 'yd'] : ['gd']),
    keywords: words,
    entropy,
    secretGroup,
    allowlists,
    semiGeneric: generic,
    ...(withPrefix ? { prefix: withPrefix } : {}),
  });
  // A provider's prefix, or its name before a value of its exact shape, is context enough:
  // a low-entropy body is a test key, still a key.
  const out = [made(rule.regex, keywords, prefix || fixedShape ? 0 : (rule.entropy ?? 0), rule.secretGroup ?? 0, semiGeneric, prefix)];
  // The prefixed secret alone, wherever it is assigned: `NR_TOKEN=NRJS-…` names no `new_relic`.
  // It keeps the prefix: that is what excuses it from the global stopwords (detectors.ts).
  if (semiGeneric && part && prefix) out.push(made(`${part.flags}\\b(${part.group})${part.after}`, [prefix.toLowerCase()], 0, 1, false, prefix));
  // The provider's name as the context of a value of its exact shape assigned to any name on
  // the lines after: a section header (`[linkedin]` / `token = …`), the name field of a
  // name/value pair (`<add key="linkedinToken" value="…"/>`).
  // Not where the rule holds its name's case (`(?-i:ETSY|[Ee]tsy)`): the keyword scan is blind
  // to case, and camelCase code holds such names inside other words (`getSymbol`, `sumOf`),
  // each of which would make the next `"…": "<24 letters>"` a key.
  if (fixedShape && part && !prefix && !keepsNameCase(rule.regex)) out.push(made(`${part.flags}${ASSIGNED}(${part.group})${part.after}`, keywords, 0, 1, false));
  return out;
}

/** The rules worked out from the vendored set; a rule whose regexes do not translate is skipped, with why. */
export function planGitleaksRules(): RulePlan {
  const raw = data as unknown as { version: string; allowlist: RawAllowlist; rules: RawRule[] };
  const allowlists: PlannedAllowlist[] = [];
  const rules: PlannedRule[] = [];
  const skipped: RulePlan['skipped'] = [];
  for (const rule of raw.rules) {
    if (!rule.regex || rule.path) continue;
    try {
      const own = (rule.allowlists ?? []).map(planAllowlist).filter((list): list is PlannedAllowlist => list !== undefined);
      const planned = planRule(
        { ...rule, regex: rule.regex },
        own.map((_, index) => allowlists.length + index),
      );
      allowlists.push(...own);
      rules.push(...planned);
    } catch (error) {
      if (!(error instanceof RegexTranslationError) && !(error instanceof SyntaxError)) throw error;
      skipped.push({ id: rule.id, reason: error.message });
    }
  }
  // The global list is not caught: a set whose global allowlist does not translate is not loaded.
  const global = planAllowlist(raw.allowlist);
  if (global) allowlists.push(global);
  return { version: raw.version, rules, allowlists, global: global ? [allowlists.length - 1] : [], skipped };
}
