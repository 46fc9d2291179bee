/**
 * One permission engine per session, as every host builds it: the session's settings files,
 * the host's extra rules, asks that go to a person (or none, headless), an audit in the store,
 * and arguments redacted before they are audited or shown.
 */
import type { SecretRedactor } from '../agent/types';
import { redactDeep } from '../agent/redaction';
import type { Prompter } from '../sessions/permission-prompts';
import type { SessionGate } from '../sessions/session-manager';
import type { Store } from '../store';
import { PermissionEngine } from './engine';
import { isPermissionMode, type PermissionMode } from './rule-syntax';
import { loadPermissionSettings, type RuleLists, type SettingsSource } from './settings';
import { hookedPermissions } from '../hooks/hook-gate';
import type { SessionHooks } from '../hooks/session-hooks';

export interface SessionGateOptions {
  workspaces: readonly string[];
  mode: string;
  coveHome: string;
  store: Store;
  /** Absent: headless; calls that need a person are denied with the rule that would allow them. */
  prompter?: Prompter;
  extraRules?: Partial<RuleLists>;
  redactor?: SecretRedactor;
  /** Already loaded settings files; read from disk when absent. */
  settings?: readonly SettingsSource[];
  /** The session's PreToolUse hooks run before the rules; see hooks/hook-gate.ts for how they compose. */
  hooks?: SessionHooks;
  /** See PermissionEngineOptions.bashUnsandboxed. */
  bashUnsandboxed?: () => string | null;
  /** See PermissionEngineOptions.bashSandboxKnown. */
  bashSandboxKnown?: () => Promise<unknown>;
}

function mode(value: string): PermissionMode {
  return isPermissionMode(value) ? value : 'default';
}

/** Throws `PermissionSettingsError` naming the file when a settings file is malformed. */
export function createSessionGate(options: SessionGateOptions): SessionGate {
  const sources = options.settings ?? loadPermissionSettings({ workspaceRoots: options.workspaces, coveHome: options.coveHome }).sources;
  const redactor = options.redactor;
  const prompter = options.prompter;
  const engine = new PermissionEngine({
    mode: mode(options.mode),
    workspaceRoots: options.workspaces,
    settings: sources,
    extraRules: options.extraRules,
    ...(options.bashUnsandboxed ? { bashUnsandboxed: options.bashUnsandboxed } : {}),
    ...(options.bashSandboxKnown ? { bashSandboxKnown: options.bashSandboxKnown } : {}),
    audit: (entry) => options.store.recordPermission(entry),
    ...(redactor ? { redact: (value: unknown) => redactDeep(value, redactor).value } : {}),
    ...(prompter
      ? {
          ask: (request, signal) =>
            prompter(
              {
                toolCallId: request.toolCallId,
                toolName: request.toolName,
                args: request.args,
                ...(request.label === undefined ? {} : { label: request.label }),
                ...(request.summary === undefined ? {} : { summary: request.summary }),
                sensitivity: request.sensitivity,
                reasons: request.reasons,
                suggestedRule: request.suggestedRule,
              },
              signal,
            ),
        }
      : {}),
  });
  const rulesOnly = engine.middleware();
  const middleware = options.hooks
    ? hookedPermissions({
        engine,
        fallback: rulesOnly,
        hooks: options.hooks,
        prompter,
        audit: (entry) => options.store.recordPermission(entry),
        ...(redactor ? { redact: (value: unknown) => redactDeep(value, redactor).value } : {}),
      })
    : rulesOnly;
  return { ...middleware, setMode: (next: string) => engine.setMode(mode(next)) };
}
