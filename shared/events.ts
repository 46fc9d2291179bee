/**
 * Every event Cove publishes (SPEC §4). The same plain JSON objects travel over Electron IPC,
 * over the WebSocket of `cove serve` and out of `cove run --json`, so this is the one place
 * that defines their names and fields. The pieces they carry live in event-parts.ts and are
 * re-exported here, so every name is still imported from this file.
 */
import type {
  Sensitivity,
  Usage,
  Cost,
  StopReason,
  ToolResultPayload,
  AssistantBlock,
  MessageDelta,
  PermissionScope,
  ToolKind,
  PermissionPreview,
  CommandMark,
  TodoItem,
  PromptAttachment,
} from './event-parts';

export * from './event-parts';

interface Base {
  sessionId: string;
  /**
   * The event's position in its session's log, set by the session manager as it publishes it:
   * the same live (IPC, WebSocket, `--json`) as stored. Absent only before it is published.
   */
  seq?: number;
  /**
   * When the session manager numbered it (ms since the epoch), stored with it: a redraw after a
   * reload times a tool or a subagent from its events, not from when the page saw them.
   */
  at?: number;
  /** Set on every event of a subagent's own run. */
  subagentId?: string;
}

export interface AgentStartEvent extends Base {
  type: 'agentStart';
  model: string;
  /** The prompt that started this run. */
  prompt: string;
  /** A Retry or Resume: the run goes on from the stored history; the prompt was not sent again. */
  resumed?: true;
}
export interface AgentEndEvent extends Base {
  type: 'agentEnd';
  stopReason: StopReason;
  /** This run's usage and cost; cost is null when the model has no published price. */
  usage: Usage;
  cost: Cost | null;
  /** One line, when stopReason is 'error' (or the reason of a limit). */
  error?: string;
  /** For an error a person acts on differently: the key was refused (fix it in Settings), or the API was unreachable. */
  errorKind?: 'authentication' | 'connection';
}
export interface TurnStartEvent extends Base {
  type: 'turnStart';
  turn: number;
}
export interface TurnEndEvent extends Base {
  type: 'turnEnd';
  turn: number;
  usage: Usage;
  cost: Cost | null;
}
export interface MessageStartEvent extends Base {
  type: 'messageStart';
  /** A messageStart that follows a providerRetry replaces the partial message before it. */
  messageId: string;
  role: 'assistant';
}
export interface MessageUpdateEvent extends Base {
  type: 'messageUpdate';
  messageId: string;
  delta: MessageDelta;
}
export interface MessageEndEvent extends Base {
  type: 'messageEnd';
  messageId: string;
  content: AssistantBlock[];
  /** The provider's stop reason: end_turn, tool_use, max_tokens, … */
  providerStopReason: string | null;
  usage: Usage;
}
export interface ToolExecutionStartEvent extends Base {
  type: 'toolExecutionStart';
  toolCallId: string;
  toolName: string;
  args: unknown;
  sensitivity?: Sensitivity;
  /** The tool's own words for the UI: its label, what this call does, and its kind (how to render it). */
  label?: string;
  summary?: string;
  kind?: ToolKind;
}
/**
 * For bash, `partialResult.content` is empty and `details` is the UiUpdate of
 * electron/core/tools/bash-output.ts: the raw, redacted terminal text in `chunk`, sent once.
 * Updates with `details.live: true` are shown but not stored; the end result's `details.uiTail`
 * stands in for them on a redraw.
 */
export interface ToolExecutionUpdateEvent extends Base {
  type: 'toolExecutionUpdate';
  toolCallId: string;
  partialResult: ToolResultPayload;
}
export interface ToolExecutionEndEvent extends Base {
  type: 'toolExecutionEnd';
  toolCallId: string;
  toolName: string;
  result: ToolResultPayload;
  isError: boolean;
}
export interface ProgressMessageEvent extends Base {
  type: 'progressMessage';
  toolCallId: string;
  text: string;
}
export interface PermissionRequestEvent extends Base {
  type: 'permissionRequest';
  requestId: string;
  toolCallId: string;
  toolName: string;
  args: unknown;
  sensitivity: Sensitivity;
  reasons: string[];
  suggestedRule: string | null;
  /** The tool's label and this call's one-line summary, as on toolExecutionStart. */
  label?: string;
  summary?: string;
  /** For write_file, edit_file and hashline_edit: the change allowing it would make. */
  preview?: PermissionPreview;
  /** For bash: what in the command writes, deletes, reaches the network or outside, or runs hidden code. */
  marks?: CommandMark[];
}
export interface PermissionDecisionEvent extends Base {
  type: 'permissionDecision';
  requestId: string;
  decision: 'allow' | 'deny';
  scope: PermissionScope | null;
  rule: string | null;
  /** A denial's reason in the person's words, when they gave one. */
  reason?: string;
}
export interface ProviderRetryEvent extends Base {
  type: 'providerRetry';
  attempt: number;
  maxAttempts: number;
  error: string;
  delayMs: number;
}
export interface LoopDetectedEvent extends Base {
  type: 'loopDetected';
  toolName: string;
  count: number;
  action: 'nudge' | 'stop';
}
export interface ContextCompactedEvent extends Base {
  type: 'contextCompacted';
  removedMessages: number;
  tokensBefore: number;
  summarized: boolean;
}
export interface SubagentStartEvent extends Base {
  type: 'subagentStart';
  subagentId: string;
  displayName: string;
  parentToolCallId: string;
  task: string;
}
export interface SubagentEndEvent extends Base {
  type: 'subagentEnd';
  subagentId: string;
  status: 'done' | 'failed' | 'cancelled';
}

