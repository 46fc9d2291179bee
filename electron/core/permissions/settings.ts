/**
 * Permission settings files (SPEC §6), merged in this order: `~/.cove/settings.json` (the data
 * directory, `COVE_HOME`), then for each workspace root its `.claude/settings.json` permissions,
 * `.cove/settings.json` and `.cove/settings.local.json`. Lists merge; `defaultMode` is taken from
 * the most specific file that sets one. A file that cannot be read or parsed, or that holds an
 * invalid rule, is an error naming the file (and the rule): never skipped as if it were empty.
 */
import { randomBytes } from 'node:crypto';
import { mkdirSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { homedir } from 'node:os';
import { join } from 'node:path';
import { mapClaudeRule } from './claude-settings';
import { isPermissionMode, parseRule, PERMISSION_MODES, type PermissionMode } from './rule-syntax';
import { SetupError } from '../errors';

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

export class PermissionSettingsError extends SetupError {
  constructor(
    readonly path: string,
    problem: string,
  ) {
    super(`${path}: ${problem}`);
    this.name = 'PermissionSettingsError';
  }
}

const LISTS = ['allow', 'ask', 'deny'] as const;
const KNOWN_KEYS = [...LISTS, 'defaultMode'];
export const SETTINGS_FILE = 'settings.json';
const MODE_PRECEDENCE: Record<SettingsSource['kind'], number> = { claude: 0, user: 1, project: 2, local: 3 };

/** `COVE_HOME`, or `~/.cove`: where the user's settings.json lives. */
export function defaultCoveHome(): string {
  const home = process.env.COVE_HOME;
  return home && home.trim() ? home : join(homedir(), '.cove');
}

export function localSettingsPath(workspaceRoot: string): string {
  return join(workspaceRoot, '.cove', 'settings.local.json');
}

/** The parsed JSON object in `path`, or undefined when there is no such file. */
function readObject(path: string): Record<string, unknown> | undefined {
  let text: string;
  try {
    text = readFileSync(path, 'utf8');
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
    throw new PermissionSettingsError(path, `cannot be read (${(error as Error).message})`);
  }
  let data: unknown;
  try {
    data = JSON.parse(text);
  } catch (error) {
    throw new PermissionSettingsError(path, `is not valid JSON (${(error as Error).message})`);
  }
  if (typeof data !== 'object' || data === null || Array.isArray(data)) {
    throw new PermissionSettingsError(path, 'must hold a JSON object, like {"permissions": {"allow": [], "ask": [], "deny": []}}');
  }
  return data as Record<string, unknown>;
}

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

function readSource(path: string, kind: SettingsSource['kind'], warnings: string[]): SettingsSource | undefined {
  const data = readObject(path);
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
    source.defaultMode = mode;
  }
  return source;
}

/** Reads every settings file there is; throws `PermissionSettingsError` for the first bad one. */
export function loadPermissionSettings(options: { workspaceRoots: readonly string[]; coveHome?: string }): LoadedSettings {
  const warnings: string[] = [];
  const candidates: Array<[string, SettingsSource['kind']]> = [[join(options.coveHome ?? defaultCoveHome(), SETTINGS_FILE), 'user']];
  for (const root of options.workspaceRoots) {
    candidates.push(
      [join(root, '.claude', SETTINGS_FILE), 'claude'],
      [join(root, '.cove', SETTINGS_FILE), 'project'],
      [localSettingsPath(root), 'local'],
    );
  }
  const sources = candidates.flatMap(([path, kind]) => readSource(path, kind, warnings) ?? []);
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

/**
 * Adds `rule` to `permissions.allow` of `<root>/.cove/settings.local.json`, keeping everything
 * else in the file, through a temporary file and a rename so a crash never leaves half a file.
 * A malformed existing file is an error rather than something to overwrite. Returns the path.
 */
export function saveAlwaysRule(workspaceRoot: string, rule: string): string {
  const text = parseRule(rule).text;
  return updateLocalRules(workspaceRoot, 'allow', (rules) => (rules.includes(text) ? rules : [...rules, text]), `save the rule ${text}`);
}

/** Deletes a rule from `<root>/.cove/settings.local.json` (a saved grant the person no longer wants). */
export function removeLocalRule(workspaceRoot: string, list: keyof RuleLists, rule: string): string {
  return updateLocalRules(workspaceRoot, list, (rules) => rules.filter((existing) => existing !== rule), `remove the rule ${rule}`);
}

/** Rewrites one list of the local settings file atomically, keeping every other key. */
function updateLocalRules(workspaceRoot: string, list: keyof RuleLists, change: (rules: string[]) => string[], action: string): string {
  const path = localSettingsPath(workspaceRoot);
  const data = readObject(path) ?? {};
  const permissions = permissionsOf(path, data);
  const before = ruleTexts(path, permissions, list);
  const after = change(before);
  if (after.length === before.length && after.every((rule, index) => rule === before[index])) return path;
  data.permissions = { ...permissions, [list]: after };
  mkdirSync(join(workspaceRoot, '.cove'), { recursive: true });
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
