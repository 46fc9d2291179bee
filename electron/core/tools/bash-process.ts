/**
 * One command in a PTY, and stopping it for good. node-pty's child calls setsid, so bash leads
 * its own session and process group; everything it starts without job control shares that
 * group, and signalling the group (negative pid) reaches all of it, background jobs included.
 */
import { readdirSync, readFileSync } from 'node:fs';
import pty from 'node-pty';

export interface PtyExit {
  exitCode: number;
  /** The signal that ended bash, or undefined. */
  signal: number | undefined;
}

export interface RunningCommand {
  pid: number;
  onData(listener: (chunk: string) => void): void;
  /** Settles when bash has exited and its output is drained. */
  exited: Promise<PtyExit>;
  /** SIGTERM to the whole group, SIGKILL to what is left after `graceMs`; settles when gone. */
  stop(graceMs?: number): Promise<void>;
}

export interface SpawnOptions {
  command: string;
  cwd: string;
  env: Record<string, string>;
}

/**
 * Agents run commands unattended: stdin comes from /dev/null so nothing waits for typing and
 * tools that switch to watch mode on a terminal stdin (test runners) run once. `;` keeps bash's
 * "line N" error numbers matching the command.
 */
const STDIN_FROM_NULL = 'exec </dev/null; ';

export function spawnCommand(options: SpawnOptions): RunningCommand {
  const child = pty.spawn('/bin/bash', ['-c', STDIN_FROM_NULL + options.command], {
    name: 'xterm-256color',
    cols: 120,
    rows: 30,
    cwd: options.cwd,
    env: options.env,
  });
  const exited = new Promise<PtyExit>((resolve) => {
    child.onExit(({ exitCode, signal }) => resolve({ exitCode, signal: signal ? signal : undefined }));
  });
  return {
    pid: child.pid,
    onData: (listener) => void child.onData(listener),
    exited,
    stop: (graceMs = 2_000) => stopGroup(child.pid, exited, graceMs),
  };
}

function signalGroup(pid: number, signal: NodeJS.Signals | 0): boolean {
  try {
    process.kill(-pid, signal);
    return true;
  } catch {
    return false;
  }
}

/** True while any process of the group is alive (zombies waiting for a reaper do not count). */
export function groupAlive(pid: number): boolean {
  return signalGroup(pid, 0) && !onlyZombiesLeft(pid);
}

/** Linux lists each process's group and state in /proc; elsewhere trust kill(0). */
function onlyZombiesLeft(pgid: number): boolean {
  if (process.platform !== 'linux') return false;
  try {
    return processesInGroup(pgid).every((state) => state === 'Z' || state === 'X');
  } catch {
    return false;
  }
}

function processesInGroup(pgid: number): string[] {
  const states: string[] = [];
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    let stat: string;
    try {
      stat = readFileSync(`/proc/${entry}/stat`, 'utf8');
    } catch {
      continue;
    }
    // Fields after the parenthesized name: state, ppid, pgrp, …
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    if (Number(fields[2]) === pgid) states.push(fields[0]!);
  }
  return states;
}

async function stopGroup(pid: number, exited: Promise<PtyExit>, graceMs: number): Promise<void> {
  signalGroup(pid, 'SIGTERM');
  const deadline = Date.now() + graceMs;
  while (groupAlive(pid) && Date.now() < deadline) await delay(25);
  if (groupAlive(pid)) signalGroup(pid, 'SIGKILL');
  // After SIGKILL the kernel ends bash promptly; the bound only guards against a pty that never closes.
  await Promise.race([exited, delay(2_000)]);
}

function delay(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms));
}
