/**
 * The text of rules/gitleaks.generated.json: gitleaks' and Kingfisher's rules worked out
 * (gitleaks-plan.ts, kingfisher-plan.ts) and the
 * keyword automaton of the default detector set (Cove's built-in patterns and those rules), so a
 * start of redaction neither translates 300 regexes nor builds a 1,500-state automaton.
 * `scripts/generate-secret-rules.mjs` writes it; a test checks the committed file is what this
 * makes, so it cannot go stale when the rules, the patterns or the code that reads them change.
 */
import { keywordList } from './detector-keywords';
import { rowOfRule, type GeneratedRules } from './gitleaks-generated';
import { planDefaultRules } from './default-plan';
import { kingfisherData } from './kingfisher-plan';
import { KeywordScanner } from './keyword-scan';
import { saveTables } from './keyword-tables';
import { BUILT_IN_PATTERNS } from './patterns';

export const GENERATED_RULES_PATH = 'electron/core/secrets/rules/gitleaks.generated.json';
export const GENERATE_COMMAND = 'node --import tsx scripts/generate-secret-rules.mjs';

export function generatedRulesText(): string {
  const plan = planDefaultRules();
  // The detectors' keyword sets in detectorIndex's order: Cove's patterns, then the rules.
  const keyed = [...BUILT_IN_PATTERNS.map((pattern) => ({ keywords: pattern.hints ?? [] })), ...plan.rules].filter((set) => set.keywords.length > 0);
  const scanner = saveTables(new KeywordScanner(keywordList(keyed).keywords).tables());
  const data: GeneratedRules = {
    note: `Generated from gitleaks.json, kingfisher.json (${kingfisherData.repo} ${kingfisherData.commit}) and patterns.ts by \`${GENERATE_COMMAND}\`; do not edit.`,
    ...plan,
    rules: plan.rules.map(rowOfRule),
    scanner,
  };
  // Compact (whitespace is parsed too), but a key, a rule or an allowlist to a line, for diffs.
  const fields = Object.entries(data).map(([key, value]) => {
    const text = Array.isArray(value) && value.length > 0 ? `[\n${value.map((item) => JSON.stringify(item)).join(',\n')}\n]` : JSON.stringify(value);
    return `${JSON.stringify(key)}: ${text}`;
  });
  return `{\n${fields.join(',\n')}\n}\n`;
}
