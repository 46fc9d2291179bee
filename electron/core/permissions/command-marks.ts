/**
 * The risky parts of a bash command, marked over its text for the permission prompt (issue 13):
 * what it writes, what it deletes, what reaches the network or outside the workspace, and what
 * runs code the text does not show. The reading is the permission engine's own
 * (`analyzeCommand`, tree-sitter-bash, the escape tier's path judgement), so a prompt marks what
 * the engine weighed, not what a second parser guessed. A command that cannot be parsed has no
 * marks; its prompt already says why.
 */
import { homedir } from 'node:os';
import type { CommandMark, CommandMarkKind } from '../../../shared/events';
import type { SecretRedactor } from '../agent/types';
import type { Prompter } from '../sessions/permission-prompts';
import { analyzeCommand, type CommandPart, type ShellAnalysis } from './shell-analysis';
import { GIT_COMMANDS, gitSubcommandIndex } from './shell-git';
import { escapeReasons, judgeWrites } from './shell-paths';
import type { Span, Word } from './shell-words';
import { commandName } from './shell-wrappers';

export interface MarkContext {
  roots: readonly string[];
  home: string;
}

/** A prompt shows at most this many; a longer list is noise, not help. */
export const MAX_MARKS = 200;

const DELETERS = new Set(['rm', 'rmdir', 'unlink', 'shred', 'find -delete']);

/** Programs whose every run talks to another machine. */
const NETWORK_PROGRAMS = new Set([
  'curl',
  'wget',
  'ssh',
  'scp',
  'sftp',
  'ftp',
  'nc',
  'ncat',
  'netcat',
  'socat',
  'telnet',
  'http',
  'https',
  'xh',
  'aria2c',
  'ping',
  'dig',
  'nslookup',
  'whois',
  'gh',
  'npx',
  'bunx',
  'pnpx',
]);

/** Subcommands that fetch or send: `git push`, `npm install`, `pip install`… */
const NETWORK_SUBCOMMANDS: Record<string, ReadonlySet<string>> = {
  git: new Set(['clone', 'fetch', 'pull', 'push', 'ls-remote', 'submodule', 'archive', 'send-email', 'request-pull']),
  npm: new Set(['install', 'i', 'ci', 'add', 'update', 'upgrade', 'publish', 'exec', 'x', 'create', 'init', 'audit', 'outdated', 'view', 'info']),
  pnpm: new Set(['install', 'i', 'add', 'update', 'up', 'publish', 'dlx', 'exec', 'create']),
  yarn: new Set(['install', 'add', 'upgrade', 'publish', 'dlx', 'create']),
  bun: new Set(['install', 'i', 'add', 'update', 'publish', 'x', 'create']),
  pip: new Set(['install', 'download']),
  pip3: new Set(['install', 'download']),
  uv: new Set(['add', 'sync', 'pip', 'tool', 'run']),
  poetry: new Set(['install', 'add', 'update', 'publish']),
  cargo: new Set(['install', 'fetch', 'publish', 'update', 'add', 'search']),
  go: new Set(['get', 'install', 'mod']),
  gem: new Set(['install', 'push', 'update']),
  composer: new Set(['install', 'require', 'update']),
  apt: new Set(['install', 'update', 'upgrade']),
  'apt-get': new Set(['install', 'update', 'upgrade', 'dist-upgrade']),
  dnf: new Set(['install', 'update', 'upgrade']),
  yum: new Set(['install', 'update', 'upgrade']),
  brew: new Set(['install', 'update', 'upgrade', 'tap']),
  apk: new Set(['add', 'update', 'upgrade']),
  docker: new Set(['pull', 'push', 'login']),
  podman: new Set(['pull', 'push', 'login']),
};

/** Programs that run a script file named by their first operand (`sh run.sh`, `node x.js`). */
const SCRIPT_RUNNERS = /^(sh|bash|zsh|dash|ksh|fish|source|\.|node|nodejs|bun|deno|python[0-9.]*|perl|ruby|php|lua)$/;
/** Subcommands that run scripts a file in the workspace defines (package.json, a Makefile). */
const PROJECT_SCRIPTS: Record<string, RegExp> = {
  npm: /^(test|t|start|run|run-script|restart|stop)$/,
  pnpm: /^(test|t|start|run)$/,
  yarn: /^(test|start|run)$/,
  bun: /^(test|run)$/,
};
const BUILD_TOOLS = new Set(['make', 'gmake', 'just', 'rake', 'gradle', 'mvn', 'ant']);

