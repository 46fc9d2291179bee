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
export class OperatorAfter {
  private readonly between = new Uint8Array(128);
  private readonly operators = new Uint8Array(128);

  constructor(between: RegExp, operators: RegExp) {
    for (let code = 0; code < 128; code++) {
      const char = String.fromCharCode(code);
      this.between[code] = between.test(char) ? 1 : 0;
      this.operators[code] = operators.test(char) ? 1 : 0;
    }
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

  /** Whether the character at `index` may begin an operator. */
  operatorAt(text: string, index: number): boolean {
    if (index >= text.length) return false;
    const code = text.charCodeAt(index);
    return code >= 128 || this.operators[code] === 1;
  }
}

/** gitleaks' semi-generic rules: `[ \t\w.-]{0,20}[\s'"]{0,3}` after the keyword, then `=`, `>`, `:`, `||`, `?=` or `,`. */
export const semiGenericOperator = () => new OperatorAfter(/[\w.\- \t\s'"]/, /[=>:|?,]/);
