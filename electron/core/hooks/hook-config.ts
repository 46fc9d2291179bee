/**
 * Hooks in Claude Code's settings format (SPEC §14), from the settings files of SPEC §6 and an
 * existing `.claude/settings.json`: `{"hooks": {"Event": [{"matcher": "...", "hooks": [{"type":
 * "command", "command": "...", "timeout": 60}]}]}}`. A malformed entry is a `HookConfigError`
 * naming the file and the entry; it stops the run like a malformed permission rule does, since a
 * guard hook skipped in silence would let through what it was written to stop.
 */
import { createHash } from 'node:crypto';
import { readSettingsFiles, readSettingsObject, settingsFileList, SettingsFileError, type SettingsFile, type SettingsFileKind } from '../settings/settings-files';
import { pinnedFiles } from './pinned-files';
import { compileMatcher, type ToolMatcher } from './tool-names';

export const HOOK_EVENTS = ['PreToolUse', 'PostToolUse', 'UserPromptSubmit', 'SessionStart', 'Stop', 'SubagentStop', 'PreCompact', 'Notification'] as const;
export type HookEventName = (typeof HOOK_EVENTS)[number];

export const DEFAULT_HOOK_TIMEOUT_SECONDS = 60;

/**
 * Claude Code events and hook types Cove does not run. A `.claude/settings.json` brought along
 * may hold them; they are reported and skipped rather than stopping every run, while a name
 * neither knows is a typo and stops the run.
 */
const CLAUDE_ONLY_EVENTS = new Set(['SessionEnd', 'PermissionRequest', 'PostToolUseFailure', 'SubagentStart', 'Setup', 'TeammateIdle', 'TaskCompleted']);
const CLAUDE_ONLY_TYPES = new Set(['prompt', 'agent']);

export type HookFileKind = SettingsFileKind;

export interface HookEntry {
  event: HookEventName;
  /** As written; empty when the entry has none (it then matches everything). */
  matcher: string;
  matches: ToolMatcher;
  command: string;
  timeoutMs: number;
  file: string;
  kind: HookFileKind;
  /** The workspace of a project file, whose files the command names are pinned with it. */
  root?: string;
  /** Pins an approval to this exact hook: file, event, matcher, command, timeout and the project files the command names. */
  hash: string;
}

/** The settings module's error: one class for every settings file problem, whichever view found it. */
export const HookConfigError = SettingsFileError;
export type HookConfigError = SettingsFileError;

export interface HookFile {
  path: string;
  kind: HookFileKind;
  /** The workspace a project file belongs to; its files a command names are pinned with the hook. */
  root?: string;
}

/** Every file hooks are read from, in the order of SPEC §6. */
export function hookFiles(coveHome: string, workspaceRoots: readonly string[]): HookFile[] {
  return settingsFileList(coveHome, workspaceRoots);
}

export function hookHash(parts: { file: string; event: string; matcher: string; command: string; timeoutMs: number; root?: string }): string {
  const files = parts.root ? pinnedFiles([parts.command], parts.root) : [];
  const canonical = JSON.stringify([parts.file, parts.event, parts.matcher, parts.command, parts.timeoutMs, files]);
  return createHash('sha256').update(canonical).digest('hex');
}

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function parseCommand(file: HookFile, event: HookEventName, matcher: string, raw: unknown, where: string): Omit<HookEntry, 'matches'> {
  if (!isObject(raw)) throw new HookConfigError(file.path, `${where} must be an object like {"type": "command", "command": "..."}`);
  if (raw.type !== 'command') throw new HookConfigError(file.path, `${where}.type must be "command" (got ${JSON.stringify(raw.type)})`);
  if (typeof raw.command !== 'string' || raw.command.trim() === '') throw new HookConfigError(file.path, `${where}.command must be a non-empty string`);
  const timeout = raw.timeout ?? DEFAULT_HOOK_TIMEOUT_SECONDS;
  if (typeof timeout !== 'number' || !Number.isFinite(timeout) || timeout <= 0 || timeout > 3600) {
    throw new HookConfigError(file.path, `${where}.timeout must be a number of seconds from 1 to 3600 (got ${JSON.stringify(raw.timeout)})`);
  }
  const timeoutMs = Math.round(timeout * 1000);
  const command = raw.command;
  return {
    event,
    matcher,
    command,
    timeoutMs,
    file: file.path,
    kind: file.kind,
    ...(file.root ? { root: file.root } : {}),
    hash: hookHash({ file: file.path, event, matcher, command, timeoutMs, root: file.root }),
  };
}

