/**
 * The vendored rule sets Cove redacts with besides its own patterns, worked out together:
 * gitleaks' (gitleaks-plan.ts) then Kingfisher's (kingfisher-plan.ts). Where both find the same
 * secret, the span is named by the one that starts first (gitleaks' on a tie, coming first).
 * Build time and tests only: redaction reads the generated file.
 */
import type { RulePlan } from './gitleaks-generated';
import { planGitleaksRules } from './gitleaks-plan';
import { planKingfisherRules } from './kingfisher-plan';

export function planDefaultRules(): RulePlan {
  const gitleaks = planGitleaksRules();
  const kingfisher = planKingfisherRules();
  return { ...gitleaks, rules: [...gitleaks.rules, ...kingfisher.rules], skipped: [...gitleaks.skipped, ...kingfisher.skipped] };
}
