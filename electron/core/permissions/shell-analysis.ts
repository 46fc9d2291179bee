/**
 * Reads a bash command the way the permission engine needs it: every command it would run
 * (nested ones in `$(…)`, `bash -c`, `xargs`, `find -exec` included), the constructs whose
 * effect cannot be read from the text, the words that may name paths, and the paths it writes.
 */
import { inspectCommand } from './shell-commands';
import { GIT_COMMANDS, gitSubcommandIndex } from './shell-git';
import { parseCommand, type ParsedCommand, type SimpleCommand } from './shell-syntax';
import type { Placement, Span, Substitution, Word } from './shell-words';
import { inspectWrites } from './shell-writes';
import { commandName, unwrap } from './shell-wrappers';

export interface CommandPart {
  /** Assignments, then the command and its arguments with wrappers looked through: what allow rules match. */
  words: string[];
  /** Assignments and every word as written, wrappers included (`timeout 5 npm test`). */
  written: string[];
  /** The command and its arguments without assignments or wrappers. */
  argv: string[];
  /** More forms deny and ask rules match: git without its global options (`git -C x push` as `git push`). */
  denyForms: string[][];
  /** How the command is reached when it is not run directly ('command substitution', 'xargs'…). */
  origin: string | null;
  /** The words of `argv`, with where each stands in the command (command-marks.ts). */
  located: Word[];
  /** Its standard input comes from a pipe. */
  piped: boolean;
  /** Why this command itself may run or write what its words do not show (`runs code given with -c`). */
  reasons: string[];
  /** The wrappers it runs under (`sudo`, `timeout 5`), and why they matter. */
  wrappers: { words: Word[]; reasons: string[] };
}

export interface PathCandidate {
  word: Word;
  /** Characters of the value before the path (`--out=`). */
  skip: number;
  /** The operator when the word is a redirection target. */
  redirect: string | null;
  /** Known to name a path (a redirection, a write), rather than any argument that might. */
  known: boolean;
}

export interface WriteCandidate {
  /** null: the folder the command runs in. */
  word: Word | null;
  skip: number;
  /** What writes it: "a redirection with >", "sed -i", "cp". */
  by: string;
  /** The program that writes, when it is one (not a redirection). */
  program?: Word;
}

export interface ShellAnalysis {
  /** Why the command could not be parsed; nothing else is reliable then. */
  parseError: string | null;
  /** The command's tokens joined by single spaces. */
  normalized: string;
  parts: CommandPart[];
  /** Reasons the command's effect cannot be read from its text. */
  unreadable: string[];
  /** Some command in it cannot be named at all (code piped into a shell, a name built at run time). */
  opaque: boolean;
  paths: PathCandidate[];
  writes: WriteCandidate[];
  /** Folders `cd` or `pushd` moves to: relative writes may land under any of them. */
  directories: Word[];
  /** The words each `for` variable takes. A variable set any other way is unknown. */
  loops: Map<string, Word[]>;
  /** Every `$(…)`, `` `…` `` and `<(…)`, nested ones included. */
  substitutions: Substitution[];
  /** Words that make the command run what its text does not show, each with why. */
  hiddenAt: Array<{ span: Span; reason: string }>;
}

const MAX_DEPTH = 6;

const SUBSTITUTION_REASONS: Record<Substitution['kind'], { reason: string; origin: string }> = {
  command: { reason: 'uses command substitution $(…)', origin: 'command substitution' },
  backtick: { reason: 'uses command substitution `…`', origin: 'command substitution' },
  process: { reason: 'uses process substitution <(…)', origin: 'process substitution' },
};

