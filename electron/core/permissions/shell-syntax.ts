/**
 * From bash's syntax tree to the simple commands a line would run. The reading is an allowlist,
 * as Codex reads commands: lists, pipelines, subshells, groups, `if`/`while`/`for`/`case`,
 * words, quoting, assignments and known redirections are understood; any other node, any parse
 * error (ERROR or MISSING), any control character and any arithmetic on variables is reported,
 * and the caller asks.
 */
import type { Node } from 'web-tree-sitter';
import { parseTree, parserUnavailable } from './shell-parser';
import { literalWord, readWord, TOP_LEVEL, type Placement, type Word } from './shell-words';

export interface HereDocument {
  quoted: boolean;
  body: Word | null;
}

export interface Redirect {
  op: string;
  fd: string | null;
  target: Word | null;
  /** `>&2`, `<&-`: the target names a file descriptor, not a file. */
  duplicates: boolean;
  heredoc: HereDocument | null;
}

export interface SimpleCommand {
  assignments: Word[];
  /** The command name and its arguments. */
  words: Word[];
  redirects: Redirect[];
  /** Its standard input comes from a pipe. */
  piped: boolean;
  /** `for` headers, `case` values, declarations: words that are data, not a command to run. */
  keyword: string | null;
  /** The variable a `for` header sets. */
  binds?: string;
}

export interface ParsedCommand {
  /** Why the command cannot be read at all; nothing else is reliable then. */
  error: string | null;
  commands: SimpleCommand[];
  unreadable: string[];
  /**
   * Some of what runs cannot be named from the text: arithmetic and subscripts evaluate variables
   * as code (`X='a[$(rm x)]'; echo $((X))`), syntax Cove does not read may run anything.
   */
  opaque: boolean;
  /** The command's tokens joined by single spaces: equal for the same command however spaced. */
  normalized: string;
}

/** Longer commands are not read: a person can look at them, a parser should not be made to. */
export const MAX_COMMAND_LENGTH = 64 * 1024;
const CONTROL = /[\x00-\x08\x0b-\x1f\x7f]/;
const CONTROL_NAMES: Record<string, string> = { '\0': 'a NUL byte', '\r': 'a carriage return', '\x1b': 'an escape character' };

const MAX_NESTING = 200;

/** The deepest run of open brackets, quotes aside: an upper bound on how deep the tree goes. */
function nestingDepth(source: string): number {
  let depth = 0;
  let deepest = 0;
  for (const char of source) {
    if (char === '(' || char === '{' || char === '[') deepest = Math.max(deepest, ++depth);
    else if (char === ')' || char === '}' || char === ']') depth = Math.max(0, depth - 1);
  }
  return deepest;
}

/** Why the text itself cannot be handed to the parser, or null. */
function unreadableText(source: string): string | null {
  if (source.length > MAX_COMMAND_LENGTH) return `the command is ${Math.round(source.length / 1024)} KB long, over the ${MAX_COMMAND_LENGTH / 1024} KB Cove reads`;
  const control = CONTROL.exec(source);
  if (control) {
    const char = control[0];
    return `the command holds ${CONTROL_NAMES[char] ?? `the control character U+${char.charCodeAt(0).toString(16).padStart(4, '0').toUpperCase()}`}, which can hide part of it`;
  }
  if (nestingDepth(source) > MAX_NESTING) return `the command nests more than ${MAX_NESTING} levels deep, more than Cove reads`;
  if (source.includes('\uFFFD') || /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/.test(source)) {
    return 'the command is not valid UTF-8 text';
  }
  return null;
}

function firstError(node: Node): Node | null {
  if (node.isError || node.isMissing) return node;
  if (!node.hasError) return null;
  for (const child of node.children) {
    const found = child && firstError(child);
    if (found) return found;
  }
  return null;
}

function describeError(node: Node): string {
  const where = `line ${node.startPosition.row + 1}, column ${node.startPosition.column + 1}`;
  if (node.isMissing) return `a ${JSON.stringify(node.type)} is missing (${where})`;
  const snippet = node.text.length > 30 ? `${node.text.slice(0, 30)}…` : node.text;
  return snippet.trim() === '' ? `bash syntax error (${where})` : `bash syntax error near \`${snippet}\` (${where})`;
}

