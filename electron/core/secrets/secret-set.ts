/**
 * The session's secrets: known values (from secret files and the environment) and the built-in
 * patterns. `redact` replaces each with `[REDACTED:<kind>]`. Known values are found in one pass
 * of one regex (longest first, so a value containing another is replaced whole); patterns are
 * compiled once and skipped cheaply when their hint words are absent.
 */
import type { SecretRedactor } from '../agent/types';
import { BUILT_IN_PATTERNS, type SecretPattern } from './patterns';
import { scanWorkspaceSecrets, type SecretValue, type WorkspaceScanOptions } from './secret-files';

export type { SecretValue };

export interface SecretSetOptions {
  values?: Iterable<SecretValue>;
  /** Default: the built-in patterns. */
  patterns?: readonly SecretPattern[];
}

export interface FromWorkspaceOptions extends WorkspaceScanOptions {
  /** Default: the built-in patterns. */
  patterns?: readonly SecretPattern[];
}

/** Shorter values would redact ordinary words and numbers. */
export const MIN_SECRET_LENGTH = 6;

interface CompiledPattern extends SecretPattern {
  /** With indices (flag d) when only the `secret` group is replaced. */
  matcher: RegExp;
}

function escapeRegExp(value: string): string {
  return value.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}

function compile(pattern: SecretPattern): CompiledPattern {
  const flags = pattern.regex.flags.includes('g') ? pattern.regex.flags : `${pattern.regex.flags}g`;
  const needsIndices = pattern.regex.source.includes('(?<secret>') && !flags.includes('d');
  return { ...pattern, matcher: new RegExp(pattern.regex.source, needsIndices ? `${flags}d` : flags) };
}

function applyPattern(text: string, pattern: CompiledPattern): { text: string; count: number } {
  const { matcher } = pattern;
  matcher.lastIndex = 0;
  let out = '';
  let last = 0;
  let count = 0;
  for (let match = matcher.exec(text); match; match = matcher.exec(text)) {
    if (match[0] === '') {
      matcher.lastIndex++;
      continue;
    }
    const span = match.indices?.groups?.secret ?? [match.index, match.index + match[0].length];
    const secret = text.slice(span[0], span[1]);
    if (pattern.accept && !pattern.accept(secret)) continue;
    out += `${text.slice(last, span[0])}[REDACTED:${pattern.name}]`;
    last = span[1];
    count++;
  }
  return count === 0 ? { text, count } : { text: out + text.slice(last), count };
}

export class SecretSet implements SecretRedactor {
  private readonly values = new Map<string, string>();
  /** Rebuilt on the first redact after values change. */
  private literals: RegExp | null | undefined = null;
  private readonly patterns: readonly CompiledPattern[];
  /** Display paths of the secret files whose values were loaded. */
  readonly files: string[] = [];

  constructor(options: SecretSetOptions = {}) {
    this.patterns = (options.patterns ?? BUILT_IN_PATTERNS).map(compile);
    for (const { value, label } of options.values ?? []) this.add(value, label);
  }

  /**
   * Scans the workspace for secret files (`.env*`, key files, `extraGlobs`) and takes their
   * values, plus secret-looking variables of the environment.
   */
  static async fromWorkspace(roots: readonly string[], options: FromWorkspaceOptions = {}): Promise<SecretSet> {
    const found = await scanWorkspaceSecrets(roots, options);
    const set = new SecretSet({ values: found.values, ...(options.patterns ? { patterns: options.patterns } : {}) });
    set.files.push(...found.files);
    return set;
  }

  /** Adds a value to redact wherever it appears; false when it is too short to be told from ordinary text. */
  add(value: string, label = 'secret'): boolean {
    if (value.length < MIN_SECRET_LENGTH) return false;
    if (!this.values.has(value)) {
      this.values.set(value, label);
      this.literals = undefined;
    }
    return true;
  }

  get size(): number {
    return this.values.size;
  }

  has(value: string): boolean {
    return this.values.has(value);
  }

  redact(input: string): { text: string; count: number } {
    let text = input;
    let count = 0;
    const literals = this.literalMatcher();
    if (literals) {
      literals.lastIndex = 0;
      text = text.replace(literals, (value) => {
        count++;
        return `[REDACTED:${this.values.get(value) ?? 'secret'}]`;
      });
    }
    let lower: string | undefined;
    for (const pattern of this.patterns) {
      if (pattern.hints) {
        lower ??= text.toLowerCase();
        if (!pattern.hints.some((hint) => lower!.includes(hint))) continue;
      }
      const result = applyPattern(text, pattern);
      if (result.count > 0) {
        text = result.text;
        count += result.count;
        lower = undefined;
      }
    }
    return { text, count };
  }

  private literalMatcher(): RegExp | null {
    if (this.literals === undefined) {
      const sorted = [...this.values.keys()].sort((a, b) => b.length - a.length);
      this.literals = sorted.length === 0 ? null : new RegExp(sorted.map(escapeRegExp).join('|'), 'g');
    }
    return this.literals;
  }
}