/** One run of a hook command (SPEC §14); its output is redacted and bounded. */
export interface HookRunEvent extends Base {
  type: 'hookRun';
  hookEvent: string;
  command: string;
  /** The settings file that declared it. */
  file: string;
  /** The tool call a PreToolUse or PostToolUse hook ran for. */
  toolCallId?: string;
  /** Null when the hook was killed or could not start. */
  exitCode: number | null;
  /** allow, deny, ask, block, stop or error; null when it only went on. */
  decision: string | null;
  /** stderr and stdout, redacted and cut. */
  output: string;
  durationMs: number;
  timedOut: boolean;
  truncated: boolean;
}

/** The agent's whole task list, after each `todo_write`. */
export interface TodoUpdateEvent extends Base {
  type: 'todoUpdate';
  todos: TodoItem[];
}

export interface UserMessageEvent extends Base {
  type: 'userMessage';
  /** The prompt as the person typed it. */
  text: string;
  steered: boolean;
  /** The custom or built-in slash command the prompt ran, without its slash. */
  command?: string;
  attachments?: PromptAttachment[];
  /** A built-in command's answer: it starts no run. */
  answer?: string;
}

/** The workspace as it was at one moment, recorded in a shadow repository (SPEC §13). */
export interface CheckpointEvent extends Base {
  type: 'checkpoint';
  checkpointId: string;
  /** The call it was recorded before; for the one at a run's end, the last call it follows. */
  toolCallId: string;
  /** Before a mutating call, or after a run's last one (what the agent left, before any hand edit). */
  moment: 'beforeTool' | 'runEnd';
  /** One shadow commit per workspace root that was recorded; a root missing here was not. */
  roots: Array<{ root: string; commit: string }>;
  /** What was not recorded, in words: files over the size cap, a file changing while read, a failure. */
  problems: string[];
}

/** `cove rewind` (or the UI) put files back as they were before a prompt. */
export interface RewindEvent extends Base {
  type: 'rewind';
  /** The prompt (1-based, counting the session's userMessage events) the files were put back to before. */
  toPrompt: number;
  /** The checkpoint restored; empty when only the conversation was cut (no file had changed since that prompt). */
  checkpointId: string;
  /** The workspace just before and just after the rewind, so it can itself be undone. */
  roots: Array<{ root: string; before: string; after: string }>;
  restored: string[];
  removed: string[];
  /** Files left as they were, with why (changed by hand, unknown to every checkpoint, over the size cap). */
  kept: string[];
  /** The conversation was cut back too: the model's next request starts from before prompt `toPrompt`. */
  conversationCut?: boolean;
}

/** The review pane put back one hunk or whole files of the agent's change, recorded like a rewind so a reload shows it. */
export interface RevertEvent extends Base {
  type: 'revert';
  /** One hunk of one file (its `@@` line in `hunk`), or whole files. */
  scope: 'hunk' | 'file';
  /** The prompt whose change was put back; absent: the whole session's. */
  prompt?: number;
  /** Absolute paths of the files it changed. */
  paths: string[];
  hunk?: string;
  /** Each root just before and just after, so the revert can itself be undone. */
  roots: Array<{ root: string; before: string; after: string }>;
  /** Set when this revert undid the one recorded at that seq. */
  undoes?: number;
}

export type CoveEvent =
  | AgentStartEvent
  | AgentEndEvent
  | TurnStartEvent
  | TurnEndEvent
  | MessageStartEvent
  | MessageUpdateEvent
  | MessageEndEvent
  | ToolExecutionStartEvent
  | ToolExecutionUpdateEvent
  | ToolExecutionEndEvent
  | ProgressMessageEvent
  | PermissionRequestEvent
  | PermissionDecisionEvent
  | ProviderRetryEvent
  | LoopDetectedEvent
  | ContextCompactedEvent
  | SubagentStartEvent
  | SubagentEndEvent
  | HookRunEvent
  | TodoUpdateEvent
  | UserMessageEvent
  | CheckpointEvent
  | RewindEvent
  | RevertEvent;

export type CoveEventType = CoveEvent['type'];

/** The fields of an event without `type`, for building one by name. */
export type EventFields<T extends CoveEventType> = Omit<Extract<CoveEvent, { type: T }>, 'type'>;

/** Builds an event; the one constructor every publisher uses, so field names cannot drift. */
export function makeEvent<T extends CoveEventType>(type: T, fields: EventFields<T>): Extract<CoveEvent, { type: T }> {
  return { type, ...fields } as Extract<CoveEvent, { type: T }>;
}

export const EVENT_TYPES: readonly CoveEventType[] = [
  'agentStart',
  'agentEnd',
  'turnStart',
  'turnEnd',
  'messageStart',
  'messageUpdate',
  'messageEnd',
  'toolExecutionStart',
  'toolExecutionUpdate',
  'toolExecutionEnd',
  'progressMessage',
  'permissionRequest',
  'permissionDecision',
  'providerRetry',
  'loopDetected',
  'contextCompacted',
  'subagentStart',
  'subagentEnd',
  'hookRun',
  'todoUpdate',
  'userMessage',
  'checkpoint',
  'rewind',
  'revert',
];
