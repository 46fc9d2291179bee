/**
 * Live host processes (not zombies) whose command line holds `marker`, from /proc (Linux). Pids
 * printed inside the bash sandbox are its own PID namespace's, so tests that check what a call
 * left running search the host's /proc by command line instead.
 */
import { readdirSync, readFileSync } from 'node:fs';

export function runningWith(marker: string): number[] {
  const found: number[] = [];
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      const stat = readFileSync(`/proc/${entry}/stat`, 'utf8');
      // The state follows the command name, which is in parentheses and may hold any character.
      if (stat.slice(stat.lastIndexOf(')') + 2, stat.lastIndexOf(')') + 3) === 'Z') continue;
      if (readFileSync(`/proc/${entry}/cmdline`, 'utf8').split('\0').includes(marker)) found.push(Number(entry));
    } catch {
      // Ended while we looked.
    }
  }
  return found;
}
