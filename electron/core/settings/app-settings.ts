/**
 * Cove's own settings in `COVE_HOME/settings.json` (the same file holds the person's permission
 * rules, SPEC §6): the default model and permission mode. Writes keep every other key and are
 * atomic, so a crash never leaves half a file.
 */
import { mkdirSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { DEFAULT_MODEL } from '../agent/pricing';
import { PERMISSION_MODES, type PermissionMode } from '../permissions/rule-syntax';
import { SetupError } from '../errors';

export interface AppSettings {
  model: string;
  defaultMode: PermissionMode;
  /** How many subagents of one session may run at once (`subagents.maxConcurrent`, default 4). */
  maxSubagents: number;
}

export class SettingsFileError extends SetupError {}

export function settingsPath(dataDir: string): string {
  return join(dataDir, 'settings.json');
}

function readJson(path: string): Record<string, unknown> {
  let text: string;
  try {
    text = readFileSync(path, 'utf8');
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return {};
    throw new SettingsFileError(`${path}: ${(error as Error).message}`);
  }
  try {
    const value: unknown = JSON.parse(text);
    if (!value || typeof value !== 'object' || Array.isArray(value)) throw new Error('the top level must be an object');
    return value as Record<string, unknown>;
  } catch (error) {
    throw new SettingsFileError(`${path} is not valid JSON: ${(error as Error).message}`);
  }
}

export function readAppSettings(dataDir: string): AppSettings {
  const raw = readJson(settingsPath(dataDir));
  const model = typeof raw.model === 'string' && raw.model.trim() ? raw.model.trim() : DEFAULT_MODEL;
  const mode = raw.defaultMode;
  if (mode !== undefined && !(PERMISSION_MODES as readonly unknown[]).includes(mode)) {
    throw new SettingsFileError(`${settingsPath(dataDir)}: defaultMode must be one of ${PERMISSION_MODES.join(', ')}`);
  }
  const subagents = raw.subagents as { maxConcurrent?: unknown } | undefined;
  const maxSubagents = subagents?.maxConcurrent ?? 4;
  if (typeof maxSubagents !== 'number' || !Number.isInteger(maxSubagents) || maxSubagents < 1 || maxSubagents > 32) {
    throw new SettingsFileError(`${settingsPath(dataDir)}: subagents.maxConcurrent must be a whole number from 1 to 32`);
  }
  return { model, defaultMode: (mode as PermissionMode | undefined) ?? 'default', maxSubagents };
}

export function writeAppSettings(dataDir: string, patch: Partial<Omit<AppSettings, 'maxSubagents'>>): AppSettings {
  const path = settingsPath(dataDir);
  const raw = readJson(path);
  if (patch.model !== undefined) raw.model = patch.model;
  if (patch.defaultMode !== undefined) raw.defaultMode = patch.defaultMode;
  mkdirSync(dataDir, { recursive: true, mode: 0o700 });
  const temporary = `${path}.${process.pid}.tmp`;
  writeFileSync(temporary, `${JSON.stringify(raw, null, 2)}\n`, { mode: 0o600 });
  renameSync(temporary, path);
  return readAppSettings(dataDir);
}
