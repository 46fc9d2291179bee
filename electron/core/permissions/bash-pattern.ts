/**
 * The three forms of a bash rule's specifier, matched against each simple command of a call:
 *
 * - exact, `bash(npm test)`: the same words after quote removal, however spaced. An exact rule
 *   written for a whole compound command (`bash(npm ci && npm test)`) matches that command only
 *   as a whole. An exact rule is an approval of that very text, so a call equal to it as a whole
 *   is allowed even when it holds constructs that otherwise always ask.
 * - prefix, `bash(npm run test:*)`: the command starts with those words. The last word may
 *   continue after a `:` (so `npm run test:unit` matches, the way npm names script families) but
 *   not otherwise: `npm run testx` does not match.
 * - glob, `bash(git *)`: `*` matches anything within one simple command, over its words joined
 *   by single spaces; a trailing ` *` also matches nothing (`git *` matches `git`).
 */
import { lex } from './shell-lexer';
import { parseCommand } from './shell-parse';
import { ShellSyntaxError } from './shell-words';

export type BashPattern =
  | { kind: 'exact'; normalized: string; words: string[] | null }
  | { kind: 'prefix'; words: string[] }
  | { kind: 'glob'; regex: RegExp };

/** Throws an Error saying why the specifier cannot be a bash rule. */
export function parseBashPattern(specifier: string): BashPattern {
  const text = specifier.trim();
  if (text.endsWith(':*')) {
    const body = text.slice(0, -2).trim();
    if (body === '') throw new Error('a prefix rule needs a command before :*');
    if (body.includes('*')) throw new Error('a prefix rule (…:*) cannot hold another *');
    const words = simpleWords(body);
    if (!words) throw new Error('a prefix rule must be one simple command, without operators, redirections or $(…)');
    return { kind: 'prefix', words };
  }
  if (text.includes(':*')) throw new Error('":*" may only end a rule');
  if (text.includes('*')) return { kind: 'glob', regex: globRegex(text) };
  try {
    return { kind: 'exact', normalized: parseCommand(text).normalized, words: simpleWords(text) };
  } catch (error) {
    if (error instanceof ShellSyntaxError) throw new Error(`the command cannot be parsed: ${error.message}`);
    throw error;
  }
}

/** The words of a plain simple command, or null when it has operators, redirections or substitutions. */
function simpleWords(text: string): string[] | null {
  let tokens;
  try {
    tokens = lex(text);
  } catch (error) {
    if (error instanceof ShellSyntaxError) throw new Error(`the command cannot be parsed: ${error.message}`);
    throw error;
  }
  const words: string[] = [];
  for (const token of tokens) {
    if (token.kind !== 'word' || token.substitutions.length > 0) return null;
    words.push(token.value);
  }
  return words.length > 0 ? words : null;
}

function globRegex(text: string): RegExp {
  const spaced = text.replace(/\s+/g, ' ');
  const optionalTail = spaced.endsWith(' *');
  const body = optionalTail ? spaced.slice(0, -2) : spaced;
  const source = body.split('*').map((piece) => piece.replace(/[.+?^${}()|[\]\\]/g, '\\$&')).join('.*');
  return new RegExp(`^${source}${optionalTail ? '(?: .*)?' : ''}$`, 's');
}

export function matchesWords(pattern: BashPattern, words: readonly string[]): boolean {
  if (words.length === 0) return false;
  switch (pattern.kind) {
    case 'exact':
      return pattern.words !== null && pattern.words.length === words.length && pattern.words.every((word, index) => word === words[index]);
    case 'prefix': {
      const last = pattern.words.length - 1;
      if (words.length <= last) return false;
      for (let index = 0; index < last; index++) if (words[index] !== pattern.words[index]) return false;
      const word = words[last]!;
      const expected = pattern.words[last]!;
      return word === expected || word.startsWith(`${expected}:`);
    }
    case 'glob':
      return pattern.regex.test(words.join(' '));
  }
}

/** An exact rule equal to the whole command line. */
export function matchesWhole(pattern: BashPattern, normalized: string): boolean {
  return pattern.kind === 'exact' && pattern.normalized === normalized;
}
