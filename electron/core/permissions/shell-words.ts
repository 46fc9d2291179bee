/**
 * One shell word read from the syntax tree: its value after quote removal, and the pieces it is
 * made of, so expansion can tell quoted text from unquoted (globs, braces, `~`) and known
 * variables from what only the shell can know. A node the reader does not understand makes the
 * word unreadable instead of guessing.
 */
import type { Node } from 'web-tree-sitter';

export type Piece =
  | { kind: 'text'; text: string; quoted: boolean }
  | { kind: 'variable'; name: string }
  /** A parameter expansion with operators, a substitution, arithmetic: no value before it runs. */
  | { kind: 'dynamic'; text: string };

/** Characters of the command a person sees, end exclusive (UTF-16, as JavaScript strings count). */
export interface Span {
  start: number;
  end: number;
}

/**
 * Where parsed text sits in the command a person sees: shifted by `offset`, or, for nested text
 * that cannot be mapped back character by character (an unquoted `bash -c` string), all of it at
 * `span`; `null` when it sits nowhere the person can see.
 */
export type Placement = { offset: number } | { span: Span | null };

export const TOP_LEVEL: Placement = { offset: 0 };

export function place(placement: Placement, start: number, end: number): Span | null {
  return 'offset' in placement ? { start: start + placement.offset, end: end + placement.offset } : placement.span;
}

export interface Substitution {
  kind: 'command' | 'backtick' | 'process';
  /** The nested command's source text. */
  source: string;
  /** Where the whole `$(…)` stands, and where its source text starts in the parsed text. */
  span?: Span | null;
  placement?: Placement;
}

export interface Word {
  kind: 'word';
  raw: string;
  /** After quote removal; expansions stay as written (`$HOME`). */
  value: string;
  pieces: Piece[];
  /** Variables expanded by the shell, in order. */
  variables: string[];
  substitutions: Substitution[];
  /** Some part was quoted or escaped, so it cannot be a reserved word. */
  quoted: boolean;
  /** Why the word cannot be read (arithmetic on variables, indirect expansion, unknown syntax). */
  unreadable: string[];
  /** Where the word stands in the command (command-marks.ts); absent for words Cove made up. */
  span?: Span | null;
}

const ANSI_SIMPLE: Record<string, string> = {
  a: '\x07',
  b: '\b',
  e: '\x1b',
  E: '\x1b',
  f: '\f',
  n: '\n',
  r: '\r',
  t: '\t',
  v: '\v',
  '\\': '\\',
  "'": "'",
  '"': '"',
  '?': '?',
};

/** `$'…'` the way bash decodes it. */
export function decodeAnsiC(body: string): string {
  let out = '';
  for (let index = 0; index < body.length; index++) {
    const char = body[index]!;
    if (char !== '\\' || index + 1 >= body.length) {
      out += char;
      continue;
    }
    const next = body[++index]!;
    const hex = (max: number) => {
      const digits = /^[0-9a-fA-F]+/.exec(body.slice(index + 1, index + 1 + max))?.[0] ?? '';
      index += digits.length;
      return digits;
    };
    if (next in ANSI_SIMPLE) out += ANSI_SIMPLE[next];
    else if (/[0-7]/.test(next)) {
      const digits = /^[0-7]{1,3}/.exec(body.slice(index))![0];
      index += digits.length - 1;
      out += String.fromCharCode(parseInt(digits, 8) & 0xff);
    } else if (next === 'x') {
      const digits = hex(2);
      out += digits ? String.fromCharCode(parseInt(digits, 16)) : '\\x';
    } else if (next === 'u' || next === 'U') {
      const digits = hex(next === 'u' ? 4 : 8);
      out += digits ? String.fromCodePoint(Math.min(parseInt(digits, 16), 0x10ffff)) : `\\${next}`;
    } else if (next === 'c' && index + 1 < body.length) {
      out += String.fromCharCode(body.charCodeAt(++index) & 0x1f);
    } else out += `\\${next}`;
  }
  return out;
}

/** Unquoted word text: a backslash quotes the next character; backslash-newline vanishes. */
function unquotedPieces(text: string, into: Piece[]): void {
  let plain = '';
  for (let index = 0; index < text.length; index++) {
    const char = text[index]!;
    if (char !== '\\') {
      plain += char;
      continue;
    }
    const next = text[++index];
    if (next === undefined || next === '\n') continue;
    if (plain) into.push({ kind: 'text', text: plain, quoted: false });
    plain = '';
    into.push({ kind: 'text', text: next, quoted: true });
  }
  if (plain) into.push({ kind: 'text', text: plain, quoted: false });
}

