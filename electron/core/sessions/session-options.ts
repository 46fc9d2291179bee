/**
 * What a host gives the session manager (SessionManagerOptions) and chooses per run
 * (RunSettings). Apart from session-manager.ts so hosts and the session agent's builder can name
 * them without the manager.
 */
import type Anthropic from '@anthropic-ai/sdk';
import type { CoveEvent, EventFields } from '../../../shared/events';
import type { ExecutionStrategy } from '../agent/tool-batch';
import type { RetryPolicy } from '../agent/retry';
import type { ModelCatalog } from '../agent/model-catalog';
import type { ConversationBlock, SecretRedactor, Tool, ToolMiddleware, ToolSource } from '../agent/types';
import type { SessionRecord, Store } from '../store';
import type { Prompter } from './permission-prompts';
import type { SubagentLimits } from '../subagents/subagent-runner';
import type { SessionHooks } from '../hooks/session-hooks';
import type { SessionCheckpoints } from '../checkpoints/session-checkpoints';

/** Per-run choices a host makes (the CLI's flags). */
export interface RunSettings {
  maxTurns?: number;
  /** Blocks that follow the prompt in its message: mentioned files, images (see core/prompt). */
  attachments?: ConversationBlock[];
  /** The prompt as the person gave it, for its userMessage event; the text sent to the model by default. */
  message?: Omit<EventFields<'userMessage'>, 'sessionId' | 'steered'>;
  /** Goes on from the stored history without sending the prompt again (see `retry`). */
  resume?: boolean;
  /** The prompt's userMessage went out already (steering that came as a run ended), so none is published. */
  announced?: boolean;
}

/** A session's permission gate; kept for the session's life so session grants last across runs. */
export interface SessionGate extends ToolMiddleware {
  setMode?(mode: string): void;
}

export interface SessionManagerOptions {
  store: Store;
  /** Builds the provider client; throws a clear error when it cannot (no API key). */
  createClient(): Anthropic;
  tools(session: SessionRecord): Tool[];
  /** Runtime tool providers of a session (its workspace's MCP servers), consulted once per run. */
  toolSources?(session: SessionRecord): ToolSource[];
  secrets?(session: SessionRecord): SecretRedactor | Promise<SecretRedactor>;
  /** The permission gate of a session; its asks go to people through `prompter`. */
  permissionGate?(session: SessionRecord, prompter: Prompter): SessionGate;
  strategy?: ExecutionStrategy;
  retry?: Partial<RetryPolicy>;
  subagentLimits?: Partial<SubagentLimits>;
  /** A session's hooks (SPEC §14); `emit` publishes their hookRun events into the session. */
  hooks?(session: SessionRecord, emit: (event: CoveEvent) => void): SessionHooks;
  /** What the Models API says of the models (model-catalog.ts catalogSource); never rejects. */
  modelCatalog?(): Promise<ModelCatalog>;
  /** A run's checkpoints (SPEC §13), recorded after the permission gate, before each mutating call. */
  checkpoints?(session: SessionRecord, emit: (event: CoveEvent) => void): SessionCheckpoints | undefined;
  log?(message: string): void;
}
