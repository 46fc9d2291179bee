/**
 * The `sandbox` key of the settings files of SPEC §6 (`~/.cove/settings.json`, then each root's
 * `.cove/settings.json` and `.cove/settings.local.json`):
 * `{"sandbox": {"enabled": true, "network": "none" | "all" | ["host", …], "writable": ["path", …]}}`.
 * Read here rather than in the permission settings reader so the two merge independently:
 * `enabled` and `network` come from the most specific file that sets them, `writable` lists
 * merge; a workspace's files may only tighten what the person's own file allows. A malformed value is an error naming the file and the reason, never a silent default,
 * because a typo in `enabled` or `network` must not quietly open or close the sandbox.
 */
import { readFileSync } from 'node:fs';
import { homedir } from 'node:os';
import { isAbsolute, join, resolve } from 'node:path';
import { SetupError } from '../errors';
import { isInside } from './policy';

export type SandboxNetwork = 'none' | 'all' | readonly string[];

export interface SandboxSettings {
  enabled: boolean;
  network: SandboxNetwork;
  /** Absolute paths beyond the roots and the temp folder where bash may write. */
  writable: string[];
}

export class SandboxSettingsError extends SetupError {
  constructor(
    readonly path: string,
    problem: string,
  ) {
    super(`${path}: ${problem}`);
  }
}

export const DEFAULT_SANDBOX_SETTINGS: SandboxSettings = { enabled: true, network: 'none', writable: [] };

const KNOWN_KEYS = ['enabled', 'network', 'writable'];
/** A host name or `*.domain`, as a host list names them; no scheme, path or port. */
const HOST = /^(?:\*\.)?[a-z0-9](?:[a-z0-9-]*[a-z0-9])?(?:\.[a-z0-9](?:[a-z0-9-]*[a-z0-9])?)*$/i;

function coveHomeOf(coveHome: string | undefined): string {
  if (coveHome) return coveHome;
  const fromEnv = process.env.COVE_HOME;
  return fromEnv && fromEnv.trim() ? fromEnv : join(homedir(), '.cove');
}

/** The settings files in merge order, least specific first. */
export function sandboxSettingsFiles(workspaceRoots: readonly string[], coveHome?: string): string[] {
  const files = [join(coveHomeOf(coveHome), 'settings.json')];
  for (const root of workspaceRoots) files.push(join(root, '.cove', 'settings.json'), join(root, '.cove', 'settings.local.json'));
  return files;
}

function readSandboxKey(path: string): unknown {
  let text: string;
  try {
    text = readFileSync(path, 'utf8');
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
    throw new SandboxSettingsError(path, `cannot be read (${(error as Error).message})`);
  }
  let data: unknown;
  try {
    data = JSON.parse(text);
  } catch (error) {
    throw new SandboxSettingsError(path, `is not valid JSON (${(error as Error).message})`);
  }
  if (typeof data !== 'object' || data === null || Array.isArray(data)) return undefined;
  return (data as Record<string, unknown>).sandbox;
}

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
export function readSandboxSource(path: string, base: string): SandboxSettingsSource | undefined {
  const value = readSandboxKey(path);
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

/** The merged sandbox settings; throws `SandboxSettingsError` naming the first bad file. */
export function loadSandboxSettings(options: { workspaceRoots: readonly string[]; coveHome?: string }): SandboxSettings {
  const merged: SandboxSettings = { ...DEFAULT_SANDBOX_SETTINGS, writable: [] };
  const [userFile, ...workspaceFiles] = sandboxSettingsFiles(options.workspaceRoots, options.coveHome);
  for (const path of [userFile!, ...workspaceFiles]) {
    const base = resolve(path, '..', '..');
    const source = readSandboxSource(path, base);
    if (!source) continue;
    if (path !== userFile) refuseLoosening(source, merged, base, userFile!);
    if (source.enabled !== undefined) merged.enabled = source.enabled;
    if (source.network !== undefined) merged.network = source.network;
    merged.writable.push(...source.writable.filter((entry) => !merged.writable.includes(entry)));
  }
  return merged;
}
