/**
 * The search request both engines receive: the pattern checked and compiled once (so an invalid
 * one is refused before any engine runs), and the include glob as a path filter.
 */
import { ToolError } from '../agent/types';
import { globMatcher } from './glob';

export interface SearchRequest {
  /** The pattern as the model gave it (ripgrep compiles it itself). */
  pattern: string;
  caseSensitive: boolean;
  /** Global, multiline: scans whole file contents. */
  scanner: RegExp;
  /** Non-global: checks one line, and finds where a match starts in it. */
  finder: RegExp;
  /** Absolute real folder to search. */
  folder: string;
  /** Prefix that turns a path relative to `folder` into a display path ("" or "src/"). */
  prefix: string;
  include?: string;
  /** Paths relative to `folder` that the include glob admits. */
  admits: (relativePath: string) => boolean;
}

/**
 * Compiles with the `u` flag when the pattern allows it (Unicode classes like \p{L}, as ripgrep
 * has them), without it otherwise (JS accepts `\-` or a lone `{` only then).
 */
export function compilePattern(pattern: string, caseSensitive: boolean): { scanner: RegExp; finder: RegExp } {
  if (pattern === '') throw ToolError.invalidArgs('pattern is empty; give a regular expression to search for');
  const base = caseSensitive ? '' : 'i';
  let firstError: unknown;
  for (const unicode of ['u', '']) {
    try {
      return { scanner: new RegExp(pattern, `gm${base}${unicode}`), finder: new RegExp(pattern, `m${base}${unicode}`) };
    } catch (error) {
      firstError ??= error;
    }
  }
  // V8 says "Invalid regular expression: /(/gmi: Unterminated group"; the cause is the last part.
  const message = firstError instanceof Error ? firstError.message : String(firstError);
  const reason = message.slice(message.lastIndexOf(': ') + 2);
  throw ToolError.invalidArgs(`pattern ${JSON.stringify(pattern)} is not a valid regular expression: ${reason}`);
}

export function includeFilter(include: string | undefined): (relativePath: string) => boolean {
  if (include === undefined) return () => true;
  if (include.trim() === '') throw ToolError.invalidArgs('include is empty; leave it out to search every file');
  return globMatcher(include);
}
