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
import { parseCommand } from './shell-syntax';

export type BashPattern = { kind: 'exact'; text: string; words: string[] | null } | { kind: 'prefix'; words: string[] } | { kind: 'glob'; regex: RegExp };

/** Throws an Error saying why the specifier cannot be a bash rule. */
export function parseBashPattern(specifier: string): BashPattern {
  const text = specifier.trim();
  if (/[\x00-\x08\x0b-\x1f\x7f]/.test(text)) throw new Error('a bash rule cannot hold control characters');
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
  if (unbalanced(text)) throw new Error('the command cannot be parsed: a quote is never closed');
  return { kind: 'exact', text, words: simpleWords(text) };
}

function unbalanced(text: string): boolean {
  let quote: string | null = null;
  for (let index = 0; index < text.length; index++) {
    const char = text[index]!;
    if (char === '\\' && quote !== "'") index++;
    else if (quote === null && (char === "'" || char === '"')) quote = char;
    else if (char === quote) quote = null;
  }
  return quote !== null;
}

/**
 * The words of a plain simple command after quote removal, or null when it holds operators,
 * redirections, expansions or anything else that is not plain words. Rules are read without the
 * parser (they are compiled before it loads), so only this plain form is accepted for words.
 */
function simpleWords(text: string): string[] | null {
  const words: string[] = [];
  let current: string | null = null;
  for (let index = 0; index < text.length; index++) {
    const char = text[index]!;
    if (char === ' ' || char === '\t') {
      if (current !== null) words.push(current);
      current = null;
    } else if (char === "'") {
      const end = text.indexOf("'", index + 1);
      if (end < 0) return null;
      current = (current ?? '') + text.slice(index + 1, end);
      index = end;
    } else if (char === '"') {
      let value = '';
      let end = index + 1;
      for (; end < text.length && text[end] !== '"'; end++) {
        if (text[end] === '\\' && '$`"\\'.includes(text[end + 1] ?? '')) end++;
        else if ('$`'.includes(text[end]!)) return null;
        value += text[end];
      }
      if (end >= text.length) return null;
      current = (current ?? '') + value;
      index = end;
    } else if (char === '\\') {
      if (index + 1 >= text.length) return null;
      current = (current ?? '') + text[++index];
    } else if (/[;&|<>()$`\n{}#~]/.test(char) || (current === null && /[*?[]/.test(char))) {
      return null;
    } else current = (current ?? '') + char;
  }
  if (current !== null) words.push(current);
  return words.length > 0 ? words : null;
}

const normalizedRules = new Map<string, string | null>();

/** An exact rule's text read like a command; null while the parser cannot read it. */
function normalizedRule(text: string): string | null {
  if (!normalizedRules.has(text)) {
    const parsed = parseCommand(text);
    if (parsed.error !== null) return null;
    normalizedRules.set(text, parsed.normalized);
  }
  return normalizedRules.get(text)!;
}

function globRegex(text: string): RegExp {
  const spaced = text.replace(/\s+/g, ' ');
  const optionalTail = spaced.endsWith(' *');
  const body = optionalTail ? spaced.slice(0, -2) : spaced;
  const source = body
    .split('*')
    .map((piece) => piece.replace(/[.+?^${}()|[\]\\]/g, '\\$&'))
    .join('.*');
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

/** Splits words into the operands in order and the option letters and long options, as sets. */
function optionShape(words: readonly string[]): { operands: string[]; letters: Set<string>; long: Set<string> } {
  const shape = { operands: [] as string[], letters: new Set<string>(), long: new Set<string>() };
  let options = true;
  for (const word of words) {
    if (options && word === '--') options = false;
    else if (options && /^--[^=]/.test(word)) shape.long.add(word);
    else if (options && /^-[A-Za-z]+$/.test(word)) for (const letter of word.slice(1)) shape.letters.add(letter);
    else shape.operands.push(word);
  }
  return shape;
}

/**
 * For deny and ask rules only: the command has the rule's operands in order and at least its
 * options, however they are ordered or clustered, so `bash(rm -rf:*)` also meets `rm -fr x`
 * and `rm -r -f x` (CC #18613: deny rules dodged by reordering flags).
 */
export function matchesOptionsLoosely(pattern: BashPattern, words: readonly string[]): boolean {
  if (pattern.kind === 'glob' || (pattern.kind === 'exact' && pattern.words === null)) return false;
  const expected = optionShape(pattern.words!);
  if (expected.letters.size === 0 && expected.long.size === 0) return false;
  const actual = optionShape(words);
  const operandsMatch =
    pattern.kind === 'exact'
      ? expected.operands.length === actual.operands.length && expected.operands.every((word, index) => word === actual.operands[index])
      : expected.operands.every((word, index) => word === actual.operands[index]);
  return operandsMatch && [...expected.letters].every((letter) => actual.letters.has(letter)) && [...expected.long].every((option) => actual.long.has(option));
}

/** An exact rule equal to the whole command line. */
export function matchesWhole(pattern: BashPattern, normalized: string): boolean {
  return pattern.kind === 'exact' && normalizedRule(pattern.text) === normalized;
}
