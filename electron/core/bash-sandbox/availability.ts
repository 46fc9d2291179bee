/**
 * The start-up check: can an OS sandbox run here at all? It runs the real thing once (bwrap
 * creating the same namespaces a command gets, or sandbox-exec with a trivial profile) rather
 * than guessing from versions, because what fails in practice is the host's policy: Ubuntu's
 * AppArmor restriction on unprivileged user namespaces, a container without CAP_SYS_ADMIN,
 * `kernel.unprivileged_userns_clone=0`. The answer is kept for the process's lifetime.
 */
import { spawnSync } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { BWRAP_PROBE, findBwrap } from './bwrap';
import { SANDBOX_EXEC } from './seatbelt';

export type SandboxKind = 'bubblewrap' | 'seatbelt';

export type Availability = { available: true; kind: SandboxKind; binary: string } | { available: false; reason: string };

export interface AvailabilityOptions {
  platform?: NodeJS.Platform;
  environment?: Readonly<Record<string, string | undefined>>;
}

const cache = new Map<string, Availability>();

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

function checkBubblewrap(environment: Readonly<Record<string, string | undefined>>): Availability {
  const binary = findBwrap(environment);
  if (!binary) {
    const where = environment.COVE_BWRAP ? `COVE_BWRAP=${environment.COVE_BWRAP} is not an executable file` : 'bwrap is not on PATH';
    return { available: false, reason: `bubblewrap is not installed (${where}; on Debian or Ubuntu: apt-get install bubblewrap)` };
  }
  const probe = spawnSync(binary, BWRAP_PROBE, { encoding: 'utf8', timeout: 10_000 });
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

function checkSeatbelt(): Availability {
  if (!existsSync(SANDBOX_EXEC)) return { available: false, reason: `${SANDBOX_EXEC} is missing` };
  const probe = spawnSync(SANDBOX_EXEC, ['-p', '(version 1)(allow default)', '/usr/bin/true'], { encoding: 'utf8', timeout: 10_000 });
  if (probe.status === 0) return { available: true, kind: 'seatbelt', binary: SANDBOX_EXEC };
  return { available: false, reason: `sandbox-exec cannot apply a profile here: ${probe.error ? probe.error.message : firstLines(probe.stderr || `exit code ${probe.status}`)}` };
}

export function sandboxAvailability(options: AvailabilityOptions = {}): Availability {
  const platform = options.platform ?? process.platform;
  const environment = options.environment ?? process.env;
  const key = `${platform}\0${environment.COVE_BWRAP ?? ''}\0${environment.PATH ?? ''}`;
  const known = cache.get(key);
  if (known) return known;
  let result: Availability;
  if (platform === 'linux') result = checkBubblewrap(environment);
  else if (platform === 'darwin') result = checkSeatbelt();
  else result = { available: false, reason: `Cove has no OS sandbox for bash on ${platform === 'win32' ? 'Windows' : platform} yet` };
  cache.set(key, result);
  return result;
}