/** What a git subcommand deletes, read from its options; null when it keeps everything. */
function gitDeletes(sub: string, rest: readonly string[]): string | null {
  const has = (...options: string[]) =>
    rest.some((value) => options.includes(value) || options.some((option) => /^-[a-z]$/i.test(option) && /^-[A-Za-z]+$/.test(value) && value.includes(option[1]!)));
  if (sub === 'clean' && has('-f', '--force')) return 'git clean deletes the untracked files';
  if (sub === 'rm') return 'git rm deletes the files it names';
  if (sub === 'reset' && rest.includes('--hard')) return 'git reset --hard throws away uncommitted changes';
  if (sub === 'checkout' && (rest.includes('--') || rest.includes('.') || has('-f', '--force'))) return 'git checkout puts files back, throwing away their changes';
  if (sub === 'restore') return 'git restore throws away the changes of the files it names';
  if (sub === 'stash' && /^(drop|clear)$/.test(rest[0] ?? '')) return `git stash ${rest[0]} deletes stashed changes`;
  if (sub === 'branch' && has('-d', '-D', '--delete')) return 'git branch deletes a branch';
  if (sub === 'worktree' && rest[0] === 'remove') return 'git worktree remove deletes a worktree folder';
  if (sub === 'push' && has('-f', '--force', '--delete', '--force-with-lease', '--mirror')) return 'git push with this option can delete history on the remote';
  return null;
}

class Marks {
  private readonly byPlace = new Map<string, CommandMark>();

  constructor(private readonly command: string) {}

  add(span: Span | null | undefined, kind: CommandMarkKind, note: string): void {
    if (!span || span.start >= span.end || span.start < 0 || span.end > this.command.length) return;
    const key = `${span.start}:${span.end}:${kind}`;
    const existing = this.byPlace.get(key);
    if (existing) {
      if (!existing.note.split('; ').includes(note)) existing.note = `${existing.note}; ${note}`;
      return;
    }
    this.byPlace.set(key, { start: span.start, end: span.end, kind, note, text: this.command.slice(span.start, span.end) });
  }

  list(): CommandMark[] {
    return [...this.byPlace.values()].sort((a, b) => a.start - b.start || b.end - a.end || a.kind.localeCompare(b.kind)).slice(0, MAX_MARKS);
  }
}

/** From the first word's start to the last one's end. */
function spanOf(...words: Array<Word | undefined>): Span | null {
  const spans = words.map((word) => word?.span).filter((span): span is Span => Boolean(span));
  if (spans.length === 0) return null;
  return { start: Math.min(...spans.map((span) => span.start)), end: Math.max(...spans.map((span) => span.end)) };
}

/** A word's span without the characters before the path (`--output=`), when the raw text shows them as they are. */
function pathSpan(word: Word, skip: number): Span | null | undefined {
  if (!word.span || skip === 0) return word.span;
  return word.raw.slice(0, skip) === word.value.slice(0, skip) ? { start: word.span.start + skip, end: word.span.end } : word.span;
}

function markWrites(analysis: ShellAnalysis, context: MarkContext, marks: Marks): void {
  for (const write of analysis.writes) {
    const [judged] = judgeWrites([write], context.roots, context.home, analysis.directories, analysis.loops);
    const deletes = DELETERS.has(write.by);
    const protects = judged?.protects ? `, a file that decides what runs next (${judged.protects})` : '';
    if (write.word) {
      const verb = write.by === 'find -delete' ? 'deletes what it finds under' : deletes ? 'deletes' : write.by === 'mv' ? 'moves or overwrites' : 'writes';
      // A path Cove knows without a word of its own (`npm pkg set` writes package.json) is marked on the program.
      const span = write.word.span ? pathSpan(write.word, write.skip) : write.program?.span;
      marks.add(span, deletes ? 'deletes' : 'writes', `${verb} ${write.word.raw} (${write.by})${protects}`);
      if (!write.word.span && judged && !judged.inside) marks.add(span, 'outside', `${write.word.raw}, which ${write.by} writes, is outside the workspace`);
    } else {
      marks.add(write.program?.span, deletes ? 'deletes' : 'writes', `${write.by} ${deletes ? 'deletes' : 'writes'} files in the folder it runs in`);
    }
  }
}

function markOutside(analysis: ShellAnalysis, context: MarkContext, marks: Marks): void {
  for (const candidate of analysis.paths) {
    if (/^\/dev\/(tcp|udp)\//.test(candidate.word.value)) {
      marks.add(candidate.word.span, 'network', `${candidate.word.raw} opens a network connection`);
      continue;
    }
    const reasons = escapeReasons([candidate], context.roots, context.home, analysis.loops);
    if (reasons.length > 0) marks.add(pathSpan(candidate.word, candidate.skip), 'outside', reasons.join('; '));
  }
}

