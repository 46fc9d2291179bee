/**
 * MongoDB Kingfisher's rules (rules/kingfisher.json, Apache-2.0, refreshed by
 * scripts/refresh-kingfisher-rules.mjs) worked out into the rules Cove redacts with, beside
 * gitleaks' (gitleaks-plan.ts) and by the same machinery. A Kingfisher rule is a Rust regex,
 * mostly in verbose mode; its secret is its first capture group, more random than its
 * `min_entropy`. Like gitleaks' rules, this runs at build time only (generate-rules.ts).
 *
 * Kingfisher names no keywords: a rule's are the literals every match of its pattern begins with
 * (the provider's name in `adobe(?:.|[\n\r]){0,32}?…`, the prefix `aio_` in `\b(aio_[…]{28})`),
 * or, where those are words of ordinary output (`https://hooks.slack.com/…`), a word inside it.
 * A rule with no such literal is skipped, not run on every text: 700 rules woken by nothing but
 * would each be a full pass over every output, and gitleaks' and Cove's rules already cover the
 * unprefixed shapes (JWTs, URLs with passwords, private keys) such rules are for.
 */
import data from './rules/kingfisher.json' with { type: 'json' };
import type { PlannedAllowlist, PlannedRule } from './gitleaks-generated';
import { re2ToJs, RegexTranslationError } from './re2-to-js';
import { distinctivePrefix, leadingLiterals, requiredLiterals, secretPart } from './rule-prefix';
import { rustToRe2 } from './rust-regex';

export interface KingfisherRule {
  id: string;
  name: string;
  pattern: string;
  min_entropy?: number;
  examples: string[];
  negative_examples?: string[];
}

export const kingfisherData = data as { repo: string; commit: string; safe_list: string[]; rules: KingfisherRule[] };

/**
 * A value that is a template's blank, not a secret: `<YOUR_ACCOUNT_NAME>`, `[Shared Access Key
 * Name goes here]`. Cove's addition to Kingfisher's safe list, for rules whose value is
 * anything up to a delimiter (Azure's `AccountName=…;`).
 */
const PLACEHOLDERS = ['^<[^<>]*>$', '^\\[[^\\[\\]]*\\]$'];

/** A URL's user and password (`mongodb://user:pass@host`), what every example of a URL-credential rule holds. */
const URL_CREDENTIALS = /[a-z][\w+.-]*:\/\/[^\s/@:]*:[^\s@]*@/i;

/**
 * Kingfisher's generic rules (any `password = …` after a `user`, any `secret: …`) are left out:
 * Cove's own assignment patterns and gitleaks' generic rule judge those, with the placeholder
 * and look-alike checks they have (Kingfisher's redacted `Password=#{password}` in its own
 * negative examples), and the words they wake on are in most outputs.
 */
const GENERIC = /^kingfisher\.generic\./;

/** The marker name of a rule: `kingfisher.adobe.1` is shown as `[REDACTED:kingfisher-adobe-1]`. */
export const kingfisherLabel = (id: string): string =>
  id
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-|-$/g, '');

/** The RE2 source of a rule's pattern, leading flags after the word boundaries that usually precede them. */
export function kingfisherSource(rule: Pick<KingfisherRule, 'pattern'>): string {
  return rustToRe2(rule.pattern);
}

/** A keyword shorter than this (`sk`, `ey`) would wake its rule on most outputs. */
const MIN_KEYWORD = 3;
/** The shortest word inside a match that may stand for the rule (`slack`, `blynk`, `tines`). */
const MIN_INNER_KEYWORD = 4;

/**
 * Words on most lines of ordinary output: a URL's scheme, and the generic words of credentials
 * and logins (Cove's own `name = value` patterns and gitleaks' generic rule judge those). As a
 * rule's keyword each one woke it on most lines: `https`, the only literal that begins eleven
 * webhook rules, woke all eleven a thousand times a megabyte of command output, and `user`,
 * `access` and `client` as many. Such a rule is woken by a word inside its match instead
 * (`hooks.slack.com` by `slack`), or, with none, left to the generic rules.
 */
const ORDINARY_WORDS = new Set(['http', 'https', 'user', 'userid', 'uid', 'client', 'access', 'authorization', 'token', 'secret', 'key', 'api', 'password', 'pwd', 'pass', 'auth', 'id']);

const wordsOf = (literal: string): string[] =>
  literal
    .toLowerCase()
    .split(/[^a-z0-9]+/)
    .filter((word) => word !== '');
const isOrdinary = (literal: string): boolean => wordsOf(literal).every((word) => ORDINARY_WORDS.has(word));

/** A host name's provider: the label before its last one (`slack` in `hooks.slack.com/`, `azconfig` in `.azconfig.io;`). */
const PROVIDER_HOST = /([a-z0-9-]{3,})\.[a-z]{2,6}(?![a-z0-9.-])/;

/**
 * The word inside every match that stands for the rule: the provider named by a host in it, or
 * else the first word that is not an ordinary one.
 */
function innerKeyword(body: string): string | undefined {
  const literals = requiredLiterals(body).map((literal) => literal.toLowerCase());
  for (const literal of literals) {
    const host = PROVIDER_HOST.exec(literal)?.[1];
    if (host && !isOrdinary(host)) return host;
  }
  return literals.flatMap(wordsOf).find((word) => word.length >= MIN_INNER_KEYWORD && !ORDINARY_WORDS.has(word));
}

