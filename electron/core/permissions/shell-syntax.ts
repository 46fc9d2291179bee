/**
 * From bash's syntax tree to the simple commands a line would run. The reading is an allowlist,
 * as Codex reads commands: lists, pipelines, subshells, groups, `if`/`while`/`for`/`case`,
 * words, quoting, assignments and known redirections are understood; any other node, any parse
 * error (ERROR or MISSING), any control character and any arithmetic on variables is reported,
 * and the caller asks.
 */
import type { Node } from 'web-tree-sitter';
import { parseTree, parserUnavailable } from './shell-parser';
import { TOP_LEVEL, type Placement, type Word } from './shell-words';
import { Reader } from './shell-reader';

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
