/**
 * gitleaks' default rules and Kingfisher's as Cove loads them (see gitleaks-plan.ts and
 * kingfisher-plan.ts for how they are worked out):
 * eagerly from the vendored set, translating every regex now, which is how tests check that a
 * refreshed set translates; or as redaction does, from the generated file, compiling each regex
 * when its rule is first woken.
 */
import { generatedRules, rulesOfPlan } from './gitleaks-generated';
import { planDefaultRules } from './default-plan';
import type { LoadedRules, Rule } from './rule-model';

export { allowed, SEMI_GENERIC_REACH, shannonEntropy, type Allowlist, type Candidate, type LoadedRules, type Rule } from './rule-model';

export interface LoadOptions {
  /**
   * Load the generated rules (rules/gitleaks.generated.json) and compile each rule's regexes when
   * first used: what redaction does. Otherwise the vendored set is worked out and compiled now.
   */
  lazy?: boolean;
}

export function loadGitleaksRules(options: LoadOptions = {}): LoadedRules {
  if (options.lazy) return generatedRules();
  const loaded = rulesOfPlan(planDefaultRules());
  loaded.rules.forEach(compiled);
  loaded.global.forEach((list) => list.regexes);
  return loaded;
}

/** Every regex a rule holds, compiled now. */
function compiled(rule: Rule): RegExp[] {
  return [rule.regex, ...(rule.sticky ? [rule.sticky] : []), ...rule.allowlists.flatMap((list) => list.regexes)];
}
