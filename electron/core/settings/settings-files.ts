/**
 * The one reader of Cove's settings files (SPEC §6): `COVE_HOME/settings.json`, then for each
 * workspace root its `.claude/settings.json`, `.cove/settings.json` and
 * `.cove/settings.local.json`. Permissions, hooks, the bash sandbox, the model, the default
 * mode and the secret globs are typed views of what this module read (see settings-views.ts);
 * none of them opens a settings file itself.
 *
 * Each file is parsed once per change: a read that finds the same text as the last parse
 * returns what was parsed then. Comparing text rather than modification times, because those
 * are coarse (a jiffy on Linux) and two quick writes of the same size would look unchanged. So
 * a permission gate, a hook reload and a sandbox check within one run share one parse, and a
 * saved rule or an edited file is seen at the next ask.
 */
import { readFileSync } from 'node:fs';
import { homedir } from 'node:os';
import { join } from 'node:path';
import { SetupError } from '../errors';

export type SettingsFileKind = 'user' | 'claude' | 'project' | 'local';

export interface SettingsFile {
  path: string;
  kind: SettingsFileKind;
  /** The workspace root a workspace file belongs to. */
  root?: string;
  /** The file's JSON object; absent when there is no such file. */
  data?: Record<string, unknown>;
}

/** A settings file that cannot be read or parsed, or whose field is wrong: names the file, then the field. */
export class SettingsFileError extends SetupError {
  constructor(
    readonly path: string,
    problem: string,
  ) {
    super(`${path}: ${problem}`);
    this.name = 'SettingsFileError';
  }
}

export const SETTINGS_FILE = 'settings.json';

/** `COVE_HOME`, or `~/.cove`: where the person's own settings.json lives. */
export function defaultCoveHome(): string {
  const home = process.env.COVE_HOME;
  return home && home.trim() ? home : join(homedir(), '.cove');
}

export function userSettingsPath(coveHome: string): string {
  return join(coveHome, SETTINGS_FILE);
}

export function localSettingsPath(workspaceRoot: string): string {
  return join(workspaceRoot, '.cove', 'settings.local.json');
}

/** Every settings file of these roots, least specific first: the merge order of SPEC §6. */
export function settingsFileList(coveHome: string, workspaceRoots: readonly string[]): Array<Omit<SettingsFile, 'data'>> {
  const files: Array<Omit<SettingsFile, 'data'>> = [{ path: userSettingsPath(coveHome), kind: 'user' }];
  for (const root of workspaceRoots) {
    files.push(
      { path: join(root, '.claude', SETTINGS_FILE), kind: 'claude', root },
      { path: join(root, '.cove', SETTINGS_FILE), kind: 'project', root },
      { path: localSettingsPath(root), kind: 'local', root },
    );
  }
  return files;
}

interface Parsed {
  text: string;
  data: Record<string, unknown>;
}

const parsed = new Map<string, Parsed>();

/** The JSON object in `path`, or undefined when there is no such file; a bad file throws `SettingsFileError`. */
export function readSettingsObject(path: string): Record<string, unknown> | undefined {
  let text: string;
  try {
    text = readFileSync(path, 'utf8');
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') {
      parsed.delete(path);
      return undefined;
    }
    throw new SettingsFileError(path, `cannot be read (${(error as Error).message})`);
  }
  const known = parsed.get(path);
  if (known && known.text === text) return known.data;
  let data: unknown;
  try {
    data = JSON.parse(text);
  } catch (error) {
    throw new SettingsFileError(path, `is not valid JSON (${(error as Error).message})`);
  }
  if (typeof data !== 'object' || data === null || Array.isArray(data)) {
    throw new SettingsFileError(path, 'must hold a JSON object, like {"permissions": {"allow": [], "ask": [], "deny": []}}');
  }
  // Views share this object: freezing it keeps one view from changing what another reads.
  const frozen = Object.freeze(data as Record<string, unknown>);
  parsed.set(path, { text, data: frozen });
  return frozen;
}

/** Every settings file of the roots, read now (each parsed once per change); throws for the first bad one. */
export function readSettingsFiles(options: { coveHome?: string; workspaceRoots: readonly string[] }): SettingsFile[] {
  return settingsFileList(options.coveHome ?? defaultCoveHome(), options.workspaceRoots).map((file) => {
    const data = readSettingsObject(file.path);
    return data ? { ...file, data } : file;
  });
}
