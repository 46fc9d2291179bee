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
  // Kingfisher's allowlists go after gitleaks' (whose global list's index stays), its rules' indexes shifted to match.
  const shift = gitleaks.allowlists.length;
  return {
    ...gitleaks,
    rules: [...gitleaks.rules, ...kingfisher.rules.map((rule) => ({ ...rule, allowlists: rule.allowlists.map((index) => index + shift) }))],
    allowlists: [...gitleaks.allowlists, ...kingfisher.allowlists],
    skipped: [...gitleaks.skipped, ...kingfisher.skipped],
  };
}
