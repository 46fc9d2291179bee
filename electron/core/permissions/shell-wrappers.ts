/**
 * Commands that run another command given in their arguments (`sudo rm x`, `timeout 5 npm test`,
 * `env FOO=1 make`, `flock f rm x`, `taskset 1 rm x`, `script -qc 'rm x'`). Rules are matched
 * against the command they run, so `bash(rm:*)` denies `nohup rm x &` and allowing `timeout:*`
 * cannot allow everything; `sudo` and `su` also ask. The table is the peers' bypass reports'
 * wrappers (Claude Code's deny-rule issues, Codex's command_safety) plus util-linux's runners.
 */
import type { Word } from './shell-words';

interface WrapperSpec {
  /** Options that take the next word as their value (unless attached with `=` or to a short flag). */
  valued: string[];
  /** Operands before the command (timeout's duration). */
  operands?: number;
  /** Runs the command as another user: always worth a person's look. */
  elevates?: boolean;
  /** Options whose value is a command line run by a shell (`flock -c`, `script -c`). */
  commandOptions?: string[];
  /** The command is one string operand run by a shell (`sg group 'cmd'`). */
  stringOperand?: boolean;
}

const WRAPPERS: Record<string, WrapperSpec> = {
  sudo: {
    valued: [
      '-u',
      '-g',
      '-h',
      '-p',
      '-C',
      '-D',
      '-r',
      '-t',
      '-U',
      '-T',
      '--user',
      '--group',
      '--host',
      '--prompt',
      '--close-from',
      '--chdir',
      '--role',
      '--type',
      '--other-user',
      '--command-timeout',
    ],
    elevates: true,
  },
  doas: { valued: ['-u', '-C'], elevates: true },
  env: { valued: ['-u', '--unset', '-C', '--chdir', '-P', '-S', '--split-string'] },
  nice: { valued: ['-n', '--adjustment'] },
  nohup: { valued: [] },
  timeout: { valued: ['-s', '-k', '--signal', '--kill-after'], operands: 1 },
  command: { valued: [] },
  builtin: { valued: [] },
  exec: { valued: ['-a'] },
  time: { valued: ['-f', '-o', '--format', '--output'] },
  stdbuf: { valued: ['-i', '-o', '-e', '--input', '--output', '--error'] },
  ionice: { valued: ['-c', '-n', '--class', '--classdata'] },
  setsid: { valued: [] },
  flock: { valued: ['-w', '--timeout', '-E', '--conflict-exit-code'], operands: 1, commandOptions: ['-c', '--command'] },
  taskset: { valued: [], operands: 1 },
  prlimit: { valued: ['-p', '--pid'] },
  unshare: { valued: ['-S', '--setuid', '-G', '--setgid', '-R', '--root', '-w', '--wd', '--propagation'] },
  chrt: { valued: [], operands: 1 },
  nsenter: { valued: ['-t', '--target', '-S', '--setuid', '-G', '--setgid', '-r', '--root', '-w', '--wd'], elevates: true },
  setpriv: { valued: ['--reuid', '--regid', '--groups', '--inh-caps', '--bounding-set', '--securebits', '--selinux-label', '--apparmor-profile'] },
  script: {
    valued: ['-E', '--echo', '-I', '--log-in', '-O', '--log-out', '-B', '--log-io', '-T', '--log-timing', '-m', '--logging-format', '-o', '--output-limit'],
    operands: 1,
    commandOptions: ['-c', '--command'],
  },
  sg: { valued: [], operands: 1, stringOperand: true },
  runuser: { valued: ['-u', '-g', '-G', '--user', '--group', '--supp-group'], elevates: true, commandOptions: ['-c', '--command'] },
  pkexec: { valued: ['--user'], elevates: true },
  chroot: { valued: ['--userspec', '--groups'], operands: 1, elevates: true },
  faketime: { valued: ['-m', '-f'], operands: 1 },
  setarch: { valued: [], operands: 1 },
  linux32: { valued: [] },
  linux64: { valued: [] },
  eatmydata: { valued: [] },
  fakeroot: { valued: ['-l', '--lib', '--faked', '-s', '-i'] },
  torsocks: { valued: ['-u', '-p', '-a', '-P'] },
  proxychains: { valued: ['-f'] },
  proxychains4: { valued: ['-f'] },
  unbuffer: { valued: [] },
  rlwrap: { valued: ['-f', '-H', '-l', '-P', '-s', '-S', '-z'] },
  'xvfb-run': { valued: ['-n', '-s', '-f', '-e', '-p', '--server-num', '--server-args', '--auth-file', '--error-file'] },
  'dbus-run-session': { valued: ['--config-file', '--dbus-daemon'] },
  caffeinate: { valued: ['-t', '-w'] },
  numactl: { valued: ['-C', '-N', '-m', '-p', '-i', '--physcpubind', '--cpunodebind', '--membind', '--preferred', '--interleave'] },
  cgexec: { valued: ['-g'] },
  strace: { valued: ['-o', '-e', '-p', '-s', '-u', '-E', '-P', '-a', '-b', '-I', '-S', '-X', '-O'] },
  ltrace: { valued: ['-o', '-e', '-p', '-s', '-u', '-a', '-l', '-n', '-A', '-D', '-L', '-F'] },
  'systemd-run': {
    valued: ['-p', '--property', '-u', '--unit', '--description', '--slice', '-E', '--setenv', '-M', '--machine', '--uid', '--gid', '--nice', '--working-directory', '-H', '--host'],
  },
  catchsegv: { valued: [] },
  nocache: { valued: [] },
  firejail: { valued: [] },
  // `busybox rm x` runs its applet `rm`.
  busybox: { valued: [] },
};

