/**
 * Every settings file of a session's workspaces, read once, with a typed view for each part of
 * Cove that is configured by them. Every host asks here, so `cove run`, `cove serve` and the
 * desktop app decide the same model, mode, rules, hooks, sandbox and secret files for the same
 * workspace. Views are computed when asked for, so a bad hook entry stops what runs hooks, not
 * the creation of a session; each throws `SettingsFileError` naming the file and the field.
 */
import { DEFAULT_MODEL } from '../agent/pricing';
import { sandboxSettingsOf, type SandboxSettings } from '../bash-sandbox/settings';
import { hooksOf, type HookEntry } from '../hooks/hook-config';
import { permissionSettingsOf, type LoadedSettings } from '../permissions/settings';
import type { PermissionMode } from '../permissions/rule-syntax';
import { DEFAULT_MAX_SUBAGENTS, maxSubagentsOf, modelOf, secretFilesOf } from './app-settings';
import { readSettingsFiles, type SettingsFile } from './settings-files';

export interface WorkspaceSettings {
  readonly files: readonly SettingsFile[];
  /** Rules of every file in merge order, and `defaultMode` from the most specific file that sets one. */
  permissions(): LoadedSettings;
  hooks(warnings?: string[]): HookEntry[];
  sandbox(): SandboxSettings;
  /** The most specific Cove file's `model`, else the default model. */
  model(): string;
  defaultMode(): PermissionMode;
  /** The person's own `subagents.maxConcurrent` (a project does not raise what runs at once). */
  maxSubagents(): number;
  /** `secrets.files` of every Cove file: adding a secret glob only redacts more, so a project may. */
  secretFiles(): string[];
  /** Keys that are ignored, each naming its file (see `ignoredKeys`). */
  warnings(): string[];
}

/** Every top-level key Cove reads, and whether a workspace's own files may set it. */
const KEYS: Record<string, 'any' | 'user'> = {
  permissions: 'any',
  defaultMode: 'any',
  model: 'any',
  sandbox: 'any',
  hooks: 'any',
  secrets: 'any',
  checkpoints: 'any',
  subagents: 'user',
  enabledMcpjsonServers: 'user',
  enableAllProjectMcpServers: 'user',
  windowsShell: 'user',
  // Editors' JSON schema hint, as in Claude Code's files.
  $schema: 'any',
};

/**
 * What Cove ignores in its own files, each naming the file: a misspelt key, or a key only the
 * person's own file may set. A Claude Code file holds Claude's other settings and is not judged.
 */
function ignoredKeys(files: readonly SettingsFile[]): string[] {
  const warnings: string[] = [];
  for (const file of coveFiles(files)) {
    for (const key of Object.keys(file.data ?? {})) {
      const who = KEYS[key];
      if (who === undefined) warnings.push(`${file.path}: ${key} is not a Cove setting (${Object.keys(KEYS).join(', ')}); it is ignored`);
      else if (who === 'user' && file.kind !== 'user')
        warnings.push(`${file.path}: ${key} is read only from your own settings.json in COVE_HOME, since a workspace's settings come with the project; it is ignored here`);
    }
  }
  return warnings;
}

export interface SessionDefaults {
  model: string;
  permissionMode: PermissionMode;
}

/** What settings files say when they are read: Claude Code's own file has no say in Cove's keys. */
function coveFiles(files: readonly SettingsFile[]): SettingsFile[] {
  return files.filter((file) => file.kind !== 'claude');
}

export function workspaceSettingsOf(files: readonly SettingsFile[]): WorkspaceSettings {
  let permissions: LoadedSettings | undefined;
  const view: WorkspaceSettings = {
    files,
    permissions: () => (permissions ??= permissionSettingsOf(files)),
    hooks: (warnings) => hooksOf(files, warnings),
    sandbox: () => sandboxSettingsOf(files),
    model() {
      let model = DEFAULT_MODEL;
      for (const file of coveFiles(files)) model = modelOf(file.path, file.data) ?? model;
      return model;
    },
    defaultMode: () => view.permissions().defaultMode ?? 'default',
    maxSubagents() {
      const user = files.find((file) => file.kind === 'user');
      return (user && maxSubagentsOf(user.path, user.data)) ?? DEFAULT_MAX_SUBAGENTS;
    },
    secretFiles() {
      const globs = coveFiles(files).flatMap((file) => secretFilesOf(file.path, file.data));
      return [...new Set(globs)];
    },
    warnings: () => ignoredKeys(files),
  };
  return view;
}

/** Reads the person's file and every file of the roots now; throws `SettingsFileError` for one that cannot be parsed. */
export function readWorkspaceSettings(options: { coveHome: string; workspaceRoots: readonly string[] }): WorkspaceSettings {
  return workspaceSettingsOf(readSettingsFiles(options));
}

/**
 * The model and permission mode of a new session: what the person asked for (a flag, the new
 * session form), else what the settings files say. The one place both hosts take them from.
 */
export function sessionDefaults(settings: WorkspaceSettings, asked: { model?: string; permissionMode?: PermissionMode } = {}): SessionDefaults {
  return { model: asked.model ?? settings.model(), permissionMode: asked.permissionMode ?? settings.defaultMode() };
}
