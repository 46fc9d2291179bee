/**
 * The shapes the permission engine exchanges with its host: the question put to a person, the
 * answer, what the answer came to (for the `permissionDecision` event) and the audit entry.
 */
import type { PermissionScope } from '../../../shared/events';
import type { Sensitivity } from '../agent/types';
import type { PermissionAuditEntry } from '../store/types';
import type { Decision } from './decide';
import type { PermissionMode } from './rule-syntax';
import type { RuleLists, SettingsSource } from './settings';

export type PermissionAnswer =
  { decision: 'allow'; scope: PermissionScope; /** The rule the person approved (edited or not) for 'session' and 'always'. */ rule?: string } | { decision: 'deny'; reason?: string };

export interface PermissionAsk {
  requestId: string;
  toolCallId: string;
  toolName: string;
  /** Redacted. */
  args: unknown;
  /** The tool's label and this call's one-line summary (redacted), for the prompt's title. */
  label?: string;
  summary?: string;
  sensitivity: Sensitivity;
  /** 'high' for dangerous tools. */
  urgency: 'normal' | 'high';
  reasons: string[];
  /** What "this session" and "always" keep unless the person edits it; null when nothing can be kept. */
  suggestedRule: string | null;
  /** A broader rule the person may choose instead (a prefix, a folder). */
  alternativeRule: string | null;
  /** False when an ask rule forces the question: only "once" can be answered. */
  grantable: boolean;
}

/** What a person's answer (or a cancel) came to, for the `permissionDecision` event. */
export interface PermissionAnswered {
  requestId: string;
  toolCallId: string;
  decision: 'allow' | 'deny';
  scope: PermissionScope | null;
  rule: string | null;
}

/** The store's audit entry (store/types.ts), its args redacted with the engine's `redact`; scope and reason are always said, null where none. */
export interface AuditEntry extends PermissionAuditEntry {
  scope: PermissionScope | null;
  reason: string | null;
}

export interface PermissionOutcome {
  decision: 'allow' | 'deny';
  /** For a deny, the message the model gets. */
  reason: string;
}

export interface PermissionEngineOptions {
  mode: PermissionMode;
  /** The session's roots; the first receives "always" rules. Calls may bring newer roots. */
  workspaceRoots: readonly string[];
  settings?: readonly SettingsSource[];
  /** From command-line flags; listed first within each list. */
  extraRules?: Partial<RuleLists>;
  /** Absent: headless, so calls that need a person are denied. */
  ask?: (request: PermissionAsk, signal: AbortSignal) => Promise<PermissionAnswer>;
  onAnswer?: (answered: PermissionAnswered) => void;
  audit?: (entry: AuditEntry) => void;
  redact?: (value: unknown) => unknown;
  /** For `~/` rules and `~` in commands; defaults to the user's home folder. */
  home?: string;
  /** Why bash runs without its OS sandbox, making every bash call ask; null while it works (bash-sandbox). */
  bashUnsandboxed?: () => string | null;
  /** Settles once the sandbox check running in the background has answered; `check` waits for it before asking `bashUnsandboxed`. */
  bashSandboxKnown?: () => Promise<unknown>;
  now?: () => number;
}

function shellQuote(text: string): string {
  return `'${text.replace(/'/g, `'\\''`)}'`;
}

/** The reason a headless run gives the model for a call that needed a person. */
export function headlessReason(decision: Extract<Decision, { outcome: 'ask' }>): string {
  const why = `${decision.reasons.join('; ')}; cove run has no one to ask, so it is denied`;
  if (decision.askRule) return `${why} (remove the ask rule ${decision.askRule}, or use --permission-mode bypass)`;
  if (!decision.suggestedRule) return `${why} (--permission-mode bypass would allow it)`;
  const rule = decision.suggestedRule;
  return `${why}. To allow it, rerun with --allow ${shellQuote(rule)} or add ${JSON.stringify(rule)} to permissions.allow in .cove/settings.json`;
}