/**
 * The lower-case literals one of which is in every match, or why there are none: the literals
 * it begins with, whole (cut to six letters, `requestfinance` woke on every `request` and
 * `currencyfreaks` on every `current`), or a word inside it when those are ordinary words.
 */
function keywordsOf(source: string): string[] | string {
  const body = source.replace(/^(?:\(\?[a-z]+\))+/, '');
  const literals = leadingLiterals(body);
  if (literals.some((literal) => literal.length < MIN_KEYWORD)) return 'no literal of three characters or more begins every match';
  if (!literals.some(isOrdinary)) return [...new Set(literals.map((literal) => literal.toLowerCase()))];
  const inner = innerKeyword(body);
  return inner ? [inner] : 'every word each match must hold is an ordinary one (a generic rule: the generic rules judge those)';
}

export interface KingfisherPlan {
  rules: PlannedRule[];
  /** Kingfisher's safe list and Cove's placeholders; every rule's `allowlists` index them. */
  allowlists: PlannedAllowlist[];
  skipped: { id: string; reason: string }[];
}

export function planKingfisherRules(): KingfisherPlan {
  const rules: PlannedRule[] = [];
  const skipped: KingfisherPlan['skipped'] = [];
  // Kingfisher judges every secret by its safe list; a list that does not translate is not loaded.
  const allowlists: PlannedAllowlist[] = [
    { regexes: kingfisherData.safe_list.map((source) => checked(re2ToJs(source), '')), target: 'secret', stopwords: [], all: false },
    { regexes: PLACEHOLDERS, target: 'secret', stopwords: [], all: false },
  ];
  for (const rule of kingfisherData.rules) {
    if (GENERIC.test(rule.id)) {
      skipped.push({ id: rule.id, reason: "a generic assignment rule: Cove's own patterns and gitleaks' generic rule cover those" });
      continue;
    }
    // Cove's url-password pattern judges these, with its placeholders (`user:password@`, `$password`).
    if (rule.examples.length > 0 && rule.examples.every((example) => URL_CREDENTIALS.test(example))) {
      skipped.push({ id: rule.id, reason: "a URL's user and password: Cove's url-password pattern covers those" });
      continue;
    }
    try {
      const source = kingfisherSource(rule);
      const keywords = keywordsOf(source);
      if (typeof keywords === 'string') {
        skipped.push({ id: rule.id, reason: keywords });
        continue;
      }
      // Case-insensitive throughout: translated without it and compiled with `i` (see PlannedRule.ignoreCase).
      const ignoreCase = source.startsWith('(?i)') && !source.includes('(?-');
      const js = checked(re2ToJs(ignoreCase ? source.slice(4) : source), ignoreCase ? 'gdi' : 'gd');
      const part = secretPart(source, 0);
      const own = [0, 1];
      const caseKept = prefixCaseAllowlist(source);
      if (caseKept) own.push(allowlists.push(caseKept) - 1);
      // As with gitleaks' rules: a provider's own prefix says "credential" whatever the entropy.
      const prefix = distinctivePrefix(part ? part.group : source);
      rules.push({
        id: kingfisherLabel(rule.id),
        source: js,
        keywords,
        entropy: prefix ? 0 : (rule.min_entropy ?? 0),
        // Kingfisher's secret is the first capture group; 0 is the first that matched.
        secretGroup: 0,
        allowlists: own,
        semiGeneric: false,
        ...(prefix ? { prefix } : {}),
        ...(ignoreCase ? { ignoreCase } : {}),
      });
    } catch (error) {
      if (!(error instanceof RegexTranslationError) && !(error instanceof SyntaxError)) throw error;
      skipped.push({ id: rule.id, reason: error.message });
    }
  }
  return { rules, allowlists, skipped };
}

/**
 * A provider's prefix keeps the case its rule writes it in, in a rule otherwise blind to case
 * (`(?i)…(hf_[a-zA-Z]{34})`): tokens are issued with it (`hf_`, `ghp_`, `CCIPAT_`), and the other
 * case is a constant's or a placeholder's (`HF_CAASIMULIAComputeServices…`, `GHP_THISIS…`).
 * Where every capture group of such a rule begins with a literal that holds a separator, the
 * secrets that begin with none of them as written are excused: an allowlist, compiled without
 * `i` (the rule keeps its `i`, and with it the short source PlannedRule.ignoreCase is for).
 */
export function prefixCaseAllowlist(source: string): PlannedAllowlist | undefined {
  if (!source.startsWith('(?i)')) return undefined;
  const groups = [...source.matchAll(/(?<!\\)\((?!\?)/g)].map((group) => group.index + 1);
  const prefixes = groups.map((at) => PREFIX_LITERAL.exec(source.slice(at))?.[0]);
  if (prefixes.length === 0 || prefixes.some((prefix) => prefix === undefined)) return undefined;
  return { regexes: [`^(?!${[...new Set(prefixes)].join('|')})`], target: 'secret', stopwords: [], all: false };
}

/**
 * Letters, digits, separators and alternations of words that begin a group, ending in a separator
 * (`hf_`, `api_org_`, `v1\.`, `(?:ghp|gho|github_pat)_`), with a letter before it.
 */
const PREFIX_LITERAL = /^(?=[(?:|\w\\.-]*[A-Za-z])(?:[A-Za-z0-9_]|\\[-.]|\(\?:[A-Za-z0-9_]+(?:\|[A-Za-z0-9_]+)*\))*(?:_|\\[-.])/;

/** The source, once it is known to compile with `flags`. */
function checked(source: string, flags: string): string {
  new RegExp(source, flags);
  return source;
}
