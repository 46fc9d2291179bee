/**
 * The OS sandbox for bash (SPEC §7), and for anything else that runs a command on the model's
 * behalf (hooks): `prepareSandbox` turns the session's roots and settings into the program and
 * arguments to put in front of a command, or says why there is none.
 */
import { probeSandbox, sandboxAvailability, type AvailabilityOptions, type SandboxKind } from './availability';
import { bwrapArguments } from './bwrap';
import { acquireHolds } from './holds';
import { buildPolicy, type SandboxPolicy } from './policy';
import { seatbeltArguments } from './seatbelt';
import { loadSandboxSettings, type SandboxSettings } from './settings';

export { knownSandboxAvailability, probeSandbox, sandboxAvailability, type Availability, type AvailabilityOptions, type SandboxKind } from './availability';
export { buildPolicy, SHELL_STARTUP_FILES, type SandboxPolicy } from './policy';
export { bwrapArguments } from './bwrap';
export { seatbeltProfile } from './seatbelt';
export { SandboxSetupError } from './holds';
export { refusalNote } from './refusal';
export { loadSandboxSettings, SandboxSettingsError, type SandboxSettings, type SandboxNetwork } from './settings';

export interface SandboxLaunch {
  kind: SandboxKind;
  /** The program to run, with `args` and then the command's own argv. */
  file: string;
  args: string[];
  policy: SandboxPolicy;
  /** Removes the placeholders made for this command; call once it has exited. */
  release(): void;
}

export type PreparedSandbox =
  | { state: 'on'; launch: SandboxLaunch }
  /** `sandbox.enabled: false` in settings: the person chose to run without one. */
  | { state: 'off' }
  /** Enabled, but none can run here: the command must not run unless a person approved it unsandboxed. */
  | { state: 'unavailable'; reason: string };

export interface SandboxOptions extends AvailabilityOptions {
  workspaceRoots: readonly string[];
  cwd: string;
  /** Where `~/.cove/settings.json` lives (`COVE_HOME`). */
  coveHome?: string;
  /** Already loaded settings; read from the settings files when absent. */
  settings?: SandboxSettings;
}

/**
 * Throws `SandboxSettingsError` for a malformed settings file and `SandboxSetupError` when a
 * protected path cannot be held; either way the command must not run.
 */
export function prepareSandbox(options: SandboxOptions): PreparedSandbox {
  const settings = options.settings ?? loadSandboxSettings({ workspaceRoots: options.workspaceRoots, coveHome: options.coveHome });
  if (!settings.enabled) return { state: 'off' };
  const availability = sandboxAvailability(options);
  if (!availability.available) return { state: 'unavailable', reason: availability.reason };
  const policy = buildPolicy({ workspaceRoots: options.workspaceRoots, cwd: options.cwd, settings });
  if (availability.kind === 'seatbelt') {
    return { state: 'on', launch: { kind: 'seatbelt', file: availability.binary, args: seatbeltArguments(policy), policy, release: () => {} } };
  }
  const holds = acquireHolds(policy);
  return {
    state: 'on',
    launch: { kind: 'bubblewrap', file: availability.binary, args: bwrapArguments(policy, holds), policy, release: holds.release },
  };
}

/**
 * For other commands run in the same sandbox (hooks: ../hooks/hook-sandbox.ts): `argv` wrapped,
 * or why not. With the sandbox off in settings, `argv` comes back as it is; when none can run,
 * the caller decides (a hook then does not run). Call `release` once the command has exited.
 */
export function sandboxArgv(
  argv: readonly [string, ...string[]],
  options: SandboxOptions,
): { state: 'on' | 'off'; file: string; args: string[]; release(): void } | { state: 'unavailable'; reason: string } {
  const prepared = prepareSandbox(options);
  if (prepared.state === 'unavailable') return prepared;
  if (prepared.state === 'off') return { state: 'off', file: argv[0], args: argv.slice(1), release: () => {} };
  const { launch } = prepared;
  return { state: 'on', file: launch.file, args: [...launch.args, ...argv], release: launch.release };
}

/**
 * Why bash must ask before every call, or null: the sandbox is enabled but none can run. Used by
 * the permission engine; the notice hosts show once comes from `sandboxNotice`.
 */
export function unsandboxedReason(options: Omit<SandboxOptions, 'cwd'>): string | null {
  let settings: SandboxSettings;
  try {
    settings = options.settings ?? loadSandboxSettings(options);
  } catch {
    // The bash call itself fails with the settings error; asking first adds nothing.
    return null;
  }
  if (!settings.enabled) return null;
  const availability = sandboxAvailability(options);
  if (availability.available) return null;
  return `no OS sandbox can run here (${availability.reason}), so every bash command is asked about; "sandbox": {"enabled": false} in settings runs bash without one`;
}

/** The one-time notice for hosts (CLI stderr, the UI), or null when the sandbox is working as configured. */
export function sandboxNotice(options: Omit<SandboxOptions, 'cwd'>): string | null {
  const settings = options.settings ?? loadSandboxSettings(options);
  if (!settings.enabled) return null;
  const availability = sandboxAvailability(options);
  if (!availability.available) {
    return `No OS sandbox can run for bash: ${availability.reason}. Every bash command will be asked about (denied in cove run); set "sandbox": {"enabled": false} in ~/.cove/settings.json to run bash unsandboxed without asking.`;
  }
  if (Array.isArray(settings.network)) {
    return `sandbox.network lists hosts (${settings.network.join(', ')}), but Cove cannot filter by host yet: bash runs with the network off. Use "all" to open it.`;
  }
  return null;
}

/** `sandboxNotice` once the background check (`probeSandbox`) has answered, so nothing waits for a synchronous one. */
export async function sandboxNoticeWhenKnown(options: Omit<SandboxOptions, 'cwd'>): Promise<string | null> {
  await probeSandbox(options);
  return sandboxNotice(options);
}

/** For a host's app information (the UI shows it as a banner): the notice, or a malformed setting's message. */
export async function hostSandboxNotice(coveHome: string): Promise<string | null> {
  await probeSandbox();
  try {
    return sandboxNotice({ workspaceRoots: [], coveHome });
  } catch (error) {
    return (error as Error).message;
  }
}
