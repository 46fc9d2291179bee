/**
 * Go (RE2) regex syntax as gitleaks writes it, translated to a JavaScript regex source. Node 20's
 * regexes have no inline flags, so `(?i)` (to the end of its group), `(?i:…)`, `(?-i:…)` and
 * `(?s:…)` are applied by rewriting: a case-insensitive letter becomes `[aA]` and a class gains
 * the other case of its letters; a dot-all `.` becomes `[\s\S]`. POSIX classes (`[[:alnum:]]`),
 * `\z` and `(?P<name>…)` are rewritten too. Anything else unknown is refused by name rather than
 * guessed, so a refreshed rule set cannot load a rule that means something different.
 */

interface Flags {
  ignoreCase: boolean;
  dotAll: boolean;
}

const POSIX_CLASSES: Record<string, string> = {
  alnum: 'a-zA-Z0-9',
  alpha: 'a-zA-Z',
  digit: '0-9',
  lower: 'a-z',
  upper: 'A-Z',
  space: '\\s',
  xdigit: '0-9a-fA-F',
  word: '\\w',
  punct: '!-\\/:-@\\[-`{-~',
};

export class RegexTranslationError extends Error {}

const isLetter = (char: string) => /^[A-Za-z]$/.test(char);
const otherCase = (char: string) => (char === char.toLowerCase() ? char.toUpperCase() : char.toLowerCase());

/** Reads one escape starting at `source[at] === '\\'`; returns its JS text and the index after it. */
function readEscape(source: string, at: number, inClass: boolean): { text: string; next: number; letter?: string } {
  const char = source[at + 1];
  if (char === undefined) throw new RegexTranslationError('the pattern ends with a lone backslash');
  if (char === 'x') {
    if (source[at + 2] === '{') {
      const close = source.indexOf('}', at + 3);
      const code = Number.parseInt(source.slice(at + 3, close), 16);
      if (!(code <= 0xffff)) throw new RegexTranslationError('\\x{…} above U+FFFF is not supported');
      return { text: `\\u${code.toString(16).padStart(4, '0')}`, next: close + 1 };
    }
    return { text: source.slice(at, at + 4), next: at + 4 };
  }
  if (char === 'z') {
    if (inClass) throw new RegexTranslationError('\\z inside a character class');
    return { text: '(?![\\s\\S])', next: at + 2 };
  }
  if (char === 'A') return { text: '(?<![\\s\\S])', next: at + 2 };
  if (char === 'Q' || char === 'C') throw new RegexTranslationError(`\\${char} is not supported`);
  if (/[pP]/.test(char)) {
    const end = source[at + 2] === '{' ? source.indexOf('}', at + 2) + 1 : at + 3;
    return { text: source.slice(at, end), next: end };
  }
  return { text: `\\${char}`, next: at + 2 };
}

/** A character class from `[` at `at`; returns its JS text and the index after its `]`. */
function readClass(source: string, at: number, flags: Flags): { text: string; next: number } {
  let index = at + 1;
  let negated = '';
  if (source[index] === '^') {
    negated = '^';
    index++;
  }
  const items: string[] = [];
  const extra: string[] = [];
  let first = true;
  while (index < source.length && (source[index] !== ']' || first)) {
    first = false;
    if (source.startsWith('[:', index)) {
      const close = source.indexOf(':]', index + 2);
      const name = source.slice(index + 2, close);
      const expansion = POSIX_CLASSES[name];
      if (close === -1 || expansion === undefined) throw new RegexTranslationError(`unknown POSIX class [:${name}:]`);
      items.push(expansion);
      index = close + 2;
      continue;
    }
    let single: string;
    if (source[index] === '\\') {
      const escape = readEscape(source, index, true);
      items.push(escape.text);
      index = escape.next;
      continue;
    }
    single = source[index]!;
    if (single === '[') single = '\\[';
    const isRange = source[index + 1] === '-' && source[index + 2] !== undefined && source[index + 2] !== ']';
    if (isRange) {
      let end = source[index + 2]!;
      let endText = end;
      let next = index + 3;
      if (end === '\\') {
        const escape = readEscape(source, index + 2, true);
        endText = escape.text;
        end = '';
        next = escape.next;
      }
      items.push(`${single}-${endText}`);
      if (flags.ignoreCase && isLetter(single) && isLetter(end) && (single === single.toLowerCase()) === (end === end.toLowerCase())) {
        extra.push(`${otherCase(single)}-${otherCase(end)}`);
      }
      index = next;
      continue;
    }
    // Escaped, so that letters of the other case appended after it cannot turn it into a range.
    items.push(single === ']' ? '\\]' : single === '-' ? '\\-' : single);
    if (flags.ignoreCase && isLetter(single)) extra.push(otherCase(single));
    index++;
  }
  if (source[index] !== ']') throw new RegexTranslationError('a character class is not closed');
  return { text: `[${negated}${items.join('')}${extra.join('')}]`, next: index + 1 };
}