/** Variables whose value is a command line some program runs: read like one, so deny rules see it. */
const COMMAND_LINE_VARIABLES = new Set([
  'GIT_PAGER',
  'PAGER',
  'MANPAGER',
  'GIT_EDITOR',
  'EDITOR',
  'VISUAL',
  'GIT_SEQUENCE_EDITOR',
  'GIT_SSH_COMMAND',
  'GIT_EXTERNAL_DIFF',
  'GIT_PROXY_COMMAND',
  'PROMPT_COMMAND',
  'GIT_SSH',
  'GIT_ASKPASS',
  'SSH_ASKPASS',
  'SUDO_ASKPASS',
  'SYSTEMD_PAGER',
  'LESSOPEN',
  'LESSCLOSE',
]);
/** Variables that make a command run another program, or change which one runs. */
const COMMAND_VARIABLES = new Set([
  ...COMMAND_LINE_VARIABLES,
  'GIT_EXEC_PATH',
  'GIT_TEMPLATE_DIR',
  'GIT_CONFIG',
  'GIT_CONFIG_GLOBAL',
  'GIT_CONFIG_SYSTEM',
  'GIT_CONFIG_PARAMETERS',
  'GIT_CONFIG_COUNT',
  'GIT_DIR',
  'GIT_WORK_TREE',
  'LD_PRELOAD',
  'LD_LIBRARY_PATH',
  'LD_AUDIT',
  'DYLD_INSERT_LIBRARIES',
  'DYLD_LIBRARY_PATH',
  'BASH_ENV',
  'ENV',
  'PROMPT_COMMAND',
  'PS4',
  'NODE_OPTIONS',
  'PYTHONSTARTUP',
  'PYTHONPATH',
  'PERL5OPT',
  'PERL5LIB',
  'RUBYOPT',
  'RUBYLIB',
  'PATH',
  'IFS',
  'SHELLOPTS',
  'BASHOPTS',
  'npm_config_script_shell',
  'NPM_CONFIG_SCRIPT_SHELL',
  'HOME',
  'ZDOTDIR',
  'XDG_CONFIG_HOME',
]);
const DECLARATIONS = new Set(['export', 'declare', 'typeset', 'local', 'readonly']);
const NAME_BEFORE_EQUALS = /^([A-Za-z_][A-Za-z0-9_]*)(\[[^\]]*\])?\+?=/;
/** Redirections that write their target. `>&word` with a file word writes too (checked below). */
const WRITE_REDIRECTS = new Set(['>', '>>', '>|', '&>', '&>>', '<>', '>&']);

export function analyzeCommand(command: string): ShellAnalysis {
  const analysis: ShellAnalysis = {
    parseError: null,
    normalized: command.trim(),
    parts: [],
    unreadable: [],
    opaque: false,
    paths: [],
    writes: [],
    directories: [],
    loops: new Map(),
    substitutions: [],
    hiddenAt: [],
  };
  const parsed = parseCommand(command);
  analysis.normalized = parsed.normalized;
  if (parsed.error !== null) {
    analysis.parseError = parsed.error;
    return analysis;
  }
  const walker = new Walker(analysis, command);
  walker.walk(parsed, null, 0);
  analysis.unreadable = [...new Set(analysis.unreadable)];
  // A loop variable is known only while nothing else can set it.
  if (analysis.parts.some((part) => VARIABLE_SETTERS.has(commandName(part.argv[0] ?? '')))) analysis.loops.clear();
  for (const name of walker.assigned) analysis.loops.delete(name);
  return analysis;
}

