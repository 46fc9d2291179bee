/**
 * What an Agent is built from and what a run answers. Apart from agent.ts so that hosts (the
 * session manager, subagents, the CLI) can name them without the loop itself.
 */
import type Anthropic from '@anthropic-ai/sdk';
import type { CoveEvent, StopReason, Usage, Cost } from '../../../shared/events';
import type { RetryPolicy } from './retry';
import type { ModelSpec } from './model-catalog';
import type { Logger } from './tool-sources';
import type { ExecutionStrategy } from './tool-batch';
import type { ConversationMessage, SecretRedactor, SnapshotStore, Tool, ToolMiddleware, ToolSource } from './types';

export type HistoryChange = { kind: 'append'; message: ConversationMessage } | { kind: 'replaceAll'; messages: ConversationMessage[] };

export interface AgentOptions {
  sessionId: string;
  subagentId?: string;
  client: Anthropic;
  model: string;
  /** The model's limits and thinking support (model-catalog.ts), awaited as the run starts; the price table's when absent. */
  modelSpec?: ModelSpec | Promise<ModelSpec>;
  systemPrompt?: string;
  tools?: Tool[];
  toolSources?: ToolSource[];
  /** Read at every turn: which tools may be offered now (a persona's allowlist). */
  toolFilter?: (toolName: string) => boolean;
  middleware?: ToolMiddleware[];
  strategy?: ExecutionStrategy;
  maxTurns?: number;
  maxTokens?: number;
  retry?: Partial<RetryPolicy>;
  workspaceRoots: string[];
  cwd?: string;
  /** May be a promise: the workspace's secret files are scanned while the run starts. */
  secrets?: SecretRedactor | Promise<SecretRedactor>;
  snapshots?: SnapshotStore;
  /** The stored history when a session is resumed. */
  messages?: ConversationMessage[];
  /** Compaction starts when the context reaches this share of the window (default 0.8). */
  compactAt?: number;
  /** Awaited just before the history is compacted (a host's PreCompact hooks). */
  beforeCompact?(signal: AbortSignal): Promise<void>;
  /** Overrides the model's context window (tests use a small one). */
  contextWindow?: number;
  emit(event: CoveEvent): void;
  onHistory?(change: HistoryChange): void;
  log?: Logger;
}

export interface RunOutcome {
  stopReason: StopReason;
  usage: Usage;
  /** null when the model has no published price */
  cost: Cost | null;
  error?: string;
}
