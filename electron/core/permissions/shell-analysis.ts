/**
 * Reads a bash command the way the permission engine needs it: every command it would run
 * (nested ones in `$(…)`, `bash -c`, `xargs`, `find -exec` included), the constructs whose
 * effect cannot be read from the text, and the words that may name paths outside the workspace.
 */
import { inspectCommand } from './shell-commands';
import { ShellSyntaxError, type Substitution, type Word } from './shell-lexer';
import { parseCommand, type ParsedCommand, type SimpleCommand } from './shell-parse';
import { commandName, unwrap } from './shell-wrappers';

export interface CommandPart {
  /** Assignments, then the command and its arguments with wrappers looked through: what allow rules match. */
  words: string[];
  /** Assignments and every word as written, wrappers included (`timeout 5 npm test`). */
  written: string[];
  /** The command and its arguments without assignments or wrappers. */
  argv: string[];
  /** How the command is reached when it is not run directly ('command substitution', 'xargs'…). */
  origin: string | null;
}

export interface PathCandidate {
  /** The word's value, or what follows `=` in `--out=/x` and `NAME=/x`. */
  text: string;
  /** The word as written, for messages. */
  shown: string;
  variables: string[];
  /** The operator when the word is a redirection target. */
  redirect: string | null;
}

export interface ShellAnalysis {
  /** Why the command could not be parsed; nothing else is reliable then. */
  parseError: string | null;
  /** The command's tokens joined by single spaces. */
  normalized: string;
  parts: CommandPart[];
  /** Reasons the command's effect cannot be read from its text. */
  unreadable: string[];
  /**
   * Some command in it cannot be inspected at all (code piped into a shell, a command name held
   * in a variable), as opposed to nested commands that were read and are in `parts`.
   */
  opaque: boolean;
  paths: PathCandidate[];
}

const MAX_DEPTH = 6;

const SUBSTITUTION_REASONS: Record<Substitution['kind'], { reason: string; origin: string }> = {
  command: { reason: 'uses command substitution $(…)', origin: 'command substitution' },
  backtick: { reason: 'uses command substitution `…`', origin: 'command substitution' },
  process: { reason: 'uses process substitution <(…)', origin: 'process substitution' },
};

/** Variables that make a command run another program, or change which one runs. */
const COMMAND_VARIABLES = new Set([
  'GIT_PAGER', 'PAGER', 'MANPAGER', 'GIT_EDITOR', 'EDITOR', 'VISUAL', 'GIT_SEQUENCE_EDITOR', 'GIT_SSH', 'GIT_SSH_COMMAND',
  'GIT_ASKPASS', 'SSH_ASKPASS', 'SUDO_ASKPASS', 'GIT_EXTERNAL_DIFF', 'GIT_EXEC_PATH', 'GIT_PROXY_COMMAND', 'GIT_TEMPLATE_DIR',
  'LD_PRELOAD', 'LD_LIBRARY_PATH', 'LD_AUDIT', 'DYLD_INSERT_LIBRARIES', 'DYLD_LIBRARY_PATH', 'BASH_ENV', 'ENV',
  'PROMPT_COMMAND', 'PS4', 'NODE_OPTIONS', 'PYTHONSTARTUP', 'PYTHONPATH', 'PERL5OPT', 'PERL5LIB', 'RUBYOPT', 'RUBYLIB',
  'PATH', 'IFS', 'SHELLOPTS', 'BASHOPTS',
]);
const DECLARATIONS = new Set(['export', 'declare', 'typeset', 'local', 'readonly']);
const NAME_BEFORE_EQUALS = /^([A-Za-z_][A-Za-z0-9_]*)(\[[^\]]*\])?\+?=/;

export function analyzeCommand(command: string): ShellAnalysis {
  const analysis: ShellAnalysis = { parseError: null, normalized: command.trim(), parts: [], unreadable: [], opaque: false, paths: [] };
  try {
    const parsed = parseCommand(command);
    analysis.normalized = parsed.normalized;
    new Walker(analysis).walk(parsed, null, 0);
  } catch (error) {
    if (!(error instanceof ShellSyntaxError)) throw error;
    analysis.parseError = error.message;
  }
  analysis.unreadable = [...new Set(analysis.unreadable)];
  return analysis;
}

