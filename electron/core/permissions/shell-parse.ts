/**
 * From tokens to the simple commands a line would run. Lists, pipelines, subshells, brace groups
 * and `if`/`while`/`for` bodies are flattened: for a permission decision only the commands
 * matter, each with its assignments, words and redirections, and whether its input is piped.
 */
import { lex, ShellSyntaxError, type Redirect, type Token, type Word } from './shell-lexer';

export interface SimpleCommand {
  /** `NAME=value` words before the command name. */
  assignments: Word[];
  /** The command name and its arguments. */
  words: Word[];
  redirects: Redirect[];
  /** Its standard input comes from a pipe. */
  piped: boolean;
  /** `for`/`select` headers and function names: words that are data, not a command to run. */
  keyword: string | null;
}

export interface ParsedCommand {
  commands: SimpleCommand[];
  /** Constructs found while parsing whose effect cannot be read (function definitions). */
  unreadable: string[];
  /** The tokens' source joined by single spaces: equal for the same command however spaced. */
  normalized: string;
}

/** Reserved words that only introduce or close the commands that follow them. */
const SKIPPED_RESERVED = new Set(['{', '}', '!', 'if', 'then', 'elif', 'else', 'fi', 'do', 'done', 'while', 'until', 'esac', 'coproc']);
/** Reserved words whose following words are not a command. */
const DATA_RESERVED = new Set(['for', 'select', 'case', 'function']);
const ASSIGNMENT = /^[A-Za-z_][A-Za-z0-9_]*(\[[^\]]*\])?\+?=/;

export function isAssignment(word: Word): boolean {
  return ASSIGNMENT.test(word.raw);
}

function isReserved(word: Word, set: Set<string>): boolean {
  return !word.quoted && set.has(word.value);
}

/** Parses a command line; throws `ShellSyntaxError` when it cannot be read. */
export function parseCommand(source: string): ParsedCommand {
  const tokens = lex(source);
  return { ...flatten(tokens), normalized: normalize(tokens) };
}

function normalize(tokens: readonly Token[]): string {
  const texts = tokens.map((token) => (token.kind === 'operator' && token.op === '\n' ? ';' : token.raw));
  while (texts.length > 0 && texts[texts.length - 1] === ';') texts.pop();
  return texts.join(' ');
}

function flatten(tokens: readonly Token[]): Omit<ParsedCommand, 'normalized'> {
  const commands: SimpleCommand[] = [];
  const unreadable: string[] = [];
  let current: SimpleCommand | null = null;
  let pipeNext = false;
  let depth = 0;

  const open = (): SimpleCommand => {
    current ??= { assignments: [], words: [], redirects: [], piped: pipeNext, keyword: null };
    pipeNext = false;
    return current;
  };
  const close = () => {
    const command = current as SimpleCommand | null;
    if (command && (command.words.length > 0 || command.assignments.length > 0 || command.redirects.length > 0)) {
      commands.push(command);
    }
    current = null;
  };

  for (let index = 0; index < tokens.length; index++) {
    const token = tokens[index]!;
    if (token.kind === 'redirect') {
      open().redirects.push(token);
      continue;
    }
    if (token.kind === 'word') {
      const command = open();
      if (command.words.length === 0 && command.keyword === null) {
        if (isAssignment(token)) {
          command.assignments.push(token);
          continue;
        }
        if (command.assignments.length === 0 && isReserved(token, SKIPPED_RESERVED)) continue;
        if (command.assignments.length === 0 && isReserved(token, DATA_RESERVED)) {
          command.keyword = token.value;
          if (token.value === 'function') unreadable.push('defines a shell function');
          continue;
        }
      }
      command.words.push(token);
      // `function name { …; }`: the body after the name is commands again.
      if (command.keyword === 'function') close();
      continue;
    }
    switch (token.op) {
      case '(': {
        const command = current as SimpleCommand | null;
        if (command && command.words.length > 0 && command.keyword === null) {
          // `name () { …; }`: a function definition.
          if (tokens[index + 1]?.kind !== 'operator' || (tokens[index + 1] as { op: string }).op !== ')') {
            throw new ShellSyntaxError(`unexpected ( after ${command.words.at(-1)!.raw}`);
          }
          index++;
          command.keyword = 'function';
          unreadable.push('defines a shell function');
          close();
        } else if (command && command.words.length === 0 && command.assignments.at(-1)?.raw.endsWith('=')) {
          // `names=(a b c)`: an array assignment; its elements are data.
          index = collectArray(tokens, index, command.assignments);
        } else {
          close();
          depth++;
        }
        break;
      }
      case ')':
        close();
        if (--depth < 0) throw new ShellSyntaxError('a ) has no matching (');
        break;
      case '|':
      case '|&':
        close();
        pipeNext = true;
        break;
      default:
        close();
        pipeNext = false;
    }
  }
  close();
  if (depth > 0) throw new ShellSyntaxError('a ( is never closed');
  return { commands, unreadable };
}

/** Adds the words of `( … )` starting at `start` to `into`; returns the index of the `)`. */
function collectArray(tokens: readonly Token[], start: number, into: Word[]): number {
  for (let index = start + 1; index < tokens.length; index++) {
    const token = tokens[index]!;
    if (token.kind === 'word') into.push(token);
    else if (token.kind === 'operator' && token.op === ')') return index;
    else if (token.kind !== 'operator' || token.op !== '\n') throw new ShellSyntaxError('an array assignment holds an operator');
  }
  throw new ShellSyntaxError('an array assignment ( is never closed');
}
