/**
 * A tokenizer for the bash syntax a coding agent writes: quotes and escapes, `$(…)`, backticks,
 * `${…}`, `$((…))`, process substitution, operators, redirections and here-documents. It keeps
 * what the permission engine needs to judge a command: each word after quote removal, which
 * variables it expands, and the source of every nested command, so nothing hidden inside a word
 * escapes the rules. Anything it cannot read throws `ShellSyntaxError`; the caller asks.
 */

import { newWord, ShellSyntaxError, WORD_END, WordReader, type Substitution, type Word } from './shell-words';

export { ShellSyntaxError };
export type { Substitution, Word };

export type OperatorText = '&&' | '||' | ';' | ';;' | '&' | '|' | '|&' | '\n' | '(' | ')';

export interface Operator {
  kind: 'operator';
  op: OperatorText;
  raw: string;
}

export interface HereDocument {
  delimiter: string;
  /** A quoted delimiter keeps the body literal; otherwise it is expanded like a "string". */
  quoted: boolean;
  body: string;
  variables: string[];
  substitutions: Substitution[];
}

export interface Redirect {
  kind: 'redirect';
  op: string;
  fd: string | null;
  target: Word;
  /** `>&2`, `<&-`: the target names a file descriptor, not a file. */
  duplicates: boolean;
  heredoc: HereDocument | null;
  /** The source text, with a here-document's body, for comparing whole commands. */
  raw: string;
}

export type Token = Word | Operator | Redirect;

const BLANK = new Set([' ', '\t', '\r']);
const REDIRECT_OPS = ['<<<', '<<-', '&>>', '<<', '<>', '<&', '>>', '>|', '>&', '&>', '<', '>'];

/** Splits a command into tokens; throws `ShellSyntaxError` naming what could not be read. */
export function lex(source: string): Token[] {
  const lexer = new Lexer(source);
  const tokens = lexer.list(false);
  lexer.endOfInput();
  return tokens;
}

/** The variables and substitutions of text expanded like the inside of a "string" (a here-document). */
export function scanExpansions(text: string): Pick<Word, 'variables' | 'substitutions'> {
  const lexer = new Lexer(text);
  const word = newWord();
  lexer.doubleQuoted(word, false);
  return { variables: word.variables, substitutions: word.substitutions };
}

class Lexer extends WordReader {
  private pending: Redirect[] = [];

  protected nestedList(): void {
    this.list(true);
  }

  endOfInput(): void {
    // bash runs a here-document cut off by the end of input, with a warning; so do we.
    this.pending = [];
  }

  /** Tokens up to the end, or up to the `)` that closes a `$(` or `<(` when `nested`. */
  list(nested: boolean): Token[] {
    const tokens: Token[] = [];
    let depth = 0;
    for (;;) {
      this.skipBlanks();
      if (this.pos >= this.src.length) {
        if (nested) throw new ShellSyntaxError('a $( or <( is never closed');
        return tokens;
      }
      const char = this.src[this.pos]!;
      const next = this.src[this.pos + 1];
      if (char === '#') {
        while (this.pos < this.src.length && this.src[this.pos] !== '\n') this.pos++;
      } else if (char === '\n') {
        this.pos++;
        tokens.push({ kind: 'operator', op: '\n', raw: '\n' });
        this.readHereDocuments();
      } else if (char === ')') {
        this.pos++;
        if (depth === 0) {
          if (nested) return tokens;
          throw new ShellSyntaxError('a ) has no matching (');
        }
        depth--;
        tokens.push({ kind: 'operator', op: ')', raw: ')' });
      } else if (char === '(') {
        this.pos++;
        depth++;
        tokens.push({ kind: 'operator', op: '(', raw: '(' });
      } else if ((char === '<' || char === '>') && next === '(') {
        tokens.push(this.processSubstitution());
      } else if (char === '<' || char === '>' || (char === '&' && next === '>')) {
        tokens.push(this.redirect(null));
      } else if (char === ';' || char === '&' || char === '|') {
        tokens.push(this.operator());
      } else {
        const word = this.word();
        const after = this.src[this.pos];
        if (/^\d+$/.test(word.raw) && (after === '<' || after === '>')) tokens.push(this.redirect(word.raw));
        else tokens.push(word);
      }
    }
  }

  private skipBlanks(): void {
    for (;;) {
      const char = this.src[this.pos];
      if (char !== undefined && BLANK.has(char)) this.pos++;
      else if (char === '\\' && this.src[this.pos + 1] === '\n') this.pos += 2;
      else return;
    }
  }

  private operator(): Operator {
    const two = this.src.slice(this.pos, this.pos + 2);
    let op: OperatorText;
    if (two === '&&' || two === '||' || two === '|&' || two === ';;') op = two;
    else op = this.src[this.pos] as OperatorText;
    this.pos += op.length;
    // `;&` and `;;&` end case branches like `;;`.
    if (op === ';;' && this.src[this.pos] === '&') this.pos++;
    else if (op === ';' && this.src[this.pos] === '&') {
      this.pos++;
      op = ';;';
    }
    return { kind: 'operator', op, raw: op };
  }

  private redirect(fd: string | null): Redirect {
    const start = this.pos - (fd?.length ?? 0);
    const op = REDIRECT_OPS.find((candidate) => this.src.startsWith(candidate, this.pos))!;
    this.pos += op.length;
    this.skipBlanks();
    const char = this.src[this.pos];
    if (char === undefined || WORD_END.has(char)) throw new ShellSyntaxError(`the redirection ${op} has no target`);
    const target = this.word();
    const duplicates = (op === '>&' || op === '<&') && /^(\d+|-)$/.test(target.value);
    const redirect: Redirect = { kind: 'redirect', op, fd, target, duplicates, heredoc: null, raw: this.src.slice(start, this.pos) };
    if (op === '<<' || op === '<<-') {
      redirect.heredoc = { delimiter: target.value, quoted: target.quoted, body: '', variables: [], substitutions: [] };
      this.pending.push(redirect);
    }
    return redirect;
  }

  private readHereDocuments(): void {
    for (const redirect of this.pending) {
      const heredoc = redirect.heredoc!;
      const lines: string[] = [];
      while (this.pos < this.src.length) {
        let end = this.src.indexOf('\n', this.pos);
        if (end < 0) end = this.src.length;
        const line = this.src.slice(this.pos, end);
        this.pos = Math.min(end + 1, this.src.length);
        const compared = redirect.op === '<<-' ? line.replace(/^\t+/, '') : line;
        if (compared === heredoc.delimiter) break;
        lines.push(line);
      }
      heredoc.body = lines.join('\n');
      redirect.raw += `\n${heredoc.body}\n${heredoc.delimiter}`;
      if (!heredoc.quoted) Object.assign(heredoc, scanExpansions(heredoc.body));
    }
    this.pending = [];
  }

  private processSubstitution(): Word {
    const start = this.pos;
    this.pos += 2;
    const inner = this.pos;
    this.list(true);
    const word = newWord();
    word.substitutions.push({ kind: 'process', source: this.src.slice(inner, this.pos - 1) });
    word.raw = this.src.slice(start, this.pos);
    word.value = word.raw;
    word.quoted = true;
    return word;
  }
}