/** `placement`: where `source` stands in the command a person sees (a nested `bash -c` string), for the words' spans. */
export function parseCommand(source: string, placement: Placement = TOP_LEVEL): ParsedCommand {
  const parsed: ParsedCommand = { error: null, commands: [], unreadable: [], opaque: false, normalized: source.trim() };
  parsed.error = unreadableText(source) ?? parserUnavailable();
  if (parsed.error) return parsed;
  const tree = parseTree(source);
  if (!tree) return { ...parsed, error: parserUnavailable() ?? 'the bash parser gave no tree' };
  if (tree === 'too slow') return { ...parsed, error: 'the command took too long to read' };
  try {
    const error = firstError(tree.rootNode);
    if (error) return { ...parsed, error: `cannot parse the command: ${describeError(error)}` };
    parsed.normalized = normalize(tree.rootNode, source);
    new Reader(parsed, placement).statements(tree.rootNode, false);
    parsed.unreadable = [...new Set(parsed.unreadable)];
    parsed.opaque = parsed.unreadable.some((reason) => OPAQUE.test(reason));
    return parsed;
  } catch (error) {
    // The reading recurses over the tree; a command nested deeper than the stack is not read.
    if (error instanceof RangeError) return { ...parsed, commands: [], unreadable: [], error: 'the command nests too deeply to read' };
    throw error;
  } finally {
    tree.delete();
  }
}

const WORD_NODES = new Set([
  'word',
  'string',
  'raw_string',
  'ansi_c_string',
  'translated_string',
  'concatenation',
  'number',
  'simple_expansion',
  'expansion',
  'command_substitution',
  'process_substitution',
  'arithmetic_expansion',
  'brace_expression',
  'variable_assignment',
  'file_redirect',
  'herestring_redirect',
  'heredoc_redirect',
]);

function normalize(root: Node, source: string): string {
  const tokens: string[] = [];
  const visit = (node: Node) => {
    if (node.type === 'comment') return;
    if (node.type === 'file_redirect' || node.type === 'herestring_redirect') {
      // `2>&1 arg`: the operator and its target are one token; later destinations are arguments.
      const children = node.children.filter((child): child is Node => child !== null);
      const first = children.findIndex((child) => child.isNamed && child.type !== 'file_descriptor');
      const end = first < 0 ? children.length : first + 1;
      tokens.push(
        children
          .slice(0, end)
          .map((child) => child.text)
          .join(''),
      );
      for (const child of children.slice(end)) tokens.push(child.text);
    } else if (WORD_NODES.has(node.type) || node.childCount === 0) {
      tokens.push(node.text === '\n' ? ';' : node.text);
    } else {
      let previous: Node | null = null;
      for (const child of node.children) {
        if (!child) continue;
        // Statements on separate lines have no separator node between them.
        const gap = previous ? source.slice(previous.endIndex, child.startIndex) : '';
        if (gap.includes('\n') && !['', ';', '&&', '||', '|', '&', '|&'].includes(tokens.at(-1) ?? '')) tokens.push(';');
        visit(child);
        previous = child;
      }
    }
  };
  visit(root);
  while (tokens.length > 0 && (tokens.at(-1) === ';' || tokens.at(-1) === '')) tokens.pop();
  return tokens.filter((token) => token !== '').join(' ');
}

const OPAQUE = /arithmetic|subscript|indirect expansion|compares numbers|which Cove does not read/;

const STATEMENT_CONTAINERS = new Set(['program', 'list', 'do_group', 'else_clause', 'elif_clause', 'case_item']);

class Reader {
  constructor(
    private readonly parsed: ParsedCommand,
    private readonly placement: Placement,
  ) {}

  private unreadable(reason: string): void {
    this.parsed.unreadable.push(reason);
  }

  private word(node: Node): Word {
    const word = readWord(node, this.placement);
    this.parsed.unreadable.push(...word.unreadable);
    return word;
  }

  /** The statements below a container; `piped` for the first when its input is a pipe. */
  statements(node: Node, piped: boolean): void {
    for (const child of node.namedChildren) {
      if (!child || child.type === 'comment') continue;
      this.statement(child, piped);
    }
  }