export function commandName(word: string): string {
  return word.slice(word.lastIndexOf('/') + 1);
}

/**
 * The index of the first operand at or after `from`: options (words starting with `-`) are
 * skipped, a `valued` option with its value; `--` ends the options.
 */
export function skipOptions(values: readonly string[], from: number, valued: readonly string[]): number {
  let index = from;
  while (index < values.length) {
    const value = values[index]!;
    if (value === '--') return index + 1;
    if (!value.startsWith('-') || value === '-') return index;
    index += takesValue(value, valued) ? 2 : 1;
  }
  return index;
}

/** `-o`, or flags clustered before it (`-fo`, getopt's way): the next word is its value. */
function takesValue(value: string, valued: readonly string[]): boolean {
  if (valued.includes(value)) return true;
  return /^-[A-Za-z]{2,}$/.test(value) && valued.includes(`-${value.at(-1)}`);
}

export interface Unwrapped {
  /** Index of the real command's name in the words; `words.length` when nothing is run. */
  start: number;
  wrappers: string[];
  /** `NAME=value` words given to `env`. */
  assignments: Word[];
  reasons: string[];
  /** Command lines given as one string: `env -S '…'`, `flock -c '…'`, `script -c '…'`. */
  sources: Array<{ origin: string; source: string }>;
  /** Where each wrapper's name stands in the words. */
  positions: number[];
}

export function unwrap(words: readonly Word[]): Unwrapped {
  const values = words.map((word) => word.value);
  const result: Unwrapped = { start: 0, wrappers: [], assignments: [], reasons: [], sources: [], positions: [] };
  while (result.start < words.length) {
    const name = commandName(values[result.start]!);
    const spec = WRAPPERS[name];
    if (!spec) break;
    // `command -v git` only looks a name up.
    if (name === 'command' && values.slice(result.start + 1).some((value) => value === '-v' || value === '-V')) break;
    const valued = [...spec.valued, ...(spec.commandOptions ?? []), ...(name === 'env' ? ['-S', '--split-string'] : [])];
    let index = skipOptions(values, result.start + 1, valued);
    const lineOptions = name === 'env' ? ['-S', '--split-string'] : (spec.commandOptions ?? []);
    for (let at = result.start + 1; at < index; at++) {
      const option = lineOptions.find(
        (candidate) =>
          values[at] === candidate || values[at]!.startsWith(`${candidate}=`) || (candidate.length === 2 && /^-[A-Za-z]+$/.test(values[at]!) && values[at]!.endsWith(candidate[1]!)),
      );
      if (!option) continue;
      const attached = values[at]!.startsWith(`${option}=`);
      const source = attached ? values[at]!.slice(option.length + 1) : (values[at + 1] ?? '');
      result.sources.push({ origin: `${name} ${option}`, source });
      result.reasons.push(`${name} ${option} runs a command line given as a string`);
      // The string is the command; what follows (script's log file) is not one.
      if (name !== 'env') index = words.length;
    }
    // `env A=1 cmd`, and bash's reserved word `time`, which times `A=1 cmd` as a whole command.
    if (name === 'env' || name === 'time') {
      while (index < words.length && /^[A-Za-z_][A-Za-z0-9_]*=/.test(values[index]!)) result.assignments.push(words[index++]!);
    }
    index += spec.operands ?? 0;
    // `flock file -c 'cmd'`: the command line may follow the operand.
    const late = spec.commandOptions?.find((option) => values[index] === option);
    if (late) {
      result.sources.push({ origin: `${name} ${late}`, source: values[index + 1] ?? '' });
      result.reasons.push(`${name} ${late} runs a command line given as a string`);
      index = words.length;
    }
    if (spec.stringOperand && index < words.length) {
      result.sources.push({ origin: name, source: values.slice(index).join(' ') });
      result.reasons.push(`${name} runs a command line given as a string`);
      index = words.length;
    }
    result.positions.push(result.start);
    if (spec.elevates) result.reasons.push(`runs as another user (${name})`);
    result.wrappers.push(name);
    result.start = Math.min(index, words.length);
  }
  return result;
}
