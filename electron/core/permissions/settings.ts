/**
 * Permission settings files (SPEC §6), merged in this order: `~/.cove/settings.json` (the data
 * directory, `COVE_HOME`), then for each workspace root its `.claude/settings.json` permissions,
 * `.cove/settings.json` and `.cove/settings.local.json`. Lists merge; `defaultMode` is taken from
 * the most specific file that sets one. A file that cannot be read or parsed, or that holds an
 * invalid rule, is an error naming the file (and the rule): never skipped as if it were empty.
 */
import { randomBytes } from 'node:crypto';
import { mkdirSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { dirname } from 'node:path';
import { mapClaudeRule } from './claude-settings';
import { isPermissionMode, parseRule, PERMISSION_MODES, type PermissionMode } from './rule-syntax';
import { localSettingsPath, readSettingsFiles, readSettingsObject, SettingsFileError, type SettingsFile } from '../settings/settings-files';

export { defaultCoveHome, localSettingsPath, SETTINGS_FILE } from '../settings/settings-files';

export interface RuleLists {
  allow: string[];
  ask: string[];
  deny: string[];
}

export interface SettingsSource {
  path: string;
  kind: 'user' | 'project' | 'local' | 'claude';
  /** Cove rules (a Claude file's rules already mapped). */
  rules: RuleLists;
  defaultMode?: PermissionMode;
}

export interface LoadedSettings {
  /** The files that exist, in merge order. */
  sources: SettingsSource[];
  /** What was skipped, each naming the file: Claude rules for tools Cove lacks, unknown keys. */
  warnings: string[];
  /** From the most specific file that sets it. */
  defaultMode: PermissionMode | undefined;
}

/** The settings module's error: one class for every settings file problem, whichever view found it. */
export const PermissionSettingsError = SettingsFileError;
export type PermissionSettingsError = SettingsFileError;

const LISTS = ['allow', 'ask', 'deny'] as const;
const KNOWN_KEYS = [...LISTS, 'defaultMode'];
const MODE_PRECEDENCE: Record<SettingsSource['kind'], number> = { claude: 0, user: 1, project: 2, local: 3 };

function permissionsOf(path: string, data: Record<string, unknown>): Record<string, unknown> {
  const permissions = data.permissions ?? {};
  if (typeof permissions !== 'object' || permissions === null || Array.isArray(permissions)) {
    throw new PermissionSettingsError(path, 'permissions must be an object with allow, ask and deny lists');
  }
  return permissions as Record<string, unknown>;
}

function ruleTexts(path: string, permissions: Record<string, unknown>, list: (typeof LISTS)[number]): string[] {
  const value = permissions[list] ?? [];
  if (!Array.isArray(value)) throw new PermissionSettingsError(path, `permissions.${list} must be a list of rules`);
  return value.map((rule, index) => {
    if (typeof rule !== 'string') throw new PermissionSettingsError(path, `permissions.${list}[${index}] must be a string`);
    return rule;
  });
}

function checkRule(path: string, where: string, rule: string): string {
  try {
    return parseRule(rule).text;
  } catch (error) {
    throw new PermissionSettingsError(path, `${where}: ${(error as Error).message}`);
  }
}

function readSource({ path, kind, data }: SettingsFile, warnings: string[]): SettingsSource | undefined {
  if (!data) return undefined;
  const permissions = permissionsOf(path, data);
  if (kind !== 'claude') {
    for (const key of Object.keys(permissions)) {
      if (!KNOWN_KEYS.includes(key)) warnings.push(`${path}: permissions.${key} is not a setting Cove knows (${KNOWN_KEYS.join(', ')}); it is ignored`);
    }
  }
  const rules: RuleLists = { allow: [], ask: [], deny: [] };
  for (const list of LISTS) {
    ruleTexts(path, permissions, list).forEach((text, index) => {
      const where = `permissions.${list}[${index}]`;
      if (kind !== 'claude') {
        rules[list].push(checkRule(path, where, text));
        return;
      }
      const mapped = mapClaudeRule(text);
      if (mapped.skipped) warnings.push(`${path}: skipped ${where} '${text}': ${mapped.skipped}`);
      for (const rule of mapped.rules) rules[list].push(checkRule(path, `${where} ('${text}')`, rule));
    });
  }
  const source: SettingsSource = { path, kind, rules };
  // Claude Code keeps defaultMode inside permissions; accept it there too rather than ignore it.
  const mode = data.defaultMode ?? permissions.defaultMode;
  if (kind !== 'claude' && mode !== undefined) {
    if (!isPermissionMode(mode)) {
      throw new PermissionSettingsError(path, `defaultMode must be one of ${PERMISSION_MODES.join(', ')} (got ${JSON.stringify(mode)})`);
    }
    // A workspace's files come with a clone, so like the sandbox they may only tighten: a
    // repository must not turn off every ask for whoever runs Cove in it.
    if (mode === 'bypass' && kind !== 'user') {
      throw new PermissionSettingsError(
        path,
        'defaultMode "bypass" turns every ask off; set it in your own settings.json in COVE_HOME or pass --permission-mode bypass, since a workspace\'s settings come with the project',
      );
    }
    source.defaultMode = mode;
  }
  return source;
}

/** The permission view of settings files already read (settings/settings-files.ts); throws `SettingsFileError` for the first bad one. */
export function permissionSettingsOf(files: readonly SettingsFile[]): LoadedSettings {
  const warnings: string[] = [];
  const sources = files.flatMap((file) => readSource(file, warnings) ?? []);
  let defaultMode: PermissionMode | undefined;
  let precedence = -1;
  for (const source of sources) {
    if (source.defaultMode && MODE_PRECEDENCE[source.kind] >= precedence) {
      defaultMode = source.defaultMode;
      precedence = MODE_PRECEDENCE[source.kind];
    }
  }
  return { sources, warnings, defaultMode };
}

/** Reads every settings file there is; throws `SettingsFileError` for the first bad one. */
export function loadPermissionSettings(options: { workspaceRoots: readonly string[]; coveHome?: string }): LoadedSettings {
  return permissionSettingsOf(readSettingsFiles(options));
}

/**
 * Adds `rule` to `permissions.allow` of `<root>/.cove/settings.local.json`, keeping everything
 * else in the file, through a temporary file and a rename so a crash never leaves half a file.
 * A malformed existing file is an error rather than something to overwrite. Returns the path.
 */
export function saveAlwaysRule(workspaceRoot: string, rule: string): string {
  const text = parseRule(rule).text;
  return updateRules(localSettingsPath(workspaceRoot), 'allow', (rules) => (rules.includes(text) ? rules : [...rules, text]), `save the rule ${text}`);
}

/**
 * Rewrites one list of a settings file atomically, keeping every other key (a user settings
 * file also holds the model and hooks). A malformed existing file is an error, never overwritten.
 */
export function updateRules(path: string, list: keyof RuleLists, change: (rules: string[]) => string[], action: string): string {
  // A copy: what the settings reader parsed is shared by every view and stays as it was read.
  const data: Record<string, unknown> = structuredClone(readSettingsObject(path) ?? {});
  const permissions = permissionsOf(path, data);
  const before = ruleTexts(path, permissions, list);
  const after = change(before);
  if (after.length === before.length && after.every((rule, index) => rule === before[index])) return path;
  data.permissions = { ...permissions, [list]: after };
  mkdirSync(dirname(path), { recursive: true });
  const temporary = `${path}.${process.pid}.${randomBytes(4).toString('hex')}.tmp`;
  try {
    writeFileSync(temporary, `${JSON.stringify(data, null, 2)}\n`);
    renameSync(temporary, path);
  } catch (error) {
    rmSync(temporary, { force: true });
    throw new PermissionSettingsError(path, `could not ${action} (${(error as Error).message})`);
  }
  return path;
}