  statement(node: Node, piped: boolean, redirects: Redirect[] = []): void {
    const type = node.type;
    if (STATEMENT_CONTAINERS.has(type)) return this.statements(node, piped);
    switch (type) {
      case 'command':
        return this.command(node, piped, redirects);
      case 'pipeline': {
        let first = true;
        for (const child of node.namedChildren) {
          if (!child) continue;
          this.statement(child, piped || !first);
          first = false;
        }
        return;
      }
      case 'redirected_statement': {
        const body = node.childForFieldName('body');
        const own = node
          .childrenForFieldName('redirect')
          .filter((child): child is Node => child !== null)
          .map((child) => this.redirect(child));
        const extra = node.childrenForFieldName('redirect').flatMap((child) => (child ? this.extraWords(child) : []));
        if (body?.type === 'command') this.command(body, piped, [...redirects, ...own], extra);
        else {
          if (extra.length > 0) this.unreadable('gives words after the redirection of a group, which Cove does not read');
          // A group's redirections apply to all of it: judged on their own, as a bare `> file` is.
          this.parsed.commands.push({ assignments: [], words: [], redirects: own, piped, keyword: null });
          if (body) this.statement(body, piped);
        }
        for (const child of node.childrenForFieldName('redirect')) if (child) this.afterHeredoc(child);
        return;
      }
      case 'subshell':
      case 'negated_command':
        return this.statements(node, piped);
      case 'compound_statement':
        if (node.text.startsWith('((')) return this.arithmeticCommand(node);
        return this.statements(node, piped);
      case 'if_statement':
      case 'while_statement':
        return this.statements(node, false);
      case 'for_statement': {
        const values = node
          .childrenForFieldName('value')
          .filter((child): child is Node => child !== null)
          .map((child) => this.word(child));
        const binds = node.childForFieldName('variable')?.text;
        this.parsed.commands.push({ assignments: [], words: values, redirects: [], piped: false, keyword: 'for', binds });
        const body = node.childForFieldName('body');
        if (body) this.statements(body, false);
        return;
      }
      case 'case_statement': {
        const value = node.childForFieldName('value');
        if (value) this.parsed.commands.push({ assignments: [], words: [this.word(value)], redirects: [], piped: false, keyword: 'case' });
        for (const item of node.namedChildren) if (item?.type === 'case_item') this.caseItem(item);
        return;
      }
      case 'test_command':
        return this.test(node);
      case 'variable_assignment':
        this.parsed.commands.push({ assignments: [this.word(node)], words: [], redirects, piped, keyword: null });
        return this.assignmentValue(node);
      case 'variable_assignments':
        for (const child of node.namedChildren) if (child) this.statement(child, piped, redirects);
        return;
      case 'declaration_command':
      case 'unset_command':
        return this.declaration(node, piped, redirects);
      case 'function_definition': {
        this.unreadable('defines a shell function, which runs later under a name of its own');
        const body = node.childForFieldName('body');
        if (body) this.statement(body, false);
        return;
      }
      case 'c_style_for_statement':
        return this.arithmeticCommand(node);
      default:
        this.unreadable(`uses ${type.replace(/_/g, ' ')} syntax, which Cove does not read`);
    }
  }

  private caseItem(item: Node): void {
    for (const child of item.namedChildren) {
      if (!child) continue;
      if (item.childrenForFieldName('value').some((value) => value?.id === child.id)) this.word(child);
      else this.statement(child, false);
    }
  }