/** The part of an option or assignment word after `=`, or the whole word; null for a bare option. */
function pathSkip(word: Word): number | null {
  const equals = /^(--?[A-Za-z0-9][\w.-]*|[A-Za-z_][\w.[\]-]*)\+?=/.exec(word.value);
  if (equals) return equals[0].length;
  if (/^-[A-Za-z]\//.test(word.value)) return 2;
  if (word.value.startsWith('-')) return null;
  return 0;
}

/** Builtins that set variables other than by `NAME=value`. */
const VARIABLE_SETTERS = new Set(['read', 'mapfile', 'readarray', 'getopts', 'printf', 'let', 'eval', 'source', '.', 'unset', 'export', 'declare', 'typeset', 'local', 'readonly']);

class Walker {
  readonly assigned = new Set<string>();

  constructor(
    private readonly analysis: ShellAnalysis,
    private readonly command: string,
  ) {}

  /** Where a string taken from some words (`bash -c '…'`'s script) stands in the command: exactly when it appears there as written. */
  private locate(source: string, words: readonly Word[]): Placement {
    const first = words[0]?.span;
    const last = words.at(-1)?.span;
    if (!first || !last) return { span: null };
    const span = { start: first.start, end: last.end };
    const at = source === '' ? -1 : this.command.slice(span.start, span.end).indexOf(source);
    return at < 0 ? { span } : { offset: span.start + at };
  }

  walk(parsed: Pick<ParsedCommand, 'commands' | 'unreadable' | 'opaque'>, origin: string | null, depth: number): void {
    this.analysis.unreadable.push(...parsed.unreadable);
    this.analysis.opaque ||= parsed.opaque;
    for (const command of parsed.commands) this.examine(command, origin, depth);
  }

  private source(source: string, origin: string, depth: number, placement: Placement): void {
    if (depth > MAX_DEPTH) {
      this.hidden('nests commands too deeply to read');
      return;
    }
    const parsed = parseCommand(source, placement);
    if (parsed.error !== null) this.hidden(`runs ${origin} code that cannot be read (${parsed.error})`);
    else this.walk(parsed, origin, depth);
  }

  private hidden(reason: string, word?: Word): void {
    this.analysis.unreadable.push(reason);
    this.analysis.opaque = true;
    if (word?.span) this.analysis.hiddenAt.push({ span: word.span, reason });
  }

  private path(word: Word, known = false, redirect: string | null = null): void {
    const skip = redirect === null ? pathSkip(word) : 0;
    if (skip === null || word.value.length <= skip) return;
    this.analysis.paths.push({ word, skip, redirect, known });
  }

  private write(word: Word | null, by: string, skip = 0, redirect: string | null = null, program?: Word): void {
    this.analysis.writes.push({ word, skip, by, ...(program ? { program } : {}) });
    if (word) this.analysis.paths.push({ word, skip, redirect, known: true });
  }

  private substitutions(substitutions: readonly Substitution[], depth: number): void {
    for (const substitution of substitutions) {
      const { reason, origin } = SUBSTITUTION_REASONS[substitution.kind];
      this.analysis.unreadable.push(reason);
      this.analysis.substitutions.push(substitution);
      this.source(substitution.source, origin, depth + 1, substitution.placement ?? { span: substitution.span ?? null });
    }
  }

  private assignment(word: Word, depth = 0): void {
    const equals = NAME_BEFORE_EQUALS.exec(word.value);
    const name = equals?.[1];
    if (name) this.assigned.add(name);
    if (name && COMMAND_VARIABLES.has(name)) {
      const reason = `sets ${name}, which can make the command run another program`;
      // A command line in the value is read, so deny rules see it; other variables change what runs unseen.
      if (COMMAND_LINE_VARIABLES.has(name)) {
        this.analysis.unreadable.push(reason);
        if (word.span) this.analysis.hiddenAt.push({ span: word.span, reason });
        const line = word.value.slice(equals[0].length).replace(/^\|/, '');
        this.source(line, name, depth + 1, this.locate(line, [word]));
      } else this.hidden(reason, word);
    }
    this.path(word);
  }

  private redirects(command: SimpleCommand, depth: number): void {
    for (const redirect of command.redirects) {
      if (redirect.target) this.substitutions(redirect.target.substitutions, depth);
      if (redirect.heredoc?.body) this.substitutions(redirect.heredoc.body.substitutions, depth);
      if (redirect.heredoc || redirect.duplicates || !redirect.target || redirect.op === '<<<') continue;
      if (WRITE_REDIRECTS.has(redirect.op)) this.write(redirect.target, `a redirection with ${redirect.op}`, 0, redirect.op);
      else this.path(redirect.target, true, redirect.op);
    }
  }

  private examine(command: SimpleCommand, origin: string | null, depth: number): void {
    const { analysis } = this;
    for (const word of [...command.assignments, ...command.words]) this.substitutions(word.substitutions, depth);
    this.redirects(command, depth);
    for (const word of command.assignments) this.assignment(word);
    if (command.binds) {
      // A loop variable set twice, or assigned elsewhere too, has no one list of values.
      if (analysis.loops.has(command.binds)) analysis.loops.set(command.binds, [...analysis.loops.get(command.binds)!, ...command.words]);
      else analysis.loops.set(command.binds, [...command.words]);
    }
    if (command.keyword !== null || command.words.length === 0) {
      for (const word of command.words) this.path(word);
      return;
    }

    const unwrapped = unwrap(command.words);
    analysis.unreadable.push(...unwrapped.reasons);
    for (const nested of unwrapped.sources) this.source(nested.source, nested.origin, depth + 1, this.locate(nested.source, command.words));
    for (const word of unwrapped.assignments) this.assignment(word);
    // Wrappers' own write options (`time -o file`).
    for (const position of unwrapped.positions) {
      for (const target of inspectWrites(command.words.slice(position, unwrapped.start)).writes) this.write(target.word, target.by, target.skip, null, command.words[position]);
    }
    const real = command.words.slice(unwrapped.start);
    const findings = real.length > 0 ? inspectWrites(real) : null;
    command.words.forEach((word, index) => {
      if (index === unwrapped.start || unwrapped.positions.includes(index) || unwrapped.assignments.includes(word)) return;
      if (index > unwrapped.start && findings?.data.has(index - unwrapped.start)) return;
      this.path(word);
    });
    if (real.length === 0 || !findings) return;
    analysis.unreadable.push(...findings.reasons);
    const name = real[0]!;
    for (const target of findings.writes) this.write(target.word, target.by, target.skip, null, name);
    // `$CMD x`, `rm$IFS-rf x`, `{rm,-rf,x}`, `/bin/r? x`: the shell decides what runs, the text does not.
    if (name.pieces.some((piece) => piece.kind !== 'text')) this.hidden(`the command name ${name.raw} is built at run time`, name);
    else if (name.pieces.some((piece) => piece.kind === 'text' && !piece.quoted && /[*?[{~]/.test(piece.text))) this.hidden(`the command name ${name.raw} is expanded by the shell`, name);
    // A relative script path may lead out of the workspace; system programs by absolute path are fine.
    if (name.value.includes('/') && !name.value.startsWith('/')) this.path(name, true);
    const program = commandName(name.value);
    if (DECLARATIONS.has(program)) {
      for (const word of real.slice(1)) if (NAME_BEFORE_EQUALS.test(word.value)) this.assignment(word);
    }
    if (program === 'coproc') this.hidden('runs a coprocess (coproc), which Cove does not read', name);
    if (program === 'cd' || program === 'pushd') {
      const target = real.slice(1).find((word) => !word.value.startsWith('-'));
      if (target) analysis.directories.push(target);
    }

    const assignments = [...command.assignments, ...unwrapped.assignments].map((word) => word.value);
    const argv = real.map((word) => word.value);
    analysis.parts.push({
      words: [...assignments, ...argv],
      written: [...command.assignments.map((word) => word.value), ...command.words.map((word) => word.value)],
      argv,
      denyForms: denyForms(argv),
      origin,
      located: real,
      piped: command.piped,
      reasons: [...findings.reasons],
      wrappers: { words: unwrapped.positions.map((position) => command.words[position]!), reasons: unwrapped.reasons },
    });
    if (program === 'git') {
      const at = gitSubcommandIndex(argv);
      const sub = argv[at];
      if (sub !== undefined && !sub.startsWith('-') && !GIT_COMMANDS.has(sub)) {
        this.hidden(`git ${sub} is not a git command Cove knows, so it may be an alias that runs anything`, real[at]);
      }
    }

    const inspected = inspectCommand(real, {
      piped: command.piped,
      document: command.redirects.some((redirect) => redirect.heredoc !== null || redirect.op === '<<<'),
    });
    analysis.unreadable.push(...inspected.reasons);
    analysis.parts.at(-1)!.reasons.push(...inspected.reasons);
    analysis.opaque ||= inspected.opaque;
    for (const nested of inspected.sources) this.source(nested.source, nested.origin, depth + 1, this.locate(nested.source, real));
    for (const nested of inspected.commands) {
      if (program === 'coproc') continue;
      this.examine({ assignments: [], words: nested.words, redirects: [], piped: false, keyword: null }, nested.origin, depth + 1);
    }
    if (program === 'coproc' && real.length > 1) {
      this.examine({ assignments: [], words: real.slice(1), redirects: [], piped: false, keyword: null }, 'coproc', depth + 1);
    }
  }
}

/** git with its global options removed, so `git -C x --no-pager push` meets `bash(git push:*)`. */
function denyForms(argv: readonly string[]): string[][] {
  if (commandName(argv[0] ?? '') !== 'git') return [];
  const at = gitSubcommandIndex(argv);
  return at > 1 ? [['git', ...argv.slice(at)]] : [];
}
