/**
 * The `checkpoints` key of the settings files (SPEC §6's three files, later ones win):
 * `{"checkpoints": {"enabled": true, "required": true, "maxFileBytes": 5242880}}`. `required`
 * decides what happens when a checkpoint cannot be recorded: the call does not run (true, the
 * default) or runs with the failure reported (false). A malformed value stops the run, naming
 * the file: a person who asked for required checkpoints never silently gets none.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { SetupError } from '../errors';
import { DEFAULT_SIZE_CAP } from './shadow-repo';

export interface CheckpointSettings {
  enabled: boolean;
  required: boolean;
  /** Files larger than this are noted in the checkpoint, not copied. */
  maxFileBytes: number;
}

export const DEFAULT_CHECKPOINT_SETTINGS: CheckpointSettings = { enabled: true, required: true, maxFileBytes: DEFAULT_SIZE_CAP };

export class CheckpointSettingsError extends SetupError {}

function checkpointsKey(path: string): Record<string, unknown> | undefined {
  let text: string;
  try {
    text = readFileSync(path, 'utf8');
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
    throw new CheckpointSettingsError(`${path} cannot be read (${(error as Error).message})`);
  }
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch (error) {
    throw new CheckpointSettingsError(`${path} is not valid JSON: ${(error as Error).message}`);
  }
  const value = (parsed as Record<string, unknown> | null)?.checkpoints;
  if (value === undefined) return undefined;
  if (!value || typeof value !== 'object' || Array.isArray(value)) throw new CheckpointSettingsError(`${path}: "checkpoints" must be an object`);
  return value as Record<string, unknown>;
}

export function loadCheckpointSettings(coveHome: string, workspaceRoots: readonly string[]): CheckpointSettings {
  const files = [join(coveHome, 'settings.json'), ...workspaceRoots.flatMap((root) => [join(root, '.cove', 'settings.json'), join(root, '.cove', 'settings.local.json')])];
  const settings = { ...DEFAULT_CHECKPOINT_SETTINGS };
  for (const file of files) {
    const value = checkpointsKey(file);
    if (!value) continue;
    for (const key of ['enabled', 'required'] as const) {
      if (value[key] === undefined) continue;
      if (typeof value[key] !== 'boolean') throw new CheckpointSettingsError(`${file}: checkpoints.${key} must be true or false`);
      settings[key] = value[key];
    }
    if (value.maxFileBytes !== undefined) {
      const bytes = value.maxFileBytes;
      if (typeof bytes !== 'number' || !Number.isInteger(bytes) || bytes < 1) throw new CheckpointSettingsError(`${file}: checkpoints.maxFileBytes must be a whole number of bytes above 0`);
      settings.maxFileBytes = bytes;
    }
  }
  return settings;
}
