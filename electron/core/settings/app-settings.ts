/**
 * The keys of settings files that are Cove's own rather than a subsystem's: the model, the
 * subagent limit and the secret file globs (permissions, hooks and the sandbox have their
 * views beside their code). `readAppSettings` is the person's own file alone, what the Settings
 * screen shows and edits; `workspace-settings.ts` merges every file of a workspace. Writes keep
 * every other key and are atomic, so a crash never leaves half a file.
 */
import { mkdirSync, renameSync, writeFileSync } from 'node:fs';
import { DEFAULT_MODEL } from '../agent/pricing';
import { PERMISSION_MODES, type PermissionMode } from '../permissions/rule-syntax';
import { readSettingsObject, SettingsFileError, userSettingsPath } from './settings-files';

export interface AppSettings {
  model: string;
  defaultMode: PermissionMode;
  /** How many subagents of one session may run at once (`subagents.maxConcurrent`, default 4). */
  maxSubagents: number;
}

export const DEFAULT_MAX_SUBAGENTS = 4;

export function settingsPath(dataDir: string): string {
  return userSettingsPath(dataDir);
}

/** `model`: a non-empty string, trimmed; undefined when the file does not set it. */
export function modelOf(path: string, data: Readonly<Record<string, unknown>> | undefined): string | undefined {
  const model = data?.model;
  if (model === undefined) return undefined;
  if (typeof model !== 'string' || model.trim() === '') throw new SettingsFileError(path, `model must be a model id like "${DEFAULT_MODEL}" (got ${JSON.stringify(model)})`);
  return model.trim();
}

/** `subagents.maxConcurrent`: a whole number from 1 to 32; undefined when unset. */
export function maxSubagentsOf(path: string, data: Readonly<Record<string, unknown>> | undefined): number | undefined {
  const subagents = data?.subagents;
  if (subagents === undefined) return undefined;
  if (typeof subagents !== 'object' || subagents === null || Array.isArray(subagents)) {
    throw new SettingsFileError(path, `subagents must be an object like {"maxConcurrent": ${DEFAULT_MAX_SUBAGENTS}}`);
  }
  const value = (subagents as { maxConcurrent?: unknown }).maxConcurrent;
  if (value === undefined) return undefined;
  if (typeof value !== 'number' || !Number.isInteger(value) || value < 1 || value > 32) {
    throw new SettingsFileError(path, `subagents.maxConcurrent must be a whole number from 1 to 32 (got ${JSON.stringify(value)})`);
  }
  return value;
}

/** `secrets.files`: more secret files, as globs relative to each workspace root. */
export function secretFilesOf(path: string, data: Readonly<Record<string, unknown>> | undefined): string[] {
  const secrets = data?.secrets;
  if (secrets === undefined) return [];
  if (typeof secrets !== 'object' || secrets === null || Array.isArray(secrets)) {
    throw new SettingsFileError(path, 'secrets must be an object like {"files": ["config/credentials.yml"]}');
  }
  const unknown = Object.keys(secrets).filter((key) => key !== 'files');
  if (unknown.length > 0) throw new SettingsFileError(path, `secrets.${unknown[0]} is not a secrets setting (known: files)`);
  const files = (secrets as { files?: unknown }).files ?? [];
  if (!Array.isArray(files)) throw new SettingsFileError(path, `secrets.files must be a list of globs (got ${JSON.stringify(files)})`);
  return files.map((glob, index) => {
    if (typeof glob !== 'string' || glob.trim() === '') throw new SettingsFileError(path, `secrets.files[${index}] must be a non-empty glob like "*.secret" (got ${JSON.stringify(glob)})`);
    return glob.trim();
  });
}

function defaultModeOf(path: string, data: Readonly<Record<string, unknown>> | undefined): PermissionMode | undefined {
  const mode = data?.defaultMode;
  if (mode === undefined) return undefined;
  if (!(PERMISSION_MODES as readonly unknown[]).includes(mode)) {
    throw new SettingsFileError(path, `defaultMode must be one of ${PERMISSION_MODES.join(', ')} (got ${JSON.stringify(mode)})`);
  }
  return mode as PermissionMode;
}

/** The person's own `COVE_HOME/settings.json`; a bad file or field throws `SettingsFileError`. */
export function readAppSettings(dataDir: string): AppSettings {
  const path = settingsPath(dataDir);
  const data = readSettingsObject(path);
  return {
    model: modelOf(path, data) ?? DEFAULT_MODEL,
    defaultMode: defaultModeOf(path, data) ?? 'default',
    maxSubagents: maxSubagentsOf(path, data) ?? DEFAULT_MAX_SUBAGENTS,
  };
}

export function writeAppSettings(dataDir: string, patch: Partial<Omit<AppSettings, 'maxSubagents'>>): AppSettings {
  const path = settingsPath(dataDir);
  // A copy: what the settings reader parsed is shared by every view and stays as it was read.
  const raw: Record<string, unknown> = structuredClone(readSettingsObject(path) ?? {});
  if (patch.model !== undefined) raw.model = patch.model;
  if (patch.defaultMode !== undefined) raw.defaultMode = patch.defaultMode;
  mkdirSync(dataDir, { recursive: true, mode: 0o700 });
  const temporary = `${path}.${process.pid}.tmp`;
  writeFileSync(temporary, `${JSON.stringify(raw, null, 2)}\n`, { mode: 0o600 });
  renameSync(temporary, path);
  return readAppSettings(dataDir);
}
