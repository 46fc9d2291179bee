/**
 * The `checkpoints` key of the settings files (a view of the settings module, later files win):
 * `{"checkpoints": {"enabled": true, "required": true, "maxFileBytes": 5242880}}`. `required`
 * decides what happens when a checkpoint cannot be recorded: the call does not run (true, the
 * default) or runs with the failure reported (false). A malformed value stops the run, naming
 * the file: a person who asked for required checkpoints never silently gets none.
 */
import { readSettingsFiles, SettingsFileError, type SettingsFile } from '../settings/settings-files';
import { DEFAULT_SIZE_CAP } from './shadow-repo';

export interface CheckpointSettings {
  enabled: boolean;
  required: boolean;
  /** Files larger than this are noted in the checkpoint, not copied. */
  maxFileBytes: number;
}

export const DEFAULT_CHECKPOINT_SETTINGS: CheckpointSettings = { enabled: true, required: true, maxFileBytes: DEFAULT_SIZE_CAP };

/** The merged `checkpoints` of Cove's own files (Claude Code's file has no say in Cove's keys). */
export function checkpointSettingsOf(files: readonly SettingsFile[]): CheckpointSettings {
  const settings = { ...DEFAULT_CHECKPOINT_SETTINGS };
  for (const file of files) {
    if (file.kind === 'claude') continue;
    const value = file.data?.checkpoints;
    if (value === undefined) continue;
    if (!value || typeof value !== 'object' || Array.isArray(value)) throw new SettingsFileError(file.path, 'checkpoints must be an object like {"required": true}');
    const fields = value as Record<string, unknown>;
    for (const key of ['enabled', 'required'] as const) {
      if (fields[key] === undefined) continue;
      if (typeof fields[key] !== 'boolean') throw new SettingsFileError(file.path, `checkpoints.${key} must be true or false`);
      settings[key] = fields[key];
    }
    if (fields.maxFileBytes !== undefined) {
      const bytes = fields.maxFileBytes;
      if (typeof bytes !== 'number' || !Number.isInteger(bytes) || bytes < 1) throw new SettingsFileError(file.path, 'checkpoints.maxFileBytes must be a whole number of bytes above 0');
      settings.maxFileBytes = bytes;
    }
  }
  return settings;
}

export function loadCheckpointSettings(coveHome: string, workspaceRoots: readonly string[]): CheckpointSettings {
  return checkpointSettingsOf(readSettingsFiles({ coveHome, workspaceRoots }));
}
