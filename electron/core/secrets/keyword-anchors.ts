/**
 * Cheap ways to try a rule only where its keyword can start a match, instead of running its regex
 * over the lines around every keyword: in a command's output, words like `token`, `key` and `ey`
 * occur on nearly every line, and most of redaction's time went into those windows.
 */
import { leadingLiterals } from './rule-prefix';

/**
 * Whether every match of `source` begins with one of `keywords` (lower case): then the rule needs
 * one sticky try at each place a keyword starts (`\bey…` for JWTs, `\b(?:AKIA|ASIA)…`, `SK…`).
 */
export function startsAtKeyword(source: string, keywords: readonly string[]): boolean {
  const literals = leadingLiterals(source);
  return literals.length > 0 && literals.every((literal) => literal !== '' && keywords.some((keyword) => literal.toLowerCase().startsWith(keyword)));
}

/** One sticky try at each place (in increasing order), skipping places inside the last match. */
export function findAtPlaces(text: string, sticky: RegExp, places: readonly number[], judge: (match: RegExpExecArray) => void): void {
  let covered = -1;
  for (const place of places) {
    if (place < covered) continue;
    sticky.lastIndex = place;
    const match = sticky.exec(text);
    if (!match || match[0] === '') continue;
    covered = match.index + match[0].length;
    judge(match);
  }
}

/**
 * What may stand between a keyword and an assignment operator, and the operators' first
 * characters: a necessary condition of `name = value` rules, checked before their regex runs.
 * Characters above U+007F pass unchecked (`\s` has non-ASCII spaces).
 */
export interface ValueAfter {
  /** The rest of the operator and what may precede the value (quotes, blanks). */
  gap: RegExp;
  /** The characters a value may hold. */
  value: RegExp;
  /** The shortest value the rule accepts. */
  min: number;
  /** How many gap characters the rule allows at most; default: any number. */
  reach?: number;
}

function asciiTable(characters: RegExp): Uint8Array {
  return Uint8Array.from({ length: 128 }, (_, code) => (characters.test(String.fromCharCode(code)) ? 1 : 0));
}

/**
 * What may stand between a keyword and an assignment operator, the operators' first characters,
 * and the value after them: a necessary condition of `name = value` rules, checked before their
 * regex runs. Characters above U+007F pass unchecked (`\s` has non-ASCII spaces).
 */
export class OperatorAfter {
  private readonly between: Uint8Array;
  private readonly operators: Uint8Array;
  private readonly gap: Uint8Array | undefined;
  private readonly value: Uint8Array | undefined;
  private readonly min: number;
  private readonly reach: number;

  constructor(between: RegExp, operators: RegExp, value?: ValueAfter) {
    this.between = asciiTable(between);
    this.operators = asciiTable(operators);
    this.gap = value && asciiTable(value.gap);
    this.value = value && asciiTable(value.value);
    this.min = value?.min ?? 0;
    this.reach = value?.reach ?? Number.POSITIVE_INFINITY;
  }

  /** Where the run of characters that may stand between, from `place` on, ends. */
  runEnd(text: string, place: number): number {
    let index = place;
    for (; index < text.length; index++) {
      const code = text.charCodeAt(index);
      if (code >= 128 || this.between[code] === 0) break;
    }
    return index;
  }

  /** Whether an operator begins at `index`, followed by a value long enough. */
  operatorAt(text: string, index: number): boolean {
    if (index >= text.length) return false;
    const code = text.charCodeAt(index);
    if (code < 128 && this.operators[code] === 0) return false;
    const { gap, value, min, reach } = this;
    if (!gap || !value) return true;
    // A gap character the value may also hold (`=`) may be the value's first: it counts for both.
    let at = index + 1;
    let shared = 0;
    for (; at < text.length && at - index <= reach; at++) {
      const next = text.charCodeAt(at);
      if (next >= 128 || gap[next] === 0) break;
      shared = value[next] === 1 ? shared + 1 : 0;
    }
    let run = shared;
    for (; at < text.length && run < min; at++, run++) {
      const next = text.charCodeAt(at);
      if (next < 128 && value[next] === 0) break;
    }
    return run >= min;
  }
}

/**
 * gitleaks' semi-generic rules: `[ \t\w.-]{0,20}[\s'"]{0,3}` after the keyword, then `=`, `>`,
 * `:`, `||`, `?=` or `,` (the rest of `:::=` at most), up to five of `[\x60'"\s=]`, and a secret of at least 8 characters
 * from the classes their secret groups use.
 */
export const semiGenericOperator = () => new OperatorAfter(/[\w.\- \t\s'"]/, /[=>:|?,]/, { gap: /[=>:|?,\x60'"\s]/, value: /[A-Za-z0-9_.=+/:%~-]/, min: 8, reach: 12 });
