/**
 * Stopping a command for good. node-pty's child calls setsid, so bash leads its own session and
 * process group; everything it starts without job control shares that group, and signalling the
 * group (negative pid) reaches all of it, background jobs included.
 */
import { readdirSync, readFileSync } from 'node:fs';

function signalGroup(pgid: number, signal: NodeJS.Signals | 0): boolean {
  try {
    process.kill(-pgid, signal);
    return true;
  } catch {
    return false;
  }
}

/** True while any process of the group is alive (zombies waiting for a reaper do not count). */
export function groupAlive(pgid: number): boolean {
  return signalGroup(pgid, 0) && !onlyZombiesLeft(pgid);
}

/** Linux lists each process's group and state in /proc; elsewhere trust kill(0). */
function onlyZombiesLeft(pgid: number): boolean {
  if (process.platform !== 'linux') return false;
  try {
    return statesInGroup(pgid).every((state) => state === 'Z' || state === 'X');
  } catch {
    return false;
  }
}

function statesInGroup(pgid: number): string[] {
  const states: string[] = [];
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    let stat: string;
    try {
      stat = readFileSync(`/proc/${entry}/stat`, 'utf8');
    } catch {
      continue;
    }
    // After the parenthesized command name: state, ppid, pgrp, …
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    if (Number(fields[2]) === pgid) states.push(fields[0]!);
  }
  return states;
}

/**
 * SIGTERM to the whole group, then SIGKILL to whatever is left after `graceMs` (a process may
 * ignore SIGTERM). Settles once the group is gone and `exited` has settled, or shortly after.
 */
export async function stopGroup(pgid: number, exited: Promise<unknown>, graceMs: number): Promise<void> {
  signalGroup(pgid, 'SIGTERM');
  const deadline = Date.now() + graceMs;
  while (groupAlive(pgid) && Date.now() < deadline) await delay(25);
  if (groupAlive(pgid)) signalGroup(pgid, 'SIGKILL');
  // The bound only guards against a pty that never reports its end.
  await Promise.race([exited, delay(2_000)]);
}

function delay(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms));
}