/** Text inside "…": a backslash quotes only $ ` " \ and newline. */
function doubleQuotedText(text: string): string {
  return text.replace(/\\([$`"\\\n])/g, (_, char: string) => (char === '\n' ? '' : char));
}

const PLAIN_EXPANSION = /^\$\{([A-Za-z_][A-Za-z0-9_]*)\}$/;
const ARITHMETIC_REASON = 'uses arithmetic on a variable, which bash evaluates as code';

export function readWord(node: Node, placement: Placement = TOP_LEVEL): Word {
  const word: Word = { kind: 'word', raw: node.text, value: '', pieces: [], variables: [], substitutions: [], quoted: false, unreadable: [] };
  collect(node, word, false);
  word.span = place(placement, node.startIndex, node.endIndex);
  for (const substitution of word.substitutions) {
    const inner = substitution.span!;
    substitution.span = place(placement, inner.start, inner.end);
    // A backtick body loses its backslashes before `, \\ and $: its words no longer line up.
    const exact = 'offset' in placement && (substitution.kind !== 'backtick' || substitution.source.length === inner.end - inner.start - 2);
    const body = substitution.kind === 'backtick' ? 1 : 2;
    substitution.placement = exact ? { offset: placement.offset + inner.start + body } : { span: substitution.span };
  }
  word.value = word.pieces.map((piece) => (piece.kind === 'text' ? piece.text : piece.kind === 'variable' ? `$${piece.name}` : piece.text)).join('');
  word.quoted = word.pieces.some((piece) => piece.kind === 'text' && piece.quoted);
  return word;
}

function dynamic(word: Word, node: Node): void {
  word.pieces.push({ kind: 'dynamic', text: node.text });
}

/** Every command or process substitution below `node`, and whether it names variables. */
function nested(node: Node, word: Word): boolean {
  let variables = false;
  for (const child of node.namedChildren) {
    if (!child) continue;
    if (child.type === 'command_substitution' || child.type === 'process_substitution') substitution(child, word);
    else if (child.type === 'variable_name' || child.type === 'simple_expansion' || child.type === 'expansion') {
      variables = true;
      if (child.type !== 'variable_name') nested(child, word);
    } else variables = nested(child, word) || variables;
  }
  return variables;
}

function substitution(node: Node, word: Word): void {
  const text = node.text;
  // Where it stands in the parsed text; readWord moves it to where the person sees it.
  const span = { start: node.startIndex, end: node.endIndex };
  if (node.type === 'process_substitution') word.substitutions.push({ kind: 'process', source: text.slice(2, -1), span });
  else if (text.startsWith('`')) word.substitutions.push({ kind: 'backtick', source: text.slice(1, -1).replace(/\\([`\\$])/g, '$1'), span });
  else word.substitutions.push({ kind: 'command', source: text.slice(2, -1), span });
}

function collect(node: Node, word: Word, inQuotes: boolean): void {
  switch (node.type) {
    case 'word':
    case 'number':
    case 'command_name':
      if (node.type === 'command_name' && node.namedChildCount > 0) {
        for (const child of node.namedChildren) if (child) collect(child, word, inQuotes);
      } else if (inQuotes) word.pieces.push({ kind: 'text', text: node.text, quoted: true });
      else {
        // An unquoted word never holds a line break in bash; the grammar sometimes joins lines (`ls\n\\rm x`).
        if (/(^|[^\\])\n/.test(node.text)) word.unreadable.push('reads a line break inside a word, which Cove does not read');
        // Nor a blank, a backtick or an operator unescaped: the grammar misread the text (`env \`\`'rm' x`).
        else if (/(^|[^\\])[\s`;&|<>()]/.test(node.text)) word.unreadable.push('reads a word bash would split, which Cove does not read');
        unquotedPieces(node.text, word.pieces);
      }
      return;
    case 'raw_string':
      word.pieces.push({ kind: 'text', text: node.text.slice(1, -1), quoted: true });
      return;
    case 'ansi_c_string':
      word.pieces.push({ kind: 'text', text: decodeAnsiC(node.text.slice(2, -1)), quoted: true });
      return;
    case 'string_content':
      word.pieces.push({ kind: 'text', text: doubleQuotedText(node.text), quoted: true });
      return;
    case 'string':
    case 'translated_string': {
      // Text between the named parts (a `$` alone, spaces) is not always a node of its own.
      const body = node.text.startsWith('$') ? 2 : 1;
      let at = node.startIndex + body;
      for (const child of node.namedChildren) {
        if (!child) continue;
        if (child.startIndex > at) word.pieces.push({ kind: 'text', text: doubleQuotedText(node.text.slice(at - node.startIndex, child.startIndex - node.startIndex)), quoted: true });
        collect(child, word, true);
        at = child.endIndex;
      }
      const end = node.endIndex - 1;
      if (end > at) word.pieces.push({ kind: 'text', text: doubleQuotedText(node.text.slice(at - node.startIndex, end - node.startIndex)), quoted: true });
      if (node.text.length < 2 || !node.text.endsWith('"')) word.unreadable.push('a double quote is never closed');
      return;
    }
    case 'concatenation': {
      // Parts of one word touch; a gap, or a stray backtick, means the grammar joined two words.
      let end = node.startIndex;
      for (const child of node.children) {
        if (!child) continue;
        if (child.startIndex !== end || (!child.isNamed && child.text.includes('`'))) word.unreadable.push('reads a word bash would split, which Cove does not read');
        collectPart(child, word, inQuotes);
        end = child.endIndex;
      }
      return;
    }
    case 'simple_expansion': {
      const name = node.text.slice(1);
      word.variables.push(name);
      if (/^[A-Za-z_][A-Za-z0-9_]*$/.test(name)) word.pieces.push({ kind: 'variable', name });
      else dynamic(word, node);
      return;
    }
    case 'expansion': {
      const plain = PLAIN_EXPANSION.exec(node.text);
      const name = node.namedChildren.find((child) => child?.type === 'variable_name')?.text;
      if (name) word.variables.push(name);
      if (plain) {
        word.pieces.push({ kind: 'variable', name: plain[1]! });
        return;
      }
      // `${!X}` names a variable by another's value, and `${a[$i]}` evaluates its subscript.
      if (/^\$\{!/.test(node.text) && !/^\$\{![A-Za-z_][A-Za-z0-9_]*[@*]\}$/.test(node.text)) word.unreadable.push('uses indirect expansion ${!…}, which bash evaluates at run time');
      if (node.namedChildren.some((child) => child?.type === 'subscript')) word.unreadable.push('uses an array subscript, which bash evaluates as arithmetic');
      nested(node, word);
      dynamic(word, node);
      return;
    }
    case 'command_substitution':
    case 'process_substitution':
      substitution(node, word);
      dynamic(word, node);
      return;
    case 'arithmetic_expansion':
      if (nested(node, word)) word.unreadable.push(ARITHMETIC_REASON);
      dynamic(word, node);
      return;
    case 'brace_expression':
    case 'variable_name':
      word.pieces.push({ kind: 'text', text: node.text, quoted: false });
      return;
    case 'variable_assignment':
      for (const child of node.children) {
        if (!child) continue;
        if (child.type === 'array' || child.type === 'subscript') dynamic(word, child);
        else collectPart(child, word, inQuotes);
      }
      return;
    case 'heredoc_body':
      for (const child of node.namedChildren) {
        if (!child) continue;
        if (child.type === 'heredoc_content') word.pieces.push({ kind: 'text', text: child.text, quoted: true });
        else collect(child, word, true);
      }
      return;
    default:
      word.unreadable.push(`uses ${node.type.replace(/_/g, ' ')} syntax, which Cove does not read`);
      dynamic(word, node);
  }
}

/** A concatenation's parts; its anonymous pieces (`$` before a quote, `=`) are plain text. */
function collectPart(node: Node, word: Word, inQuotes: boolean): void {
  if (node.isNamed) collect(node, word, inQuotes);
  else unquotedPieces(node.text, word.pieces);
}

/** A word that is plain text, such as a reserved word read as a command name. */
export function literalWord(text: string): Word {
  return { kind: 'word', raw: text, value: text, pieces: [{ kind: 'text', text, quoted: false }], variables: [], substitutions: [], quoted: false, unreadable: [] };
}