/** The JS source for a Go regex; throws RegexTranslationError for syntax it does not know. */
export function re2ToJs(source: string): string {
  let out = '';
  const stack: Flags[] = [];
  let flags: Flags = { ignoreCase: false, dotAll: false };
  let index = 0;
  while (index < source.length) {
    const char = source[index]!;
    if (char === '\\') {
      const escape = readEscape(source, index, false);
      out += escape.text;
      index = escape.next;
      continue;
    }
    if (char === '[') {
      const cls = readClass(source, index, flags);
      out += cls.text;
      index = cls.next;
      continue;
    }
    if (char === '(') {
      const modifier = /^\(\?([a-zA-Z]*)(?:-([a-zA-Z]*))?([:)])/.exec(source.slice(index, index + 12));
      if (modifier && (modifier[1] || modifier[2] !== undefined)) {
        const next = { ...flags };
        for (const flag of modifier[1]!) applyFlag(next, flag, true);
        for (const flag of modifier[2] ?? '') applyFlag(next, flag, false);
        if (modifier[3] === ')') {
          // `(?i)` alone changes the flags to the end of the enclosing group.
          flags = next;
        } else {
          stack.push(flags);
          flags = next;
          out += '(?:';
        }
        index += modifier[0].length;
        continue;
      }
      stack.push(flags);
      // A group's name (`(?P<name>`, or Rust's `(?<name>`) is copied as written, not case-folded.
      const name = /^\(\?P?<([A-Za-z_][A-Za-z0-9_]*)>/.exec(source.slice(index, index + 64));
      if (name) {
        out += `(?<${name[1]}>`;
        index += name[0].length;
        continue;
      }
      out += '(';
      index++;
      continue;
    }
    if (char === ')') {
      flags = stack.pop() ?? flags;
      out += ')';
      index++;
      continue;
    }
    if (char === '{') {
      // A repeat count; Go treats a `{` that does not start one as a literal.
      const repeat = /^\{\d*(?:,\d*)?\}/.exec(source.slice(index, index + 16));
      if (repeat && repeat[0] !== '{}') {
        out += repeat[0].startsWith('{,') ? `{0${repeat[0].slice(1)}` : repeat[0];
        index += repeat[0].length;
      } else {
        out += '\\{';
        index++;
      }
      continue;
    }
    if (char === '}') {
      out += '\\}';
      index++;
      continue;
    }
    if (char === '.' && flags.dotAll) {
      out += '[\\s\\S]';
      index++;
      continue;
    }
    out += flags.ignoreCase && isLetter(char) ? `[${char}${otherCase(char)}]` : char;
    index++;
  }
  return out;
}

function applyFlag(flags: Flags, flag: string, on: boolean): void {
  if (flag === 'i') flags.ignoreCase = on;
  else if (flag === 's') flags.dotAll = on;
  else if (flag === 'm' || flag === 'U') throw new RegexTranslationError(`the inline flag ${flag} is not supported`);
  else throw new RegexTranslationError(`unknown inline flag ${flag}`);
}

/** Compiles a Go regex as a JS RegExp with the given extra flags (`g`, `d`). */
export function compileRe2(source: string, flags = ''): RegExp {
  return new RegExp(re2ToJs(source), flags);
}
