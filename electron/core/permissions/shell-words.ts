/**
 * Reading one shell word: quotes and escapes, `$VAR`, `${…}`, `$((…))`, `$(…)` and backticks.
 * Quote removal gives the word's value; expansions stay in it as written, and the variables and
 * nested command sources are recorded beside it so the permission engine can judge them.
 */

export class ShellSyntaxError extends Error {}

export interface Substitution {
  kind: 'command' | 'backtick' | 'process';
  /** The nested command's source text. */
  source: string;
}

export interface Word {
  kind: 'word';
  raw: string;
  /** After quote removal; expansions stay as written (`$HOME`). */
  value: string;
  /** Variables expanded by the shell (not those inside single quotes), in order. */
  variables: string[];
  substitutions: Substitution[];
  /** Some part was quoted or escaped, so it cannot be a reserved word. */
  quoted: boolean;
}

export function newWord(): Word {
  return { kind: 'word', raw: '', value: '', variables: [], substitutions: [], quoted: false };
}

/** Characters that end an unquoted word. */
export const WORD_END = new Set([' ', '\t', '\r', '\n', ';', '&', '|', '(', ')', '<', '>']);
const IDENTIFIER = /^[A-Za-z_][A-Za-z0-9_]*/;
const SPECIAL_PARAMETER = /^[0-9?$!#@*-]/;
const ANSI_ESCAPES: Record<string, string> = { n: '\n', t: '\t', r: '\r', '\\': '\\', "'": "'", '"': '"', e: '\x1b' };

export abstract class WordReader {
  protected pos = 0;

  constructor(protected readonly src: string) {}

  /** Reads the tokens of a `$(…)` up to and including its closing `)`. */
  protected abstract nestedList(): void;

  protected word(): Word {
    const start = this.pos;
    const word = newWord();
    while (this.pos < this.src.length && !WORD_END.has(this.src[this.pos]!)) {
      const char = this.src[this.pos]!;
      if (char === '\\') {
        const next = this.src[this.pos + 1];
        this.pos += 2;
        if (next === '\n') continue;
        word.value += next ?? '\\';
        word.quoted = true;
      } else if (char === "'") {
        const end = this.src.indexOf("'", this.pos + 1);
        if (end < 0) throw new ShellSyntaxError('a single quote is never closed');
        word.value += this.src.slice(this.pos + 1, end);
        word.quoted = true;
        this.pos = end + 1;
      } else if (char === '"') {
        this.pos++;
        word.quoted = true;
        this.doubleQuoted(word, true);
      } else if (char === '$') {
        this.dollar(word, false);
      } else if (char === '`') {
        this.backtick(word);
      } else {
        word.value += char;
        this.pos++;
      }
    }
    word.raw = this.src.slice(start, this.pos);
    return word;
  }

  /** The inside of "…" (or of an unquoted here-document when `closed` is false). */
  doubleQuoted(word: Word, closed: boolean): void {
    while (this.pos < this.src.length) {
      const char = this.src[this.pos]!;
      if (closed && char === '"') {
        this.pos++;
        return;
      }
      if (char === '\\') {
        const next = this.src[this.pos + 1];
        this.pos += 2;
        if (next === '\n') continue;
        word.value += next !== undefined && '$`"\\'.includes(next) ? next : `\\${next ?? ''}`;
      } else if (char === '$') {
        this.dollar(word, true);
      } else if (char === '`') {
        this.backtick(word);
      } else {
        word.value += char;
        this.pos++;
      }
    }
    if (closed) throw new ShellSyntaxError('a double quote is never closed');
  }

  private dollar(word: Word, inDoubleQuotes: boolean): void {
    const start = this.pos;
    const next = this.src[this.pos + 1];
    if (next === "'" && !inDoubleQuotes) {
      this.pos += 2;
      word.value += this.ansiCString();
      word.quoted = true;
      return;
    }
    if (next === '"' && !inDoubleQuotes) {
      this.pos += 2;
      word.quoted = true;
      this.doubleQuoted(word, true);
      return;
    }
    if (next === '(' && this.src[this.pos + 2] === '(') {
      this.pos += 3;
      this.arithmetic(word);
    } else if (next === '(') {
      this.pos += 2;
      const inner = this.pos;
      this.nestedList();
      word.substitutions.push({ kind: 'command', source: this.src.slice(inner, this.pos - 1) });
    } else if (next === '{') {
      this.pos += 2;
      this.parameter(word);
    } else {
      const rest = this.src.slice(this.pos + 1);
      const name = IDENTIFIER.exec(rest)?.[0] ?? SPECIAL_PARAMETER.exec(rest)?.[0];
      if (name === undefined) {
        word.value += '$';
        this.pos++;
        return;
      }
      word.variables.push(name);
      this.pos += 1 + name.length;
    }
    word.value += this.src.slice(start, this.pos);
  }

  /** `${…}`: the name, then anything up to the matching `}`, which may itself hold `$(…)`. */
  private parameter(word: Word): void {
    const name = /^[#!]?([A-Za-z_][A-Za-z0-9_]*|[0-9?$!#@*-])/.exec(this.src.slice(this.pos));
    if (name) word.variables.push(name[1]!);
    const inner = newWord();
    let depth = 1;
    while (this.pos < this.src.length) {
      const char = this.src[this.pos]!;
      if (char === '}' && --depth === 0) {
        this.pos++;
        word.variables.push(...inner.variables);
        word.substitutions.push(...inner.substitutions);
        return;
      }
      if (char === '{') depth++;
      if (char === '\\') this.pos += 2;
      else if (char === "'") {
        const end = this.src.indexOf("'", this.pos + 1);
        if (end < 0) throw new ShellSyntaxError('a single quote is never closed');
        this.pos = end + 1;
      } else if (char === '"') {
        this.pos++;
        this.doubleQuoted(inner, true);
      } else if (char === '$') this.dollar(inner, true);
      else if (char === '`') this.backtick(inner);
      else this.pos++;
    }
    throw new ShellSyntaxError('a ${ is never closed');
  }

  /** `$((…))`: arithmetic is harmless unless it holds a substitution, which is recorded. */
  private arithmetic(word: Word): void {
    const inner = newWord();
    let depth = 0;
    while (this.pos < this.src.length) {
      const char = this.src[this.pos]!;
      if (char === ')') {
        if (depth > 0) depth--;
        else if (this.src[this.pos + 1] === ')') {
          this.pos += 2;
          word.variables.push(...inner.variables);
          word.substitutions.push(...inner.substitutions);
          return;
        } else throw new ShellSyntaxError('a $(( is closed by a single )');
        this.pos++;
      } else if (char === '(') {
        depth++;
        this.pos++;
      } else if (char === '$') this.dollar(inner, true);
      else if (char === '`') this.backtick(inner);
      else this.pos++;
    }
    throw new ShellSyntaxError('a $(( is never closed');
  }

  private backtick(word: Word): void {
    const start = this.pos;
    this.pos++;
    let source = '';
    while (this.pos < this.src.length && this.src[this.pos] !== '`') {
      const char = this.src[this.pos]!;
      const next = this.src[this.pos + 1];
      if (char === '\\' && next !== undefined && '`\\$'.includes(next)) {
        source += next;
        this.pos += 2;
      } else {
        source += char;
        this.pos++;
      }
    }
    if (this.pos >= this.src.length) throw new ShellSyntaxError('a backtick is never closed');
    this.pos++;
    word.substitutions.push({ kind: 'backtick', source });
    word.value += this.src.slice(start, this.pos);
  }

  /** `$'…'` with the escapes that matter for reading a word; others are kept as written. */
  private ansiCString(): string {
    let value = '';
    while (this.pos < this.src.length) {
      const char = this.src[this.pos]!;
      if (char === "'") {
        this.pos++;
        return value;
      }
      if (char === '\\' && this.pos + 1 < this.src.length) {
        const next = this.src[this.pos + 1]!;
        value += ANSI_ESCAPES[next] ?? `\\${next}`;
        this.pos += 2;
      } else {
        value += char;
        this.pos++;
      }
    }
    throw new ShellSyntaxError("a $' quote is never closed");
  }
}
