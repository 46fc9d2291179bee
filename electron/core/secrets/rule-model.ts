/**
 * What a gitleaks rule is once loaded, and how its candidates are judged (entropy, allowlists).
 * Kept apart from the loaders so that redaction's own modules load neither gitleaks' raw rule
 * data (gitleaks-rules.ts, which tests and the generator read) nor the translator.
 */

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

export interface LoadedRules {
  rules: Rule[];
  global: Allowlist[];
  /** Rules whose regex could not be translated, by id, with why. */
  skipped: { id: string; reason: string }[];
  version: string;
}

/** How far before its keyword a semi-generic match may start. */
export const SEMI_GENERIC_REACH = 50;

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

/** Letters and digits both: a value mixed the way generated keys are. */
export const hasLetterAndDigit = (value: string): boolean => /\d/.test(value) && /[A-Za-z]/.test(value);

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

/** The bytes (as Latin-1 text) that base64 `text` holds, its padding optional; undefined when it is not base64. */
export function decodeBase64(text: string): string | undefined {
  try {
    return atob(text.length % 4 === 0 ? text : text + '='.repeat(4 - (text.length % 4)));
  } catch {
    return undefined;
  }
}