/** The hooks of one file; a missing file or one without `hooks` has none. What is skipped goes to `warnings`. */
export function readHookFile(file: HookFile, warnings: string[] = []): HookEntry[] {
  return hooksOfFile({ ...file, data: readSettingsObject(file.path) }, warnings);
}

/** The hooks of one settings file already read (settings/settings-files.ts). */
function hooksOfFile(file: SettingsFile, warnings: string[]): HookEntry[] {
  const data = file.data;
  if (!data || data.hooks === undefined) return [];
  if (!isObject(data.hooks)) throw new HookConfigError(file.path, 'hooks must be an object of events, like {"PreToolUse": [...]}');
  const entries: HookEntry[] = [];
  for (const [event, groups] of Object.entries(data.hooks)) {
    if (CLAUDE_ONLY_EVENTS.has(event)) {
      warnings.push(`${file.path}: hooks.${event} is a Claude Code event Cove does not have; those hooks are skipped`);
      continue;
    }
    if (!(HOOK_EVENTS as readonly string[]).includes(event)) {
      throw new HookConfigError(file.path, `hooks.${event} is not a hook event (${HOOK_EVENTS.join(', ')})`);
    }
    if (!Array.isArray(groups)) throw new HookConfigError(file.path, `hooks.${event} must be a list of {"matcher", "hooks"} groups`);
    groups.forEach((group, index) => {
      const where = `hooks.${event}[${index}]`;
      if (!isObject(group)) throw new HookConfigError(file.path, `${where} must be an object with a "hooks" list`);
      const matcher = group.matcher ?? '';
      if (typeof matcher !== 'string') throw new HookConfigError(file.path, `${where}.matcher must be a string`);
      let matches: ToolMatcher;
      try {
        matches = compileMatcher(matcher);
      } catch (error) {
        throw new HookConfigError(file.path, `${where}.matcher ${JSON.stringify(matcher)} is not a valid regular expression (${(error as Error).message})`);
      }
      if (!Array.isArray(group.hooks) || group.hooks.length === 0) throw new HookConfigError(file.path, `${where}.hooks must be a non-empty list`);
      group.hooks.forEach((raw, position) => {
        const type = (raw as { type?: unknown } | null)?.type;
        if (typeof type === 'string' && CLAUDE_ONLY_TYPES.has(type)) {
          warnings.push(`${file.path}: ${where}.hooks[${position}] is a Claude Code "${type}" hook, which Cove does not run; it is skipped`);
          return;
        }
        entries.push({ ...parseCommand(file, event as HookEventName, matcher, raw, `${where}.hooks[${position}]`), matches });
      });
    });
  }
  return entries;
}

/** Every hook of the session's files, in file order; throws `HookConfigError` for the first bad one. */
export function loadHooks(coveHome: string, workspaceRoots: readonly string[], warnings: string[] = []): HookEntry[] {
  return hooksOf(readSettingsFiles({ coveHome, workspaceRoots }), warnings);
}

/** The hook view of settings files already read, in file order; throws `SettingsFileError` for the first bad entry. */
export function hooksOf(files: readonly SettingsFile[], warnings: string[] = []): HookEntry[] {
  return files.flatMap((file) => hooksOfFile(file, warnings));
}