  private arithmeticCommand(node: Node): void {
    if (/[A-Za-z_$`]/.test(node.text.replace(/^for\s*/, ''))) this.unreadable('uses arithmetic on a variable, which bash evaluates as code');
  }

  private test(node: Node): void {
    const words: Word[] = [];
    let numeric = false;
    const visit = (current: Node) => {
      for (const child of current.namedChildren) {
        if (!child) continue;
        if (child.type === 'test_operator') numeric ||= /^-(eq|ne|lt|le|gt|ge)$/.test(child.text);
        else if (['binary_expression', 'unary_expression', 'parenthesized_expression', 'negated_expression'].includes(child.type)) visit(child);
        else if (child.type === 'regex') continue;
        else words.push(this.word(child));
      }
    };
    visit(node);
    // `-eq` and its kin evaluate both sides as arithmetic, where `a[$(cmd)]` runs cmd.
    if (numeric && words.some((word) => word.pieces.some((piece) => piece.kind !== 'text'))) {
      this.unreadable('compares numbers in [[ … ]], which evaluates variables as code');
    }
    this.parsed.commands.push({ assignments: [], words, redirects: [], piped: false, keyword: 'test' });
  }

  private assignmentValue(node: Node): void {
    const value = node.childForFieldName('value');
    const name = node.childForFieldName('name');
    if (name?.type === 'subscript') this.unreadable('assigns to an array subscript, which bash evaluates as arithmetic');
    if (value?.type === 'array') for (const element of value.namedChildren) if (element) this.word(element);
  }

  private declaration(node: Node, piped: boolean, redirects: Redirect[]): void {
    const words = [literalWord(node.child(0)?.text ?? 'declare')];
    for (const child of node.namedChildren) {
      if (!child) continue;
      if (child.type === 'variable_assignment') this.assignmentValue(child);
      words.push(this.word(child));
    }
    this.parsed.commands.push({ assignments: [], words, redirects, piped, keyword: null });
  }

  /**
   * tree-sitter-bash reads `cmd >f a b` as a redirection with three destinations; bash gives
   * `a b` to the command. The words after the first destination are the command's arguments.
   */
  private extraWords(node: Node): Word[] {
    if (node.type !== 'file_redirect') return [];
    return node
      .childrenForFieldName('destination')
      .slice(1)
      .filter((child): child is Node => child !== null)
      .map((child) => this.word(child));
  }

  private command(node: Node, piped: boolean, outer: Redirect[], trailing: Word[] = []): void {
    const command: SimpleCommand = { assignments: [], words: [], redirects: [...outer], piped, keyword: null };
    const extra: Word[] = [];
    for (let index = 0; index < node.childCount; index++) {
      const child = node.child(index);
      if (!child || !child.isNamed) continue;
      const field = node.fieldNameForChild(index);
      if (child.type === 'variable_assignment') {
        command.assignments.push(this.word(child));
        this.assignmentValue(child);
      } else if (child.type.endsWith('_redirect')) {
        command.redirects.push(this.redirect(child));
        extra.push(...this.extraWords(child));
        this.afterHeredoc(child);
      } else if (field === 'name' || field === 'argument') command.words.push(this.word(child));
      else if (child.type !== 'comment') this.unreadable(`uses ${child.type.replace(/_/g, ' ')} syntax, which Cove does not read`);
    }
    // `>f cmd a` names the command after the redirection: its first extra word is the name.
    command.words.push(...extra, ...trailing);
    this.parsed.commands.push(command);
  }

  private redirect(node: Node): Redirect {
    const fd = node.childForFieldName('descriptor')?.text ?? null;
    if (node.type === 'heredoc_redirect') {
      const start = node.namedChildren.find((child) => child?.type === 'heredoc_start');
      const body = node.namedChildren.find((child) => child?.type === 'heredoc_body');
      const delimiter = start?.text ?? '';
      // A delimiter bash reads differently than the grammar (a backslash, a newline in it) could end the document early.
      if (/[\\\n]/.test(delimiter.replace(/^(["'])(.*)\1$/s, '$2'))) this.unreadable('uses a here-document delimiter with a backslash, which Cove does not read');
      const quoted = /["'\\]/.test(delimiter);
      return { op: node.child(0)?.text ?? '<<', fd, target: null, duplicates: false, heredoc: { quoted, body: body && !quoted ? this.word(body) : null } };
    }
    const operator = node.children.find((child) => child && !child.isNamed)?.text ?? '';
    const destination = node.childrenForFieldName('destination').find((child) => child !== null) ?? node.namedChildren.find((child) => child && child.type !== 'file_descriptor') ?? null;
    const target = destination ? this.word(destination) : null;
    const duplicates = (operator === '>&' || operator === '<&') && (target === null || /^(\d+|-)$/.test(target.value));
    return { op: node.type === 'herestring_redirect' ? '<<<' : operator, fd, target, duplicates: duplicates || target === null, heredoc: null };
  }

  /** `cat <<EOF | sh`: the grammar keeps the rest of the line inside the here-document node. */
  private afterHeredoc(node: Node): void {
    if (node.type !== 'heredoc_redirect') return;
    for (const child of node.namedChildren) {
      if (!child || ['heredoc_start', 'heredoc_body', 'heredoc_end', 'file_descriptor'].includes(child.type)) continue;
      this.statement(child, true);
    }
  }
}
