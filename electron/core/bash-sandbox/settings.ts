/**
 * The `sandbox` key of the settings files of SPEC §6 (`~/.cove/settings.json`, then each root's
 * `.cove/settings.json` and `.cove/settings.local.json`):
 * `{"sandbox": {"enabled": true, "network": "none" | "all" | ["host", …], "writable": ["path", …]}}`.
 * A view of what the settings module read (settings/settings-files.ts), merged on its own terms:
 * `enabled` and `network` come from the most specific file that sets them, `writable` lists
 * merge; a workspace's files may only tighten what the person's own file allows. A malformed
 * value is an error naming the file and the reason, never a silent default,
 * because a typo in `enabled` or `network` must not quietly open or close the sandbox.
 */
import { homedir } from 'node:os';
import { isAbsolute, join, resolve } from 'node:path';
import { readSettingsFiles, SettingsFileError, type SettingsFile } from '../settings/settings-files';
import { isInside } from './policy';

export type SandboxNetwork = 'none' | 'all' | readonly string[];

export interface SandboxSettings {
  enabled: boolean;
  network: SandboxNetwork;
  /** Absolute paths beyond the roots and the temp folder where bash may write. */
  writable: string[];
}

/** The settings module's error: one class for every settings file problem, whichever view found it. */
export const SandboxSettingsError = SettingsFileError;
export type SandboxSettingsError = SettingsFileError;

export const DEFAULT_SANDBOX_SETTINGS: SandboxSettings = { enabled: true, network: 'none', writable: [] };

const KNOWN_KEYS = ['enabled', 'network', 'writable'];
/** A host name or `*.domain`, as a host list names them; no scheme, path or port. */
const HOST = /^(?:\*\.)?[a-z0-9](?:[a-z0-9-]*[a-z0-9])?(?:\.[a-z0-9](?:[a-z0-9-]*[a-z0-9])?)*$/i;

function parseNetwork(path: string, value: unknown): SandboxNetwork {
  if (value === 'none' || value === 'all') return value;
  if (Array.isArray(value)) {
    return value.map((host, index) => {
      if (typeof host !== 'string' || !HOST.test(host)) {
        throw new SandboxSettingsError(path, `sandbox.network[${index}] must be a host name like "registry.npmjs.org" or "*.github.com" (got ${JSON.stringify(host)})`);
      }
      return host.toLowerCase();
    });
  }
  throw new SandboxSettingsError(path, `sandbox.network must be "none", "all" or a list of host names (got ${JSON.stringify(value)})`);
}

/** Relative writable paths start at the folder that holds the `.cove` folder (or COVE_HOME's parent). */
function parseWritable(path: string, value: unknown, base: string): string[] {
  if (!Array.isArray(value)) throw new SandboxSettingsError(path, `sandbox.writable must be a list of paths (got ${JSON.stringify(value)})`);
  return value.map((entry, index) => {
    if (typeof entry !== 'string' || entry.trim() === '' || entry.includes('\0')) {
      throw new SandboxSettingsError(path, `sandbox.writable[${index}] must be a non-empty path (got ${JSON.stringify(entry)})`);
    }
    if (entry === '~' || entry.startsWith('~/')) return join(homedir(), entry.slice(1));
    return isAbsolute(entry) ? resolve(entry) : resolve(base, entry);
  });
}

export interface SandboxSettingsSource {
  path: string;
  enabled?: boolean;
  network?: SandboxNetwork;
  writable: string[];
}

/** One file's `sandbox` key, checked; undefined when the file or the key is absent. */
function sandboxSourceOf(path: string, value: unknown, base: string): SandboxSettingsSource | undefined {
  if (value === undefined) return undefined;
  if (typeof value !== 'object' || value === null || Array.isArray(value)) {
    throw new SandboxSettingsError(path, `sandbox must be an object like {"enabled": true, "network": "none", "writable": []} (got ${JSON.stringify(value)})`);
  }
  const fields = value as Record<string, unknown>;
  const unknown = Object.keys(fields).filter((key) => !KNOWN_KEYS.includes(key));
  if (unknown.length > 0) {
    throw new SandboxSettingsError(path, `sandbox.${unknown[0]} is not a sandbox setting (known: ${KNOWN_KEYS.join(', ')})`);
  }
  const source: SandboxSettingsSource = { path, writable: [] };
  if (fields.enabled !== undefined) {
    if (typeof fields.enabled !== 'boolean') throw new SandboxSettingsError(path, `sandbox.enabled must be true or false (got ${JSON.stringify(fields.enabled)})`);
    source.enabled = fields.enabled;
  }
  if (fields.network !== undefined) source.network = parseNetwork(path, fields.network);
  if (fields.writable !== undefined) source.writable = parseWritable(path, fields.writable, base);
  return source;
}

/**
 * A workspace's own files come with a clone, so they may tighten the sandbox but not loosen it:
 * turning it off, opening the network or writing outside that workspace is for the person's
 * own settings. Refused loudly rather than ignored, so a project that needs it says why it stops.
 */
function refuseLoosening(source: SandboxSettingsSource, current: SandboxSettings, root: string, userFile: string): void {
  const move = `set it in your own ${userFile} instead, since a workspace's settings come with the project`;
  if (source.enabled === false && current.enabled) throw new SandboxSettingsError(source.path, `sandbox.enabled false turns the bash sandbox off; ${move}`);
  if (source.network !== undefined && opensMore(source.network, current.network)) {
    throw new SandboxSettingsError(source.path, `sandbox.network ${JSON.stringify(source.network)} opens the network further than your settings do; ${move}`);
  }
  const outside = source.writable.find((path) => !isInside(path, root));
  if (outside !== undefined) throw new SandboxSettingsError(source.path, `sandbox.writable names a folder outside this workspace; ${move}`);
}

function opensMore(network: SandboxNetwork, than: SandboxNetwork): boolean {
  if (network === 'none' || than === 'all') return false;
  if (network === 'all' || than === 'none') return true;
  return network.some((host) => !than.includes(host));
}

/** The merged sandbox settings; throws `SettingsFileError` naming the first bad file. */
export function loadSandboxSettings(options: { workspaceRoots: readonly string[]; coveHome?: string }): SandboxSettings {
  return sandboxSettingsOf(readSettingsFiles(options));
}

/**
 * The sandbox view of settings files already read (settings/settings-files.ts). A Claude Code
 * file has no say: its sandbox settings are Claude's, in another shape.
 */
export function sandboxSettingsOf(files: readonly SettingsFile[]): SandboxSettings {
  const merged: SandboxSettings = { ...DEFAULT_SANDBOX_SETTINGS, writable: [] };
  const user = files.find((file) => file.kind === 'user');
  for (const file of files) {
    if (file.kind === 'claude') continue;
    // Relative writable paths start at the folder that holds the `.cove` folder (or COVE_HOME's parent).
    const base = resolve(file.path, '..', '..');
    const source = sandboxSourceOf(file.path, file.data?.sandbox, base);
    if (!source) continue;
    if (file.kind !== 'user') refuseLoosening(source, merged, base, user?.path ?? 'settings.json');
    if (source.enabled !== undefined) merged.enabled = source.enabled;
    if (source.network !== undefined) merged.network = source.network;
    merged.writable.push(...source.writable.filter((entry) => !merged.writable.includes(entry)));
  }
  return merged;
}
