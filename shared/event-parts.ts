/**
 * The pieces events carry (SPEC §4): usage and cost, content blocks, tool results, what a
 * permission request shows, todos and attachments. shared/events.ts re-exports every name, so
 * importers keep importing from there. Imports nothing.
 */

export type Sensitivity = 'readOnly' | 'mutating' | 'dangerous';

/** Token counts as the provider reports them. */
export interface Usage {
  input: number;
  output: number;
  cacheRead: number;
  cacheWrite: number;
}

/** US dollars. Events carry `null` instead when the model is missing from the price table: never a guess. */
export interface Cost {
  input: number;
  output: number;
  cacheRead: number;
  cacheWrite: number;
  total: number;
  priced: boolean;
}

export type StopReason =
  | 'endTurn' // the model finished and nothing was queued
  | 'aborted' // the run was stopped
  | 'error' // the provider failed after its retries, or the engine hit a bug
  | 'maxTurns' // the turn limit was reached
  | 'loopDetected' // the model kept repeating one call after a nudge
  | 'truncated' // replies kept ending at the output limit (max_tokens) after their continuations
  | 'refused' // the model declined (stop reason refusal); the refused exchange is kept out of the context
  | 'contextExceeded'; // the context window was exceeded again after compacting

export interface TextBlock {
  type: 'text';
  text: string;
}
export interface ImageBlock {
  type: 'image';
  mediaType: 'image/png' | 'image/jpeg' | 'image/gif' | 'image/webp';
  /** base64 */
  data: string;
}
export type ResultContent = TextBlock | ImageBlock;

/** What a tool returns, as the UI and the store see it. */
export interface ToolResultPayload {
  content: ResultContent[];
  /** JSON for the UI and logs, never sent to the model. */
  details?: unknown;
  /** A unified diff, when the tool changed a file. */
  diff?: string;
  /** Error kind when the result is an error. */
  errorKind?: 'failed' | 'notFound' | 'invalidArgs' | 'cancelled' | 'denied' | 'interrupted';
  /** How many secret values were redacted from this result. */
  redactions?: number;
}

/** One block of an assistant message, in the provider's own shape (snake_case, as stored). */
export type AssistantBlock =
  | { type: 'text'; text: string; citations?: unknown[] }
  | { type: 'thinking'; thinking: string; signature: string }
  | { type: 'redacted_thinking'; data: string }
  | { type: 'tool_use'; id: string; name: string; input: unknown }
  /** Server-side tool blocks (web search, code execution) are kept and sent back exactly as received. */
  | { type: 'server_tool_use'; id: string; name: string; input: unknown }
  | { type: `${string}_tool_result`; tool_use_id: string; content: unknown };

export type MessageDelta =
  | { type: 'text'; index: number; text: string }
  | { type: 'thinking'; index: number; thinking: string }
  | { type: 'toolCallDelta'; index: number; toolCallId: string; toolName: string; partialJson: string };

export type PermissionScope = 'once' | 'session' | 'always';

/** What a tool does: the renderer draws an `execute` call as a terminal; acceptEdits lets `edit` through. */
export type ToolKind = 'read' | 'search' | 'edit' | 'execute' | 'fetch' | 'think' | 'delegate' | 'other';
/** What a file edit would change, from a dry run in main before anyone allows it (redacted, bounded). */
export interface PermissionPreview {
  /** Unified diff of the change; empty when the file would stay the same. */
  diff?: string;
  /** Why the edit would fail, or why there is no preview. */
  error?: string;
  /** The call creates the file: the diff is all of its content. */
  newFile?: boolean;
}

export type CommandMarkKind = 'writes' | 'deletes' | 'network' | 'outside' | 'runs-code';
/**
 * A risky part of a bash command, marked over the command text of the request's `args.command`
 * (UTF-16 offsets, end exclusive), as the permission engine read it in main.
 */
export interface CommandMark {
  start: number;
  end: number;
  kind: CommandMarkKind;
  /** Why it is marked, in words ("deletes victim.txt (rm)"). */
  note: string;
  /** The marked text, so a client can tell when the command it holds differs from the one marked. */
  text: string;
}

export type TodoStatus = 'pending' | 'in_progress' | 'completed';
export interface TodoItem {
  content: string;
  status: TodoStatus;
}
/** What came with a prompt: a mentioned file or an image (stored beside the session, fetched by id). */
export type PromptAttachment =
  | { kind: 'file'; path: string; error?: string }
  | { kind: 'image'; attachmentId: string; name: string; mediaType: ImageBlock['mediaType']; width: number; height: number; bytes: number; resized: boolean };

export const ZERO_USAGE: Usage = Object.freeze({ input: 0, output: 0, cacheRead: 0, cacheWrite: 0 });

export function addUsage(a: Usage, b: Usage): Usage {
  return {
    input: a.input + b.input,
    output: a.output + b.output,
    cacheRead: a.cacheRead + b.cacheRead,
    cacheWrite: a.cacheWrite + b.cacheWrite,
  };
}
