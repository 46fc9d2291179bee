/**
 * The keywords one scan looks for, in the order the scanner numbers them: every keyed detector's
 * (Cove's patterns first, then gitleaks' rules), each once, then the marker of an earlier
 * redaction. Apart from detectors.ts so that the build-time generator, which saves the scanner
 * for this list, does not load the rules it is generating.
 */

/**
 * What an earlier redaction left, looked for in the same pass as the keywords: a search of its
 * own over every megabyte of output that holds none cost a twentieth of redaction's time.
 */
export const REDACTED_MARKER = '[REDACTED:';

export interface KeywordList {
  /** Distinct keywords, REDACTED_MARKER (lower case) last. */
  keywords: string[];
  /** By keyword: the indexes of the keyword sets (detectors) it wakes. */
  wakes: number[][];
}

export function keywordList(keyed: readonly { readonly keywords: readonly string[] }[]): KeywordList {
  const byKeyword = new Map<string, number[]>();
  keyed.forEach((detector, number) => {
    for (const keyword of detector.keywords) {
      const wakes = byKeyword.get(keyword);
      if (!wakes) byKeyword.set(keyword, [number]);
      // A detector listing a keyword twice is woken once by it.
      else if (wakes.at(-1) !== number) wakes.push(number);
    }
  });
  const keywords = [...byKeyword.keys(), REDACTED_MARKER.toLowerCase()];
  return { keywords, wakes: keywords.map((keyword) => byKeyword.get(keyword) ?? []) };
}
