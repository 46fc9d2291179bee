/**
 * The start-up check: can an OS sandbox run here at all? It runs the real thing once (bwrap
 * creating the same namespaces a command gets, or sandbox-exec with a trivial profile) rather
 * than guessing from versions, because what fails in practice is the host's policy: Ubuntu's
 * AppArmor restriction on unprivileged user namespaces, a container without CAP_SYS_ADMIN,
 * `kernel.unprivileged_userns_clone=0`. The answer is kept for the process's lifetime.
 *
 * Hosts start the check in the background (`probeSandbox`) so that start-up never waits for a
 * bwrap run; the first bash call awaits it. `sandboxAvailability` answers from the settled check,
 * and runs it synchronously only for a caller that comes before any probe was started.
 */
import { execFile, spawnSync } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { BWRAP_PROBE, findBwrap } from './bwrap';
import { SANDBOX_EXEC } from './seatbelt';

export type SandboxKind = 'bubblewrap' | 'seatbelt';

export type Availability = { available: true; kind: SandboxKind; binary: string } | { available: false; reason: string };

export interface AvailabilityOptions {
  platform?: NodeJS.Platform;
  environment?: Readonly<Record<string, string | undefined>>;
}

function firstLines(text: string): string {
  return text.trim().split('\n').slice(0, 2).join(' ').slice(0, 300);
}

function readSetting(path: string): string | undefined {
  try {
    return readFileSync(path, 'utf8').trim();
  } catch {
    return undefined;
  }
}

interface ProbeRun {
  status: number | null;
  stderr: string;
  error: Error | undefined;
}

/** What the check needs: an answer known without running anything, or a trial run and how to read it. */
type Plan = { answer: Availability } | { file: string; args: readonly string[]; read(probe: ProbeRun): Availability };

const PROBE_TIMEOUT_MS = 10_000;

function runSync(file: string, args: readonly string[]): ProbeRun {
  const probe = spawnSync(file, args, { encoding: 'utf8', timeout: PROBE_TIMEOUT_MS });
  return { status: probe.status, stderr: probe.stderr ?? '', error: probe.error };
}

function runAsync(file: string, args: readonly string[]): Promise<ProbeRun> {
  return new Promise((resolve) => {
    execFile(file, args, { encoding: 'utf8', timeout: PROBE_TIMEOUT_MS }, (error, _stdout, stderr) => {
      // A non-zero exit is an answer (the host refuses namespaces); only a run that never happened is an error.
      const status = error ? (typeof error.code === 'number' ? error.code : null) : 0;
      resolve({ status, stderr, error: error && status === null ? error : undefined });
    });
  });
}

function planBubblewrap(environment: Readonly<Record<string, string | undefined>>): Plan {
  const binary = findBwrap(environment);
  if (!binary) {
    const where = environment.COVE_BWRAP ? `COVE_BWRAP=${environment.COVE_BWRAP} is not an executable file` : 'bwrap is not on PATH';
    return { answer: { available: false, reason: `bubblewrap is not installed (${where}; on Debian or Ubuntu: apt-get install bubblewrap)` } };
  }
  return { file: binary, args: BWRAP_PROBE, read: (probe) => bubblewrapAnswer(binary, probe) };
}

function bubblewrapAnswer(binary: string, probe: ProbeRun): Availability {
  if (probe.status === 0) return { available: true, kind: 'bubblewrap', binary };
  const said = probe.error ? probe.error.message : firstLines(probe.stderr || `exit code ${probe.status}`);
  let hint = '';
  if (readSetting('/proc/sys/kernel/apparmor_restrict_unprivileged_userns') === '1') {
    hint = '; AppArmor restricts unprivileged user namespaces here (kernel.apparmor_restrict_unprivileged_userns=1): add an AppArmor profile that lets bwrap use them';
  } else if (readSetting('/proc/sys/kernel/unprivileged_userns_clone') === '0') {
    hint = '; unprivileged user namespaces are off (kernel.unprivileged_userns_clone=0)';
  }
  return { available: false, reason: `bubblewrap (${binary}) cannot create its namespaces here: ${said}${hint}` };
}

function planSeatbelt(): Plan {
  if (!existsSync(SANDBOX_EXEC)) return { answer: { available: false, reason: `${SANDBOX_EXEC} is missing` } };
  return { file: SANDBOX_EXEC, args: ['-p', '(version 1)(allow default)', '/usr/bin/true'], read: seatbeltAnswer };
}

function seatbeltAnswer(probe: ProbeRun): Availability {
  if (probe.status === 0) return { available: true, kind: 'seatbelt', binary: SANDBOX_EXEC };
  return { available: false, reason: `sandbox-exec cannot apply a profile here: ${probe.error ? probe.error.message : firstLines(probe.stderr || `exit code ${probe.status}`)}` };
}

function plan(options: AvailabilityOptions): Plan {
  const platform = options.platform ?? process.platform;
  if (platform === 'linux') return planBubblewrap(options.environment ?? process.env);
  if (platform === 'darwin') return planSeatbelt();
  return { answer: { available: false, reason: `Cove has no OS sandbox for bash on ${platform === 'win32' ? 'Windows' : platform} yet` } };
}

function keyOf(options: AvailabilityOptions): string {
  const environment = options.environment ?? process.env;
  return `${options.platform ?? process.platform}\0${environment.COVE_BWRAP ?? ''}\0${environment.PATH ?? ''}`;
}

const settled = new Map<string, Availability>();
const pending = new Map<string, Promise<Availability>>();

/** The check in the background, started once per platform and PATH; later calls share its answer. */
export function probeSandbox(options: AvailabilityOptions = {}): Promise<Availability> {
  const key = keyOf(options);
  const known = settled.get(key);
  if (known) return Promise.resolve(known);
  const running = pending.get(key);
  if (running) return running;
  const steps = plan(options);
  const probe = ('answer' in steps ? Promise.resolve(steps.answer) : runAsync(steps.file, steps.args).then(steps.read)).then((result) => {
    settled.set(key, result);
    pending.delete(key);
    return result;
  });
  pending.set(key, probe);
  return probe;
}

/** The answer of a check that has finished, or undefined while none has. */
export function knownSandboxAvailability(options: AvailabilityOptions = {}): Availability | undefined {
  return settled.get(keyOf(options));
}

/** The answer now: the settled check's, or (before any has finished) one run synchronously. */
export function sandboxAvailability(options: AvailabilityOptions = {}): Availability {
  const key = keyOf(options);
  const known = settled.get(key);
  if (known) return known;
  const steps = plan(options);
  const result = 'answer' in steps ? steps.answer : steps.read(runSync(steps.file, steps.args));
  settled.set(key, result);
  return result;
}
