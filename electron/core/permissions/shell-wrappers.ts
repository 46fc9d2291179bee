/**
 * Commands that run another command given in their arguments (`sudo rm x`, `timeout 5 npm test`,
 * `env FOO=1 make`). Rules are matched against the command they run, so `bash(rm:*)` denies
 * `nohup rm x &` and allowing `timeout:*` cannot allow everything; `sudo` and `su` also ask.
 */
import type { Word } from './shell-words';

interface WrapperSpec {
  /** Options that take the next word as their value (unless attached with `=` or to a short flag). */
  valued: string[];
  /** Operands before the command (timeout's duration). */
  operands?: number;
  /** Runs the command as another user: always worth a person's look. */
  elevates?: boolean;
}

const WRAPPERS: Record<string, WrapperSpec> = {
  sudo: {
    valued: ['-u', '-g', '-h', '-p', '-C', '-D', '-r', '-t', '-U', '-T', '--user', '--group', '--host', '--prompt', '--close-from', '--chdir', '--role', '--type', '--other-user', '--command-timeout'],
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
    index += valued.includes(value) ? 2 : 1;
  }
  return index;
}

export interface Unwrapped {
  /** Index of the real command's name in the words; `words.length` when nothing is run. */
  start: number;
  wrappers: string[];
  /** `NAME=value` words given to `env`. */
  assignments: Word[];
  reasons: string[];
  /** `env -S '…'`: a command line split from one string. */
  splitString: string | null;
}

export function unwrap(words: readonly Word[]): Unwrapped {
  const values = words.map((word) => word.value);
  const result: Unwrapped = { start: 0, wrappers: [], assignments: [], reasons: [], splitString: null };
  while (result.start < words.length) {
    const name = commandName(values[result.start]!);
    const spec = WRAPPERS[name];
    if (!spec) break;
    // `command -v git` only looks a name up.
    if (name === 'command' && values.slice(result.start + 1).some((value) => value === '-v' || value === '-V')) break;
    let index = skipOptions(values, result.start + 1, spec.valued);
    if (name === 'env') {
      const split = values.slice(result.start + 1, index).findIndex((value) => value === '-S' || value.startsWith('--split-string'));
      if (split >= 0) {
        const option = values[result.start + 1 + split]!;
        result.splitString = option.includes('=') ? option.slice(option.indexOf('=') + 1) : (values[result.start + 2 + split] ?? '');
        result.reasons.push('env -S runs a command line split from a string');
      }
      while (index < words.length && /^[A-Za-z_][A-Za-z0-9_]*=/.test(values[index]!)) result.assignments.push(words[index++]!);
    }
    index += spec.operands ?? 0;
    if (spec.elevates) result.reasons.push(`runs as another user (${name})`);
    result.wrappers.push(name);
    result.start = Math.min(index, words.length);
  }
  return result;
}
