/**
 * What particular commands do beyond their name: run code given inline (`bash -c`, `python -c`,
 * `node -e`, `eval`), read a program from standard input (`curl … | sh`), build commands from
 * their input (`xargs`, `find -exec`), or take a command in an option (`git -c core.pager=…`,
 * `rsync -e`, `ssh -o ProxyCommand=`). Each is a reason to ask, and the command it runs, when it
 * can be read, is handed back so the deny rules still apply to it.
 */
import { inspectGit } from './shell-git';
import { commandName, skipOptions } from './shell-wrappers';
import type { Word } from './shell-words';

export interface Findings {
  reasons: string[];
  /** Some of what runs cannot be inspected at all (code read from stdin, a program in an option). */
  opaque: boolean;
  /** Command lines this command runs, checked like any other. */
  sources: { origin: string; source: string }[];
  /** Commands given as separate words (`xargs rm`, `find -exec rm {} ;`). */
  commands: { origin: string; words: Word[] }[];
}

export interface Stdin {
  piped: boolean;
  /** Fed by a here-document or here-string. */
  document: boolean;
}

const SHELLS = new Set(['sh', 'bash', 'zsh', 'dash', 'ksh', 'mksh', 'ash', 'fish', 'csh', 'tcsh', 'yash']);

interface InterpreterSpec {
  /** The flag, when an option word gives code inline. */
  inline: (option: string) => string | undefined;
  valued: string[];
}

const clusterWith = (letters: string) => (option: string) => {
  const letter = /^-[A-Za-z]+$/.test(option) ? [...letters].find((candidate) => option.includes(candidate)) : undefined;
  return letter && `-${letter}`;
};
const oneOf =
  (...options: string[]) =>
  (option: string) =>
    options.find((name) => option === name || option.startsWith(`${name}=`));

const INTERPRETERS: Array<{ name: RegExp; spec: InterpreterSpec }> = [
  { name: /^(python[0-9.]*|pypy[0-9]*)$/, spec: { inline: (option) => (/^-[A-Za-z]*c/.test(option) ? '-c' : undefined), valued: ['-W', '-X', '-m'] } },
  { name: /^(node|nodejs|bun)$/, spec: { inline: oneOf('-e', '--eval', '-p', '--print'), valued: ['-r', '--require', '--import', '--loader', '-C', '--conditions', '--input-type'] } },
  { name: /^perl[0-9.]*$/, spec: { inline: clusterWith('eE'), valued: ['-I', '-M'] } },
  { name: /^ruby[0-9.]*$/, spec: { inline: clusterWith('e'), valued: ['-I', '-r'] } },
  { name: /^php[0-9.]*$/, spec: { inline: oneOf('-r'), valued: ['-c', '-d'] } },
  { name: /^(lua[0-9.]*|luajit|osascript|Rscript)$/, spec: { inline: oneOf('-e'), valued: [] } },
  { name: /^julia$/, spec: { inline: oneOf('-e', '-E', '--eval', '--print'), valued: [] } },
];

/** Options through which other tools run a command. */
const COMMAND_OPTIONS: Record<string, RegExp> = {
  tar: /^(--to-command|--checkpoint-action|--use-compress-program|--rsh-command|--info-script|--new-volume-script|-I|-F)(=|$)/,
  rsync: /^(-e|--rsh|--rsync-path)(=|$)/,
  ssh: /^(-o\s*)?(ProxyCommand|LocalCommand|KnownHostsCommand)=/i,
  scp: /^(-o\s*)?(ProxyCommand|LocalCommand)=|^-S$/i,
  sftp: /^(-o\s*)?(ProxyCommand|LocalCommand)=|^-S$/i,
  vim: /^(-c|--cmd|\+)/,
  vi: /^(-c|--cmd|\+)/,
  nvim: /^(-c|--cmd|\+)/,
  zip: /^(-TT|--unzip-command)(=|$)/,
  man: /^(-P|--pager|-H|--html)(=|$)|^-P./,
  sort: /^--compress-program(=|$)/,
  rg: /^(--pre|--pre-glob)(=|$)/,
  less: /^(\+|--lesskey|-k)/,
  tcpdump: /^-z$/,
};

const AWK = new Set(['awk', 'gawk', 'mawk', 'nawk']);
const EXEC_ACTIONS = new Set(['-exec', '-execdir', '-ok', '-okdir']);

