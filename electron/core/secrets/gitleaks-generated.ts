/**
 * gitleaks' rules as redaction loads them: worked out at build time (gitleaks-plan.ts, written to
 * rules/gitleaks.generated.json by scripts/generate-secret-rules.mjs) into JavaScript sources,
 * keywords, prefixes, and the keyword automaton of the default detector set. A start only makes
 * the rule objects; each regex is compiled the first time its rule is woken.
 */
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { KeywordScanner } from './keyword-scan';
import { loadTables, type SavedScanner } from './keyword-tables';
import type { Allowlist, LoadedRules, Rule } from './rule-model';

export interface PlannedAllowlist {
  /** JavaScript sources, compiled without flags. */
  regexes: string[];
  target: Allowlist['target'];
  stopwords: string[];
  all: boolean;
}

export interface PlannedRule {
  id: string;
  /** The JavaScript source, compiled with `gd` (and `yd` when semi-generic). */
  source: string;
  keywords: string[];
  entropy: number;
  secretGroup: number;
  /** Indexes in the plan's allowlists. */
  allowlists: number[];
  semiGeneric: boolean;
  prefix?: string;
  /**
   * Compiled with `i` too: a pattern case-insensitive throughout (most of Kingfisher's) keeps its
   * letters as written instead of `[aA]` for each, a third of the size of the file to parse.
   */
  ignoreCase?: boolean;
}

export interface RulePlan {
  version: string;
  rules: PlannedRule[];
  allowlists: PlannedAllowlist[];
  /** Indexes in `allowlists` of the global ones. */
  global: number[];
  skipped: { id: string; reason: string }[];
}

/**
 * A rule as the generated file holds it: a row, not an object, since the keys of 330 objects were
 * a third of the file, and the file's size is most of what loading it costs.
 */
export type RuleRow = [id: string, source: string, keywords: string[], entropy: number, secretGroup: number, allowlists: number[], semiGeneric: 0 | 1, prefix: string, ignoreCase?: 1];

export function rowOfRule(rule: PlannedRule): RuleRow {
  const row: RuleRow = [rule.id, rule.source, rule.keywords, rule.entropy, rule.secretGroup, rule.allowlists, rule.semiGeneric ? 1 : 0, rule.prefix ?? ''];
  // Only rules compiled with `i` carry the ninth field: gitleaks' rows stay as they were.
  if (rule.ignoreCase) row.push(1);
  return row;
}

export interface GeneratedRules extends Omit<RulePlan, 'rules'> {
  note: string;
  rules: RuleRow[];
  scanner: SavedScanner;
}

/** A regex list compiled the first time it is asked for: most rules are never woken. */
class LazyAllowlist implements Allowlist {
  private compiled: RegExp[] | undefined;
  readonly target: Allowlist['target'];
  readonly stopwords: readonly string[];
  readonly all: boolean;

  constructor(private readonly planned: PlannedAllowlist) {
    ({ target: this.target, stopwords: this.stopwords, all: this.all } = planned);
  }

  get regexes(): readonly RegExp[] {
    return (this.compiled ??= this.planned.regexes.map((source) => new RegExp(source)));
  }
}

/** A rule whose regexes are compiled the first time they are asked for. */
class LazyRule implements Rule {
  private compiled: RegExp | undefined;
  private compiledSticky: RegExp | undefined;
  readonly id: string;
  private readonly source: string;
  readonly keywords: readonly string[];
  readonly entropy: number;
  readonly secretGroup: number;
  readonly semiGeneric: boolean;
  readonly prefix?: string;
  private readonly flags: string;

  /** Made from the file's row itself: a start makes 330 of these and should leave little garbage. */
  constructor(
    row: RuleRow,
    readonly allowlists: readonly Allowlist[],
  ) {
    [this.id, this.source, this.keywords, this.entropy, this.secretGroup] = row;
    this.semiGeneric = row[6] === 1;
    if (row[7]) this.prefix = row[7];
    this.flags = row[8] === 1 ? 'i' : '';
  }

  get regex(): RegExp {
    return (this.compiled ??= new RegExp(this.source, `gd${this.flags}`));
  }

  get sticky(): RegExp | undefined {
    return this.semiGeneric ? (this.compiledSticky ??= new RegExp(this.source, `yd${this.flags}`)) : undefined;
  }
}

const NO_ALLOWLISTS: readonly Allowlist[] = Object.freeze([]);

/** Rules compiled as they are used; rules sharing an allowlist share its regexes. */
function rulesOfRows(plan: Omit<RulePlan, 'rules'>, rows: readonly RuleRow[]): LoadedRules {
  const lists = plan.allowlists.map((list) => new LazyAllowlist(list));
  const pick = (indexes: readonly number[]) => (indexes.length === 0 ? NO_ALLOWLISTS : indexes.map((index) => lists[index]!));
  return {
    rules: rows.map((row) => new LazyRule(row, pick(row[5]))),
    global: [...pick(plan.global)],
    skipped: plan.skipped,
    version: plan.version,
  };
}

/** The rules of a plan, compiled as they are used (the eager load compiles them at once). */
export function rulesOfPlan(plan: RulePlan): LoadedRules {
  return rulesOfRows(plan, plan.rules.map(rowOfRule));
}

/** Beside this module: in the source tree, and beside the bundles in dist/ (scripts/build.mjs copies it there). */
export const GENERATED_RULES_FILE = 'rules/gitleaks.generated.json';

let data: GeneratedRules | undefined;

/**
 * The file is read and parsed here, when the first secret set with gitleaks' rules is made, not
 * imported as a module: JSON.parse takes about 1 ms for its 90 KB, where a bundle's JS literal of
 * the same data took 3 ms to parse and tsx's JSON module (transform, source map) 5–8 ms, and a set
 * of Cove's patterns alone never reads it.
 */
function generatedData(): GeneratedRules {
  if (!data) {
    const url = new URL(`./${GENERATED_RULES_FILE}`, import.meta.url);
    let text: string;
    try {
      text = readFileSync(url, 'utf8');
    } catch (error) {
      throw new Error(`gitleaks' generated rules could not be read from ${fileURLToPath(url)} (${(error as Error).message}); a bundle needs them beside it: \`npm run build\` copies them`);
    }
    data = JSON.parse(text) as GeneratedRules;
  }
  return data;
}

/** The vendored rules as generated. */
export function generatedRules(): LoadedRules {
  const generated = generatedData();
  return rulesOfRows(generated, generated.rules);
}

/**
 * The scanner saved for `keywords`, or undefined when it was saved for others (a caller's own
 * pattern list, or patterns changed since the file was generated): those are built at run time.
 */
export function prebuiltScanner(keywords: readonly string[]): KeywordScanner | undefined {
  const { scanner } = generatedData();
  if (scanner.keywords.length !== keywords.length || scanner.keywords.some((keyword, index) => keyword !== keywords[index])) return undefined;
  return new KeywordScanner(keywords, loadTables(scanner));
}