/** Where a word may point: the whole value, or the part after `=` of an option or assignment. */
function pathCandidate(word: Word, redirect: string | null = null): PathCandidate | null {
  // A word holding a substitution has no value to read; the substitution already asks.
  if (word.substitutions.length > 0) return null;
  let text = word.value;
  if (redirect === null) {
    const equals = /^(--?[A-Za-z0-9][\w.-]*|[A-Za-z_][\w.[\]-]*)\+?=/.exec(text);
    if (equals) text = text.slice(equals[0].length);
    else if (/^-[A-Za-z]\//.test(text)) text = text.slice(2);
    else if (text.startsWith('-')) return null;
  }
  if (text === '') return null;
  return { text, shown: word.raw, variables: word.variables, redirect };
}

class Walker {
  constructor(private readonly analysis: ShellAnalysis) {}

  walk(parsed: Omit<ParsedCommand, 'normalized'>, origin: string | null, depth: number): void {
    this.analysis.unreadable.push(...parsed.unreadable);
    for (const command of parsed.commands) this.examine(command, origin, depth);
  }

  private source(source: string, origin: string, depth: number): void {
    if (depth > MAX_DEPTH) {
      this.hidden('nests commands too deeply to read');
      return;
    }
    try {
      this.walk(parseCommand(source), origin, depth);
    } catch (error) {
      if (!(error instanceof ShellSyntaxError)) throw error;
      this.hidden(`runs ${origin} code that cannot be parsed (${error.message})`);
    }
  }

  private hidden(reason: string): void {
    this.analysis.unreadable.push(reason);
    this.analysis.opaque = true;
  }

  private substitutions(substitutions: readonly Substitution[], depth: number): void {
    for (const substitution of substitutions) {
      const { reason, origin } = SUBSTITUTION_REASONS[substitution.kind];
      this.analysis.unreadable.push(reason);
      this.source(substitution.source, origin, depth + 1);
    }
  }

  private assignment(word: Word): void {
    const name = NAME_BEFORE_EQUALS.exec(word.raw)?.[1];
    if (name && COMMAND_VARIABLES.has(name)) this.analysis.unreadable.push(`sets ${name}, which can make the command run another program`);
    const candidate = pathCandidate(word);
    if (candidate) this.analysis.paths.push(candidate);
  }

  private examine(command: SimpleCommand, origin: string | null, depth: number): void {
    const { analysis } = this;
    for (const word of [...command.assignments, ...command.words]) this.substitutions(word.substitutions, depth);
    for (const redirect of command.redirects) {
      this.substitutions(redirect.target.substitutions, depth);
      if (redirect.heredoc) this.substitutions(redirect.heredoc.substitutions, depth);
      else if (!redirect.duplicates && redirect.op !== '<<<') {
        const candidate = pathCandidate(redirect.target, redirect.op);
        if (candidate) analysis.paths.push(candidate);
      }
    }
    for (const word of command.assignments) this.assignment(word);
    if (command.keyword !== null || command.words.length === 0) {
      for (const word of command.words) {
        const candidate = pathCandidate(word);
        if (candidate) analysis.paths.push(candidate);
      }
      return;
    }

    const unwrapped = unwrap(command.words);
    analysis.unreadable.push(...unwrapped.reasons);
    if (unwrapped.splitString !== null) this.source(unwrapped.splitString, 'env -S', depth + 1);
    for (const word of unwrapped.assignments) this.assignment(word);
    command.words.forEach((word, index) => {
      if (index === unwrapped.start || unwrapped.assignments.includes(word)) return;
      const candidate = pathCandidate(word);
      if (candidate) analysis.paths.push(candidate);
    });
    const real = command.words.slice(unwrapped.start);
    if (real.length === 0) return;
    const name = real[0]!;
    // `$CMD x`, `rm$IFS-rf x`, `{rm,-rf,x}`, `/bin/r? x`: the shell decides what runs, the text does not.
    if (name.variables.length > 0) this.hidden(`the command name ${name.raw} is built at run time`);
    else if (/[*?[]|\{[^}]*(,|\.\.)[^}]*\}/.test(name.raw)) this.hidden(`the command name ${name.raw} is expanded by the shell`);
    // A relative script path may lead out of the workspace; system programs by absolute path are fine.
    if (name.value.includes('/') && !name.value.startsWith('/')) {
      const candidate = pathCandidate(name);
      if (candidate) analysis.paths.push(candidate);
    }
    if (DECLARATIONS.has(commandName(real[0]!.value))) {
      for (const word of real.slice(1)) if (NAME_BEFORE_EQUALS.test(word.raw)) this.assignment(word);
    }

    const assignments = [...command.assignments, ...unwrapped.assignments].map((word) => word.value);
    const argv = real.map((word) => word.value);
    analysis.parts.push({
      words: [...assignments, ...argv],
      written: [...command.assignments.map((word) => word.value), ...command.words.map((word) => word.value)],
      argv,
      origin,
    });

    const findings = inspectCommand(real, {
      piped: command.piped,
      document: command.redirects.some((redirect) => redirect.heredoc !== null || redirect.op === '<<<'),
    });
    analysis.unreadable.push(...findings.reasons);
    analysis.opaque ||= findings.opaque;
    for (const nested of findings.sources) this.source(nested.source, nested.origin, depth + 1);
    for (const nested of findings.commands) {
      this.examine({ assignments: [], words: nested.words, redirects: [], piped: false, keyword: null }, nested.origin, depth + 1);
    }
  }
}
