/**
 * How much the machine let the pages run, beside what the pages measured. A task's duration in
 * the page (the Long Tasks API, frame gaps, keypress latency) is wall time: a renderer thread
 * the OS has taken off its core to run something else still counts as busy. On a small machine
 * shared with other work, a trace showed tasks of 60–120 ms in which the renderer's main thread
 * had the CPU for 5–28 ms. So each run also records, from Linux's /proc (nothing elsewhere):
 *
 * - the renderers' main threads' time running and time runnable but waiting for a core
 *   (/proc/<pid>/task/<pid>/schedstat: run time, run-queue wait), and
 * - the machine's busy CPU time, and the part of it used by processes that are not this
 *   benchmark's (not descendants of this process: another program's tests, a build).
 */
import { readdirSync, readFileSync } from 'node:fs';
import { cpus } from 'node:os';

export interface CpuSnapshot {
  at: number;
  /** Every CPU's busy time, s. */
  machineBusy: number;
  /** This process's and its descendants' CPU time (reaped children included), s. */
  ours: number;
  /** Per renderer pid: [running, waiting for a core], s. */
  renderers: Map<number, [number, number]>;
}

export interface Contention {
  seconds: number;
  cores: number;
  machineBusy: number;
  /** Busy CPU time of processes outside this benchmark, s. */
  others: number;
  /** The renderers' main threads together, s. */
  rendererRan: number;
  rendererWaited: number;
}

const TICKS_PER_SECOND = 100;

/** Undefined where /proc is not Linux's. */
export function cpuSnapshot(rendererPids: readonly number[]): CpuSnapshot | undefined {
  if (process.platform !== 'linux') return undefined;
  try {
    const fields = readFileSync('/proc/stat', 'utf8').split('\n')[0]!.trim().split(/\s+/).slice(1).map(Number);
    // user nice system idle iowait irq softirq steal: busy is all but idle and iowait.
    const machineBusy = fields.reduce((sum, value, index) => (index < 8 && index !== 3 && index !== 4 ? sum + value : sum), 0) / TICKS_PER_SECOND;
    const renderers = new Map<number, [number, number]>();
    for (const pid of rendererPids) {
      const schedstat = readOptional(`/proc/${pid}/task/${pid}/schedstat`);
      if (!schedstat) continue;
      const [ran, waited] = schedstat.trim().split(/\s+/).map(Number);
      renderers.set(pid, [ran! / 1e9, waited! / 1e9]);
    }
    return { at: performance.now(), machineBusy, ours: treeCpu(process.pid), renderers };
  } catch {
    return undefined;
  }
}

export function contentionSince(before: CpuSnapshot | undefined, after: CpuSnapshot | undefined): Contention | undefined {
  // No schedstat (a kernel without CONFIG_SCHED_INFO): nothing to report rather than zeros.
  if (!before || !after || after.renderers.size === 0) return undefined;
  let rendererRan = 0;
  let rendererWaited = 0;
  for (const [pid, [ran, waited]] of after.renderers) {
    const [ranBefore, waitedBefore] = before.renderers.get(pid) ?? [0, 0];
    rendererRan += ran - ranBefore;
    rendererWaited += waited - waitedBefore;
  }
  const machineBusy = after.machineBusy - before.machineBusy;
  return {
    seconds: (after.at - before.at) / 1000,
    cores: cpus().length,
    machineBusy,
    others: Math.max(0, machineBusy - (after.ours - before.ours)),
    rendererRan,
    rendererWaited,
  };
}

function readOptional(path: string): string | undefined {
  try {
    return readFileSync(path, 'utf8');
  } catch {
    return undefined;
  }
}

/** CPU time of `root` and every live descendant, each with its reaped children's, s. */
function treeCpu(root: number): number {
  const children = new Map<number, number[]>();
  const cpu = new Map<number, number>();
  for (const name of readdirSync('/proc')) {
    if (!/^\d+$/.test(name)) continue;
    const stat = readOptional(`/proc/${name}/stat`);
    if (!stat) continue;
    // The command name is in parentheses and may hold spaces; the fields after it are fixed.
    const after = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    const pid = Number(name);
    const parent = Number(after[1]);
    cpu.set(pid, (Number(after[11]) + Number(after[12]) + Number(after[13]) + Number(after[14])) / TICKS_PER_SECOND);
    children.set(parent, [...(children.get(parent) ?? []), pid]);
  }
  let total = 0;
  const pending = [root];
  while (pending.length > 0) {
    const pid = pending.pop()!;
    total += cpu.get(pid) ?? 0;
    pending.push(...(children.get(pid) ?? []));
  }
  return total;
}
