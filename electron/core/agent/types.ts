/**
 * The engine's extension points: tools, their context and results, middleware and tool sources.
 * Everything a tool needs arrives through `ToolContext`; tools never print and never reach for
 * globals, so each one is tested by calling `execute` directly.
 */
import type { ResultContent, Sensitivity, ToolKind } from '../../../shared/events';

export type { Sensitivity, ResultContent, ToolKind };

/** A JSON Schema object describing a tool's parameters. */
export type JsonSchema = Record<string, unknown>;

export interface ToolResult {
  /** Sent to the model. */
  content: ResultContent[];
  /** For the UI and logs; never sent to the model. */
  details?: unknown;
  /** A unified diff when the tool changed a file. */
  diff?: string;
}

export type ToolErrorKind = 'failed' | 'notFound' | 'invalidArgs' | 'cancelled';

/** A failure the model can act on. Any other thrown value is treated as `failed`. */
export class ToolError extends Error {
  readonly kind: ToolErrorKind;
  readonly details?: unknown;

  constructor(kind: ToolErrorKind, message: string, details?: unknown) {
    super(message);
    this.name = 'ToolError';
    this.kind = kind;
    this.details = details;
  }

  static failed(message: string, details?: unknown): ToolError {
    return new ToolError('failed', message, details);
  }
  static notFound(message: string, details?: unknown): ToolError {
    return new ToolError('notFound', message, details);
  }
  static invalidArgs(message: string, details?: unknown): ToolError {
    return new ToolError('invalidArgs', message, details);
  }
  static cancelled(message = 'Cancelled', details?: unknown): ToolError {
    return new ToolError('cancelled', message, details);
  }
}

/** Redacts secret values from text. The engine applies it to every tool output centrally. */
export interface SecretRedactor {
  redact(text: string): { text: string; count: number };
  /** Like `redact`, but a secret spanning lines leaves as many lines, so line numbers stay true. */
  redactLines?(text: string): { text: string; count: number };
}

/** What the model was shown of a file, keyed by path and tag (hashline edits). */
export interface SnapshotStore {
  remember(path: string, tag: string, content: string): void;
  recall(path: string, tag: string): string | undefined;
}

export interface ToolContext {
  toolCallId: string;
  toolName: string;
  signal: AbortSignal;
  /**
   * Streams a partial result to the UI (a `toolExecutionUpdate`); never reaches the model. It is
   * redacted on the way unless `redacted` says the tool did so already with `secrets` (bash, which
   * must redact before it cuts a flood down, and would otherwise pay for it twice).
   */
  onUpdate(partial: ToolResult, options?: { redacted?: boolean }): void;
  /** A short status line for the UI (a `progressMessage`). */
  onProgress(text: string): void;
  /** Absolute, real paths. The first one is the default cwd. */
  workspaceRoots: readonly string[];
  secrets: SecretRedactor;
  sessionId: string;
  cwd: string;
  snapshots: SnapshotStore;
}

/**
 * What the permission engine asks of a call, which also says how a rule's specifier reads:
 * paths (path globs), a command line (bash patterns), a URL (host rules), a name (name globs).
 */
// eslint-disable-next-line @typescript-eslint/no-explicit-any -- one list holds tools of every argument type; each declaration's own P is checked where it is written
export type ToolPermission<P = any> = { paths(args: P): string[] } | { command(args: P): string } | { url(args: P): unknown } | { name(args: P): string | undefined } | 'none';

export type ArgumentCheck = { ok: true } | { ok: false; problems: string[] };

// eslint-disable-next-line @typescript-eslint/no-explicit-any -- one list holds tools of every argument type; each declaration's own P is checked where it is written
export interface Tool<P = any> {
  name: string;
  /** Human-readable name for the UI. */
  label: string;
  description: string;
  parameters: JsonSchema;
  sensitivity: Sensitivity;
  /** Declared tools (tools/define-tool.ts) carry these; a bare Tool is `other` with no permission facts. */
  kind?: ToolKind;
  permission?: ToolPermission<P>;
  summary?(params: P): string;
  /** The tool's own argument check; without it `parameters` is checked as JSON Schema. */
  check?(args: unknown): ArgumentCheck;
  execute(params: P, ctx: ToolContext): Promise<ToolResult>;
}

/** Runtime providers of tools (MCP servers, plugins), consulted once per run. */
export interface ToolSource {
  name: string;
  tools(signal: AbortSignal): Promise<Tool[]>;
}

export type ToolDecision = { action: 'allow' } | { action: 'modify'; args: unknown } | { action: 'deny'; reason: string };

/** What a middleware sees of a call. */
export interface ToolCallRequest {
  sessionId: string;
  toolCallId: string;
  toolName: string;
  args: unknown;
  sensitivity: Sensitivity;
  /** The tool being called, so a middleware asks it for its paths or command. */
  tool?: Tool;
  workspaceRoots: readonly string[];
  signal: AbortSignal;
  /** The history before this call's results (the assistant message carrying the call is last). */
  messages: readonly ConversationMessage[];
  /** The user prompts this run was given; compaction never removes them. */
  runPrompts: readonly string[];
  /** The user's latest own words, skipping tool results and loop-injected notes. */
  userRequest(): string | undefined;
}

export interface ToolMiddleware {
  name: string;
  beforeTool(call: ToolCallRequest): Promise<ToolDecision> | ToolDecision;
}

/** The conversation as the provider sees it (Anthropic message params). */
export type ConversationMessage = {
  role: 'user' | 'assistant';
  content: string | ConversationBlock[];
};

export type ConversationBlock =
  | { type: 'text'; text: string; citations?: unknown[]; cache_control?: CacheControl }
  | { type: 'image'; source: { type: 'base64'; media_type: string; data: string }; cache_control?: CacheControl }
  | { type: 'thinking'; thinking: string; signature: string }
  | { type: 'redacted_thinking'; data: string }
  | { type: 'tool_use'; id: string; name: string; input: unknown; cache_control?: CacheControl }
  | { type: 'server_tool_use'; id: string; name: string; input: unknown; cache_control?: CacheControl }
  | { type: `${string}_tool_result`; tool_use_id: string; content: unknown; cache_control?: CacheControl }
  | {
      type: 'tool_result';
      tool_use_id: string;
      content: Array<{ type: 'text'; text: string } | { type: 'image'; source: { type: 'base64'; media_type: string; data: string } }>;
      is_error?: boolean;
      cache_control?: CacheControl;
    };

export type CacheControl = { type: 'ephemeral' };

export const NO_SECRETS: SecretRedactor = { redact: (text) => ({ text, count: 0 }) };

/** A snapshot store that lives in memory for one session. */
export class MemorySnapshotStore implements SnapshotStore {
  private readonly entries = new Map<string, string>();
  remember(path: string, tag: string, content: string): void {
    this.entries.set(`${path}#${tag}`, content);
  }
  recall(path: string, tag: string): string | undefined {
    return this.entries.get(`${path}#${tag}`);
  }
}