export function inspectCommand(words: readonly Word[], stdin: Stdin): Findings {
  const findings: Findings = { reasons: [], opaque: false, sources: [], commands: [] };
  const values = words.map((word) => word.value);
  const name = commandName(values[0] ?? '');

  if (name === 'eval') {
    findings.reasons.push('runs code built at run time (eval)');
    findings.sources.push({ origin: 'eval', source: values.slice(1).join(' ') });
  } else if (SHELLS.has(name)) {
    inspectShell(name, values, stdin, findings);
  } else if (AWK.has(name)) {
    const inlineSource = values.some((value) => value === '-e' || value === '--source');
    const program = inlineSource ? values.slice(1).join(' ') : values[skipOptions(values, 1, ['-F', '-v', '-f', '-i', '--include'])];
    if (!values.includes('-f') && program !== undefined && /system|\|/.test(program)) {
      hidden(findings, `the ${name} program runs commands (system or |)`);
    }
  } else if (name === 'xargs' || name === 'parallel') {
    findings.reasons.push(`${name} runs commands built from its input`);
    const valued = [
      '-I',
      '-L',
      '-l',
      '-n',
      '-P',
      '-s',
      '-d',
      '-E',
      '-e',
      '-a',
      '--max-args',
      '--max-procs',
      '--delimiter',
      '--arg-file',
      '--replace',
      '--eof',
      '--max-lines',
      '--max-chars',
      '--process-slot-var',
      '-j',
      '--jobs',
    ];
    const start = skipOptions(values, 1, valued);
    if (start < words.length) findings.commands.push({ origin: name, words: words.slice(start) });
  } else if (name === 'find' || name === 'fd' || name === 'fdfind') {
    inspectExecActions(name, words, findings);
  } else if (name === 'git') {
    const git = inspectGit(values);
    findings.reasons.push(...git.reasons);
    findings.opaque ||= git.opaque;
    findings.sources.push(...git.sources);
  } else if (name === 'alias') {
    hidden(findings, 'defines an alias');
  } else if (name === 'trap') {
    findings.reasons.push('trap runs code later');
    const operand = values[skipOptions(values, 1, [])];
    if (operand !== undefined) findings.sources.push({ origin: 'trap', source: operand });
  } else if (name === 'watch') {
    findings.reasons.push('watch runs its command through a shell');
    const start = skipOptions(values, 1, ['-n', '--interval', '-d', '-q', '--equexit']);
    findings.sources.push({ origin: 'watch', source: values.slice(start).join(' ') });
  } else if (name === 'su') {
    findings.reasons.push('runs as another user (su)');
    const option = values.findIndex((value) => value === '-c' || value === '--command');
    if (option > 0 && values[option + 1] !== undefined) findings.sources.push({ origin: 'su -c', source: values[option + 1]! });
  } else {
    inspectInterpreter(name, values, stdin, findings);
    const options = COMMAND_OPTIONS[name];
    const option = options && values.slice(1).find((value) => options.test(value));
    if (option) hidden(findings, `${name} ${option.split('=')[0]} runs a command`);
  }
  return findings;
}

/** A reason whose command cannot be read at all, so no deny rule can be checked against it. */
function hidden(findings: Findings, reason: string): void {
  findings.reasons.push(reason);
  findings.opaque = true;
}

function readsProgramFromStdin(name: string, stdin: Stdin, findings: Findings, kind: string): void {
  if (stdin.piped) hidden(findings, `pipes into ${kind} (${name})`);
  else if (stdin.document) hidden(findings, `feeds code to ${name} through a here-document`);
}

function inspectShell(name: string, values: readonly string[], stdin: Stdin, findings: Findings): void {
  let index = 1;
  let inline = false;
  let fromStdin = false;
  while (index < values.length) {
    const value = values[index]!;
    if (value === '--' || value === '-') {
      fromStdin ||= value === '-';
      index++;
      break;
    }
    if (!/^[-+]/.test(value)) break;
    if (/^-[A-Za-z]*c[A-Za-z]*$/.test(value) || value === '--command') inline = true;
    if (/^-[A-Za-z]*s[A-Za-z]*$/.test(value)) fromStdin = true;
    index += /^[-+][oO]$/.test(value) || value === '--rcfile' || value === '--init-file' ? 2 : 1;
  }
  if (inline) {
    findings.reasons.push(`runs code given with -c (${name})`);
    if (values[index] !== undefined) findings.sources.push({ origin: `${name} -c`, source: values[index]! });
  } else if (fromStdin || index >= values.length) {
    readsProgramFromStdin(name, stdin, findings, 'a shell');
  }
}

function inspectInterpreter(name: string, values: readonly string[], stdin: Stdin, findings: Findings): void {
  const interpreter = INTERPRETERS.find((candidate) => candidate.name.test(name));
  if (!interpreter) return;
  const { inline, valued } = interpreter.spec;
  let index = 1;
  while (index < values.length) {
    const value = values[index]!;
    if (value === '--' || !value.startsWith('-') || value === '-') break;
    const flag = inline(value);
    if (flag) {
      hidden(findings, `runs code given with ${flag} (${name})`);
      return;
    }
    // `python -m module` runs a module: a program, not stdin.
    if (value === '-m') return;
    index += valued.includes(value) ? 2 : 1;
  }
  if (index >= values.length || values[index] === '-') readsProgramFromStdin(name, stdin, findings, 'an interpreter');
}

/** `find … -exec cmd {} ;` and `fd … --exec cmd`: each action's words are a command. */
function inspectExecActions(name: string, words: readonly Word[], findings: Findings): void {
  const values = words.map((word) => word.value);
  const isAction = name === 'find' ? (value: string) => EXEC_ACTIONS.has(value) : (value: string) => ['-x', '--exec', '-X', '--exec-batch'].includes(value);
  for (let index = 1; index < values.length; index++) {
    if (!isAction(values[index]!)) continue;
    findings.reasons.push(name === 'find' ? `find ${values[index]} runs a command` : `${name} ${values[index]} runs a command`);
    let end = index + 1;
    while (end < values.length && values[end] !== ';' && values[end] !== '+') end++;
    if (end > index + 1) findings.commands.push({ origin: `${name} ${values[index]}`, words: words.slice(index + 1, end) });
    index = end;
  }
}
