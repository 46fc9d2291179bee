/**
 * What a write inspector (shell-writes.ts) reads a command's words with: its operands, the
 * values of its options in every spelling, and the findings it adds to.
 */
import type { Word } from './shell-words';

export interface WriteTarget {
  /** The word naming the written path; null for the folder the command runs in. */
  word: Word | null;
  /** Characters to drop from the word's value (`of=` of dd, `--output=`). */
  skip: number;
  /** What writes it, for messages: "sed -i", "cp". */
  by: string;
}

export interface WriteFindings {
  writes: WriteTarget[];
  /** Why the command may write or run what its words do not show. */
  reasons: string[];
  /** Indexes of words that are data, never paths (echo's text, sed's script, grep's pattern). */
  data: Set<number>;
}

export type Inspector = (name: string, words: readonly Word[], values: readonly string[], found: WriteFindings) => void;

/** Indexes of operands from `from` on: options skipped (with their value when `valued`); `--` ends options. */
export function operands(values: readonly string[], from: number, valued: readonly string[] = []): number[] {
  const found: number[] = [];
  let options = true;
  for (let index = from; index < values.length; index++) {
    const value = values[index]!;
    if (options && value === '--') options = false;
    else if (options && value.startsWith('-') && value !== '-') {
      if (valued.includes(value)) index++;
    } else found.push(index);
  }
  return found;
}

/** `-o F`, `-oF`, `--output F`, `--output=F`: each value of the given options. */
export function optionValues(words: readonly Word[], values: readonly string[], short: string[], long: string[]): Array<{ word: Word; skip: number }> {
  const found: Array<{ word: Word; skip: number }> = [];
  for (let index = 1; index < values.length; index++) {
    const value = values[index]!;
    if (value === '--') break;
    for (const option of [...short, ...long]) {
      if (value === option && index + 1 < values.length) found.push({ word: words[index + 1]!, skip: 0 });
      else if (long.includes(option) && value.startsWith(`${option}=`)) found.push({ word: words[index]!, skip: option.length + 1 });
      else if (short.includes(option) && option.length === 2 && value.startsWith(option) && value.length > 2 && !value.startsWith('--')) {
        found.push({ word: words[index]!, skip: 2 });
      } else if (short.includes(option) && option.length === 2 && /^-[A-Za-z]{2,}/.test(value) && value.indexOf(option[1]!, 2) > 0) {
        // Flags clustered before it (`curl -so FILE`, `wget -qO FILE`, `strace -fo FILE`): the option still takes its value.
        const at = value.indexOf(option[1]!, 2);
        if (at === value.length - 1) {
          if (index + 1 < values.length) found.push({ word: words[index + 1]!, skip: 0 });
        } else found.push({ word: words[index]!, skip: at + 1 });
      }
    }
  }
  return found;
}

export const write = (found: WriteFindings, by: string, word: Word | null, skip = 0) => found.writes.push({ word, skip, by });
