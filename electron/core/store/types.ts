/**
 * The session store's public shapes (SPEC §8). Everything the store returns is a plain object;
 * nothing here holds a database handle.
 */
import type { AssistantMessageParam, UserMessageParam } from '@anthropic-ai/sdk/resources/messages';
import type { CoveEvent, Usage } from '../../../shared/events';

import type { SessionStatus } from '../../../shared/contract';

export type { SessionStatus };

export const SESSION_STATUSES: readonly SessionStatus[] = ['idle', 'running', 'waiting', 'done', 'error', 'aborted', 'interrupted'];

export interface SessionRecord {
  /** Sortable: a time prefix then random characters, see `newSessionId`. */
  id: string;
  /** Empty until given or derived from the first user message. */
  title: string;
  /** Absolute paths, in the order they were added; the first is the default cwd. */
  workspaces: string[];
  model: string;
  permissionMode: string;
  status: SessionStatus;
  /** Milliseconds since the epoch. */
  createdAt: number;
  updatedAt: number;
  /** Accumulated over every run of the session. */
  usage: Usage;
  costUsd: number;
  /** The process running the session; null when nothing runs it. */
  ownerPid: number | null;
}

export interface NewSession {
  workspaces: string[];
  title?: string;
  model: string;
  permissionMode: string;
}

export interface SessionPatch {
  title?: string;
  status?: SessionStatus;
  model?: string;
  permissionMode?: string;
  workspaces?: string[];
  ownerPid?: number | null;
}

/** A message in the Anthropic message-param shape, exactly as it is sent to the provider. */
export type StoredMessage = UserMessageParam | AssistantMessageParam;

export type StoredEvent = CoveEvent & { seq: number };

export type ToolCallStatus = 'running' | 'done' | 'error' | 'interrupted';

export interface ToolCallRecord {
  sessionId: string;
  toolCallId: string;
  toolName: string;
  args: unknown;
  status: ToolCallStatus;
  /** Set when the call belongs to a subagent's own run. */
  subagentId: string | null;
  startedAt: number;
  endedAt: number | null;
}

/** One permission decision (SPEC §6 audit), as the permission engine reports it. */
export interface PermissionAuditEntry {
  sessionId: string;
  toolCallId: string;
  toolName: string;
  /** Already redacted by whoever records it. */
  args: unknown;
  decision: 'allow' | 'deny';
  /** A rule, the mode's default, a person's answer, or the absence of anyone to ask. */
  decidedBy: 'rule' | 'mode' | 'person' | 'headless';
  /** The rule that decided, or that a person saved; null when none did. */
  rule: string | null;
  /** Only for a person's allow: once, this session, or always for the workspace. */
  scope?: 'once' | 'session' | 'always' | null;
  reason?: string | null;
  /** Milliseconds since the epoch. */
  at: number;
}

export interface PermissionAuditRecord extends PermissionAuditEntry {
  /** Increases in the order decisions were recorded. */
  id: number;
  scope: 'once' | 'session' | 'always' | null;
  reason: string | null;
}

export interface SearchHit {
  sessionId: string;
  title: string;
  /** The best-matching passage, matched terms wrapped in `SNIPPET_OPEN` … `SNIPPET_CLOSE`. */
  snippet: string;
  /** How many of the session's messages match, the snippet's one included. */
  matches?: number;
  updatedAt: number;
  workspaces: string[];
  status: SessionStatus;
}

export interface RecoveryReport {
  /** Ids of the sessions marked 'interrupted'. */
  sessions: string[];
  /** How many of their running tool calls were marked 'interrupted'. */
  toolCalls: number;
}

/** A place in the session list: sessions after it are older, or as old with a smaller id. */
export interface SessionCursor {
  updatedAt: number;
  id: string;
}

export interface ListOptions {
  limit?: number;
  workspace?: string;
  /** Only sessions listed after this one; from the last session of the page before. */
  before?: SessionCursor;
}

export interface Store {
  /** The database file. */
  readonly path: string;
  createSession(input: NewSession): SessionRecord;
  getSession(id: string): SessionRecord | undefined;
  /** Newest `updatedAt` first (ties by id, descending); `before` pages on from a session's place. */
  listSessions(options?: ListOptions): SessionRecord[];
  /** The most recently updated session that has `workspace` among its roots (`cove run --continue`). */
  latestSessionForWorkspace(workspace: string): SessionRecord | undefined;
  /** Throws `StoreError` 'sessionNotFound' for an unknown id. Does not clear `ownerPid` on its own. */
  updateSession(id: string, patch: SessionPatch): void;
  /** Adds to the session's totals. */
  addUsage(id: string, usage: Usage, costUsd: number): void;
  /** Removes the session with its messages, events and tool calls; false if there was none. */
  deleteSession(id: string): boolean;
  /** Returns the message's seq. The first user message names an untitled session. */
  appendMessage(sessionId: string, message: StoredMessage): number;
  /**
   * Swaps the live history for `messages` in one transaction (after compaction). The old
   * messages stay searchable but are no longer loaded.
   */
  replaceMessages(sessionId: string, messages: readonly StoredMessage[]): void;
  /** The live history, oldest first. */
  loadMessages(sessionId: string): StoredMessage[];
  /**
   * Appends a batch in one transaction, keeps `tool_calls` in step with toolExecutionStart/End
   * and touches the session's `updatedAt`. Returns the seq of the last event stored.
   */
  appendEvents(sessionId: string, events: readonly CoveEvent[]): number;
  /** The seq of the session's latest stored event; 0 when it has none. */
  lastEventSeq(sessionId: string): number;
  /** Events with afterSeq < seq ≤ untilSeq, oldest first, at most `limit`. */
  loadEvents(sessionId: string, options?: { afterSeq?: number; untilSeq?: number; limit?: number }): StoredEvent[];
  /** The same events as `loadEvents`, each as its JSON text, not parsed. */
  loadEventTexts(sessionId: string, options?: { afterSeq?: number; untilSeq?: number; limit?: number }): string[];
  /**
   * Where a redraw of the latest `count` events up to `untilSeq` should start (the seq before
   * its first event): at the first run's prompt among them, so the first screen begins whole.
   */
  redrawStart(sessionId: string, untilSeq: number, count: number): number;
  listToolCalls(sessionId: string, options?: { status?: ToolCallStatus }): ToolCallRecord[];
  /** Stores one permission decision; throws `StoreError` 'sessionNotFound' for an unknown session. */
  recordPermission(entry: PermissionAuditEntry): void;
  /** The session's permission decisions, oldest first. */
  listPermissions(sessionId: string): PermissionAuditRecord[];
  /** Any user text is accepted; it is matched as words (each a prefix), never as FTS syntax. */
  search(text: string, options?: { limit?: number }): SearchHit[];
  /**
   * Marks 'running' or 'waiting' sessions whose owner process is gone as 'interrupted', with
   * their running tool calls. Sessions of a live process are left alone.
   */
  recoverInterrupted(): RecoveryReport;
  close(): void;
}

export type StoreErrorCode = 'openFailed' | 'newerSchema' | 'migrationFailed' | 'sessionNotFound' | 'invalidInput';

/** A failure a person or the caller can act on; the message names the file, session or field. */
export class StoreError extends Error {
  readonly code: StoreErrorCode;

  constructor(code: StoreErrorCode, message: string, options?: { cause?: unknown }) {
    super(message, options);
    this.name = 'StoreError';
    this.code = code;
  }
}
