/**
 * The items a transcript shows, folded from events by ./model.ts. Items are immutable: a fold
 * replaces a changed item with a new object, so a component memoized on its item redraws only
 * when that item changed.
 */
import type {
  Cost,
  PromptAttachment,
  TodoItem,
  PermissionDecisionEvent,
  PermissionRequestEvent,
  RevertEvent,
  RewindEvent,
  Sensitivity,
  StopReason,
  ToolKind,
  ToolResultPayload,
  Usage,
} from '../../../shared/events';
import type { TerminalBuffer } from '../tools/terminal-buffer';

export type AssistantPart =
  | { kind: 'text'; text: string }
  | { kind: 'thinking'; text: string }
  /** A tool call the model is still writing; its card appears when the tool starts. */
  | { kind: 'toolCall'; toolName: string; json: string };

export interface UserItem {
  kind: 'user';
  key: string;
  text: string;
  /** Sent while a run was going: for the running agent to read at its next turn, rather than starting a run. */
  steered: boolean;
  /** A steered prompt the running agent has taken in (a turn of its began after it). */
  read?: boolean;
  /** A steered prompt its run never read: the person stopped the run first (nothing reads it later). */
  stopped?: boolean;
  /** Mentioned files and images that came with the prompt (from its userMessage). */
  attachments?: PromptAttachment[];
  /** A built-in command's answer (/cost, /model): no run follows. */
  answer?: string;
}

export interface AssistantItem {
  kind: 'assistant';
  key: string;
  messageId: string;
  /** By the provider's block index; a gap is a block not yet started. */
  parts: (AssistantPart | undefined)[];
  streaming: boolean;
  /** The run ended before the message did (stopped, failed, or the app was closed). */
  cut: boolean;
}

export type ToolStatus = 'running' | 'done' | 'error';

export interface ToolItem {
  kind: 'tool';
  key: string;
  toolCallId: string;
  toolName: string;
  args: unknown;
  sensitivity: Sensitivity | null;
  /** The tool's own words from toolExecutionStart (absent in sessions recorded before them). */
  label?: string;
  summary?: string;
  /** How to draw the call: `execute` as a terminal. */
  toolKind?: ToolKind;
  status: ToolStatus;
  /** From its start event's time (the local clock for events without one), so a reload keeps it. */
  startedAt: number;
  endedAt: number | null;
  /** Streamed terminal output (bash), raw with ANSI sequences. */
  terminal: TerminalBuffer | null;
  /** The terminal before a flood's live-only updates (see ../tools/terminal-stream.ts). */
  storedTerminal?: TerminalBuffer | undefined;
  /** The latest partial text of a tool that streams something other than a terminal. */
  partialText: string | null;
  /** 0..1 when the tool reports it. */
  progress: number | null;
  /** The latest progressMessage. */
  statusLine: string | null;
  result: ToolResultPayload | null;
  isError: boolean;
}

export interface PermissionItem {
  kind: 'permission';
  key: string;
  request: PermissionRequestEvent;
  decision: PermissionDecisionEvent | null;
  /** No longer waiting, but no decision was seen (the app restarted meanwhile). */
  expired: boolean;
  /** The display name of the subagent that asks, when one does. */
  subagentName: string | null;
}

export interface RetryItem {
  kind: 'retry';
  key: string;
  attempt: number;
  maxAttempts: number;
  error: string;
  delayMs: number;
}

export interface CompactionItem {
  kind: 'compaction';
  key: string;
  removedMessages: number;
  tokensBefore: number;
  summarized: boolean;
}

export interface LoopItem {
  kind: 'loop';
  key: string;
  toolName: string;
  count: number;
  action: 'nudge' | 'stop';
}

/** One run of a hook (SPEC §14). */
export interface HookItem {
  kind: 'hook';
  key: string;
  hookEvent: string;
  command: string;
  file: string;
  decision: string | null;
  exitCode: number | null;
  output: string;
  durationMs: number;
  timedOut: boolean;
}

export interface RunEndItem {
  kind: 'runEnd';
  key: string;
  stopReason: StopReason;
  error: string | null;
  usage: Usage;
  cost: Cost | null;
  /** An error a person acts on differently: a refused key (Settings), an unreachable API. */
  errorKind: 'authentication' | 'connection' | null;
}

/** A Retry or Resume: the run went on from the stored history. */
export interface ResumeItem {
  kind: 'resume';
  key: string;
}

export interface SubagentMarkerItem {
  kind: 'subagent';
  key: string;
  subagentId: string;
  displayName: string;
  task: string;
  /** null while it runs; the end status on the end marker. */
  status: SubagentStatus | null;
}

/** A rewind, or a revert from the review pane (folded by ../checkpoints/restore-items.ts). */
export interface RestoreItem {
  kind: 'restore';
  key: string;
  event: RewindEvent | RevertEvent;
  /** The rows a conversation cut took out of what the model is sent, folded under the marker. */
  cut: TranscriptItem[] | null;
  /** A revert that a later one undid. */
  undone: boolean;
}

export type TranscriptItem =
  UserItem | AssistantItem | ToolItem | PermissionItem | RetryItem | CompactionItem | LoopItem | HookItem | RunEndItem | ResumeItem | SubagentMarkerItem | RestoreItem;

export type SubagentStatus = 'running' | 'done' | 'failed' | 'cancelled';

export interface SubagentState {
  id: string;
  displayName: string;
  task: string;
  parentToolCallId: string;
  status: SubagentStatus;
  startedAt: number;
  endedAt: number | null;
  /** The time of its latest event (streamed text aside): where it stopped when it never ended. */
  lastAt: number;
  /** The latest progress line: a progressMessage, or the tool it last started. */
  latest: string | null;
}

export interface TranscriptState {
  items: TranscriptItem[];
  subagents: SubagentState[];
  /** Between an agentStart and its agentEnd (of the main agent). */
  running: boolean;
  /** A partial message a providerRetry made obsolete; the next messageStart replaces it. */
  replaceKey: string | null;
  /** Index of the first item of the current run: items before it are settled, so lookups for
   * ids the run may repeat (stored and live copies of an event) stop there. */
  runStart: number;
  /** Source of keys for items without an id of their own. */
  counter: number;
  /** The agent's task list, from its latest todo_write; null until it writes one. */
  todos: TodoItem[] | null;
  /** Each subagent's own transcript (its messages, tool cards and prompts), by its id. */
  subagentTranscripts: Readonly<Record<string, TranscriptState>>;
}
