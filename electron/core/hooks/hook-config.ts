/**
 * Hooks in Claude Code's settings format (SPEC §14), from the settings files of SPEC §6 and an
 * existing `.claude/settings.json`: `{"hooks": {"Event": [{"matcher": "...", "hooks": [{"type":
 * "command", "command": "...", "timeout": 60}]}]}}`. A malformed entry is a `HookConfigError`
 * naming the file and the entry; it stops the run like a malformed permission rule does, since a
 * guard hook skipped in silence would let through what it was written to stop.
 */
import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { SetupError } from '../errors';
import { pinnedFiles } from './pinned-files';
import { compileMatcher, type ToolMatcher } from './tool-names';

export const HOOK_EVENTS = ['PreToolUse', 'PostToolUse', 'UserPromptSubmit', 'SessionStart', 'Stop', 'SubagentStop', 'PreCompact', 'Notification'] as const;
export type HookEventName = (typeof HOOK_EVENTS)[number];

export const DEFAULT_HOOK_TIMEOUT_SECONDS = 60;

export type HookFileKind = 'user' | 'claude' | 'project' | 'local';

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

export class HookConfigError extends SetupError {
  constructor(
    readonly file: string,
    problem: string,
  ) {
    super(`${file}: ${problem}`);
  }
}

export interface HookFile {
  path: string;
  kind: HookFileKind;
  /** The workspace a project file belongs to; its files a command names are pinned with the hook. */
  root?: string;
}

/** Every file hooks are read from, in the order of SPEC §6. */
export function hookFiles(coveHome: string, workspaceRoots: readonly string[]): HookFile[] {
  const files: HookFile[] = [{ path: join(coveHome, 'settings.json'), kind: 'user' }];
  for (const root of workspaceRoots) {
    files.push(
      { path: join(root, '.claude', 'settings.json'), kind: 'claude', root },
      { path: join(root, '.cove', 'settings.json'), kind: 'project', root },
      { path: join(root, '.cove', 'settings.local.json'), kind: 'local', root },
    );
  }
  return files;
}

export function hookHash(parts: { file: string; event: string; matcher: string; command: string; timeoutMs: number; root?: string }): string {
  const files = parts.root ? pinnedFiles([parts.command], parts.root) : [];
  const canonical = JSON.stringify([parts.file, parts.event, parts.matcher, parts.command, parts.timeoutMs, files]);
  return createHash('sha256').update(canonical).digest('hex');
}

function readJson(path: string): Record<string, unknown> | undefined {
  let text: string;
  try {
    text = readFileSync(path, 'utf8');
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
    throw new HookConfigError(path, `cannot be read (${(error as Error).message})`);
  }
  let data: unknown;
  try {
    data = JSON.parse(text);
  } catch (error) {
    throw new HookConfigError(path, `is not valid JSON (${(error as Error).message})`);
  }
  if (typeof data !== 'object' || data === null || Array.isArray(data)) throw new HookConfigError(path, 'must hold a JSON object');
  return data as Record<string, unknown>;
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

/** The hooks of one file; a missing file or one without `hooks` has none. */
export function readHookFile(file: HookFile): HookEntry[] {
  const data = readJson(file.path);
  if (!data || data.hooks === undefined) return [];
  if (!isObject(data.hooks)) throw new HookConfigError(file.path, 'hooks must be an object of events, like {"PreToolUse": [...]}');
  const entries: HookEntry[] = [];
  for (const [event, groups] of Object.entries(data.hooks)) {
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
        entries.push({ ...parseCommand(file, event as HookEventName, matcher, raw, `${where}.hooks[${position}]`), matches });
      });
    });
  }
  return entries;
}

/** Every hook of the session's files, in file order; throws `HookConfigError` for the first bad one. */
export function loadHooks(coveHome: string, workspaceRoots: readonly string[]): HookEntry[] {
  return hookFiles(coveHome, workspaceRoots).flatMap(readHookFile);
}