function markPart(part: CommandPart, marks: Marks): void {
  const name = part.located[0];
  if (!name) return;
  const program = commandName(name.value);
  const values = part.argv;
  const at = program === 'git' ? gitSubcommandIndex(values) : 1;
  const sub = values[at];
  const subWord = part.located[at];
  const command = sub !== undefined && !sub.startsWith('-') ? spanOf(name, subWord) : name.span;

  if (NETWORK_PROGRAMS.has(program)) marks.add(name.span, 'network', `${program} reaches the network`);
  else if (sub !== undefined && NETWORK_SUBCOMMANDS[program]?.has(sub)) marks.add(command, 'network', `${program} ${sub} reaches the network`);
  else if (/^python[0-9.]*$/.test(program) && values[1] === '-m' && /^pip[0-9]?$/.test(values[2] ?? '') && values[3] === 'install') {
    marks.add(spanOf(name, part.located[3]), 'network', 'pip install reaches the network');
  }
  if (program === 'rsync' || program === 'scp') {
    for (const word of part.located.slice(1)) if (/^[^-/][^/]*:/.test(word.value) || word.value.startsWith('rsync://')) marks.add(word.span, 'network', `${word.raw} is on another machine`);
  }

  if (program === 'git' && sub !== undefined && GIT_COMMANDS.has(sub)) {
    const deletes = gitDeletes(sub, values.slice(at + 1));
    if (deletes) marks.add(command, 'deletes', deletes);
  }
  // `xargs rm`: what it deletes arrives on standard input, so the program itself is marked.
  if (DELETERS.has(program) && !part.located.slice(1).some((word) => !word.value.startsWith('-'))) marks.add(name.span, 'deletes', `${program} deletes what it is given`);

  markScripts(part, program, marks);
  for (const reason of part.reasons) marks.add(name.span, kindOfReason(reason), reason);
  if (name.value.includes('/') && !name.value.startsWith('/')) marks.add(name.span, 'runs-code', `runs the program ${name.raw} from the workspace`);
  for (const reason of part.wrappers.reasons) {
    const outside = /another user|another folder/.test(reason);
    marks.add(spanOf(...part.wrappers.words), outside ? 'outside' : 'runs-code', reason);
  }
}

function kindOfReason(reason: string): CommandMarkKind {
  if (/outside|another folder/.test(reason)) return 'outside';
  if (/may write files/.test(reason)) return 'writes';
  return 'runs-code';
}

/** Code the command runs from files: a script given to an interpreter, package.json's scripts, a Makefile. */
function markScripts(part: CommandPart, program: string, marks: Marks): void {
  const [name, ...rest] = part.located;
  const sub = rest[0]?.value;
  if (SCRIPT_RUNNERS.test(program)) {
    const script = rest.find((word) => !word.value.startsWith('-'));
    // `bash -c '…'` and `python -c '…'` are read as code by the analysis; only a file operand is a script.
    if (script && !part.argv.slice(1).some((value) => /^-[A-Za-z]*[ce]$|^--(command|eval)$/.test(value))) marks.add(spanOf(name, script), 'runs-code', `runs the script ${script.raw}`);
  } else if (sub !== undefined && PROJECT_SCRIPTS[program]?.test(sub)) {
    marks.add(spanOf(name, rest[0]), 'runs-code', `${program} ${sub} runs scripts from package.json`);
  } else if (BUILD_TOOLS.has(program)) {
    marks.add(name?.span, 'runs-code', `${program} runs the commands its build file defines`);
  }
}

/** The marks of `command`: spans over its text, sorted by where they start. */
export function commandMarks(command: string, context: MarkContext): CommandMark[] {
  const analysis = analyzeCommand(command);
  if (analysis.parseError !== null) return [];
  const marks = new Marks(command);
  markWrites(analysis, context, marks);
  markOutside(analysis, context, marks);
  for (const part of analysis.parts) markPart(part, marks);
  for (const substitution of analysis.substitutions) {
    const what = substitution.kind === 'process' ? 'runs the command in <(…) and reads its output as a file' : 'runs the command inside first and uses its output as words';
    marks.add(substitution.span, 'runs-code', what);
  }
  for (const hidden of analysis.hiddenAt) marks.add(hidden.span, 'runs-code', hidden.reason);
  return marks.list();
}

export interface MarkingEnvironment {
  roots: readonly string[];
  /** The home folder `~` means; the user's when absent. */
  home?: string;
  secrets(): SecretRedactor | Promise<SecretRedactor>;
}

/**
 * A prompter that adds the marks of a bash command to its prompt. They are computed over the
 * command as the prompt will show it, redacted, so their places hold once the event is published.
 */
export function markingPrompter(prompter: Prompter, env: MarkingEnvironment): Prompter {
  return async (request, signal) => {
    const command = (request.args as { command?: unknown } | null)?.command;
    if (request.toolName !== 'bash' || typeof command !== 'string' || request.marks) return prompter(request, signal);
    let marks: CommandMark[];
    try {
      const shown = (await env.secrets()).redact(command).text;
      marks = commandMarks(shown, { roots: env.roots, home: env.home ?? homedir() });
      if (shown !== command) return prompter({ ...request, args: { ...(request.args as object), command: shown }, marks }, signal);
    } catch {
      // Marks help a person read the command; without them the prompt still shows it whole.
      return prompter(request, signal);
    }
    return prompter({ ...request, marks }, signal);
  };
}
