/**
 * The one owner of running agents. Creates, resumes, runs, steers and stops sessions, persists
 * everything as it goes, and publishes every event to any number of subscribers (the CLI, the
 * desktop window, browser tabs). Hosts talk to sessions only through this class.
 */
import type Anthropic from '@anthropic-ai/sdk';
import type { CoveEvent, StopReason } from '../../../shared/events';
import { Agent, type HistoryChange, type RunOutcome } from '../agent/agent';
import type { ExecutionStrategy } from '../agent/tool-batch';
import type { RetryPolicy } from '../agent/retry';
import type { ConversationMessage, SecretRedactor, SnapshotStore, Tool, ToolMiddleware, ToolSource } from '../agent/types';
import { MemorySnapshotStore, NO_SECRETS } from '../agent/types';
import type { SessionRecord, SessionStatus, StoredMessage, Store } from '../store';
import { EventWriter } from './event-writer';
import { systemPromptFor } from './system-prompt';

export type EventListener = (event: CoveEvent) => void;

/** Per-run choices a host makes (the CLI's flags, the UI's settings). */
export interface RunSettings {
  maxTurns?: number;
  middleware?: ToolMiddleware[];
}

export interface SessionManagerOptions {
  store: Store;
  /** Builds the provider client; throws a clear error when it cannot (no API key). */
  createClient(): Anthropic;
  tools(session: SessionRecord): Tool[];
  toolSources?: ToolSource[];
  secrets?(session: SessionRecord): SecretRedactor;
  strategy?: ExecutionStrategy;
  retry?: Partial<RetryPolicy>;
  log?(message: string): void;
}

interface LiveSession {
  agent: Agent;
  writer: EventWriter;
  run?: Promise<RunOutcome>;
}

const STATUS_AFTER: Record<StopReason, SessionStatus> = {
  endTurn: 'done',
  aborted: 'aborted',
  error: 'error',
  maxTurns: 'error',
  loopDetected: 'error',
};

export class SessionManager {
  private readonly listeners = new Set<EventListener>();
  private readonly live = new Map<string, LiveSession>();
  /** What the model was shown of each file, kept across a session's runs for hashline edits. */
  private readonly snapshots = new Map<string, SnapshotStore>();
  private readonly log: (message: string) => void;

  constructor(private readonly options: SessionManagerOptions) {
    this.log = options.log ?? (() => {});
    const recovered = options.store.recoverInterrupted();
    if (recovered.sessions.length > 0) {
      this.log(`marked ${recovered.sessions.length} session(s) interrupted (their process had stopped)`);
    }
  }

  subscribe(listener: EventListener): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  createSession(input: { workspaces: string[]; model: string; permissionMode: string; title?: string }): SessionRecord {
    return this.options.store.createSession(input);
  }

  getSession(id: string): SessionRecord | undefined {
    return this.options.store.getSession(id);
  }

  isRunning(id: string): boolean {
    return this.live.get(id)?.run !== undefined;
  }

  /** Starts a run and resolves when it ends. A session runs one run at a time; use `send` to steer. */
  async run(sessionId: string, prompt: string, settings: RunSettings = {}): Promise<RunOutcome> {
    const session = this.requireSession(sessionId);
    const live = this.liveSession(session, settings);
    if (live.run) throw new Error(`session ${sessionId} is already running; steer it or stop it first`);
    this.options.store.updateSession(sessionId, { status: 'running', ownerPid: process.pid });
    const run = live.agent.run(prompt);
    live.run = run;
    try {
      const outcome = await run;
      live.writer.flush();
      this.options.store.updateSession(sessionId, { status: STATUS_AFTER[outcome.stopReason], ownerPid: null });
      return outcome;
    } finally {
      live.run = undefined;
      // The next run builds a fresh agent from the store, with that run's settings.
      this.live.delete(sessionId);
    }
  }

  /** A message for the session: steers a running run, or starts a new one. */
  send(sessionId: string, text: string, settings: RunSettings = {}): { steered: boolean; run?: Promise<RunOutcome> } {
    const live = this.live.get(sessionId);
    if (live?.run) {
      live.agent.steer(text);
      return { steered: true };
    }
    return { steered: false, run: this.run(sessionId, text, settings) };
  }

  stop(sessionId: string): boolean {
    const live = this.live.get(sessionId);
    if (!live?.run) return false;
    live.agent.abort('stopped by the user');
    return true;
  }

  /** Stops every run and waits for them to end (host shutdown). */
  async stopAll(): Promise<void> {
    const runs = [...this.live.values()].flatMap((live) => (live.run ? [live.run] : []));
    for (const live of this.live.values()) live.agent.abort('Cove is shutting down');
    await Promise.allSettled(runs);
  }

  private requireSession(id: string): SessionRecord {
    const session = this.options.store.getSession(id);
    if (!session) throw new Error(`no session with id ${id}`);
    return session;
  }

  private liveSession(session: SessionRecord, settings: RunSettings): LiveSession {
    const existing = this.live.get(session.id);
    if (existing) return existing;
    const store = this.options.store;
    const writer = new EventWriter(store, session.id, (error) => this.log(`could not store events of ${session.id}: ${(error as Error).message}`));
    let snapshots = this.snapshots.get(session.id);
    if (!snapshots) this.snapshots.set(session.id, (snapshots = new MemorySnapshotStore()));
    const agent = new Agent({
      sessionId: session.id,
      client: this.options.createClient(),
      model: session.model,
      systemPrompt: systemPromptFor(session.workspaces),
      tools: this.options.tools(session),
      toolSources: this.options.toolSources,
      middleware: settings.middleware,
      strategy: this.options.strategy,
      maxTurns: settings.maxTurns,
      retry: this.options.retry,
      workspaceRoots: session.workspaces,
      secrets: this.options.secrets?.(session) ?? NO_SECRETS,
      snapshots,
      messages: store.loadMessages(session.id) as ConversationMessage[],
      log: this.log,
      emit: (event) => this.publish(writer, event),
      onHistory: (change) => this.persistHistory(session.id, change),
    });
    const live: LiveSession = { agent, writer };
    this.live.set(session.id, live);
    return live;
  }

  private publish(writer: EventWriter, event: CoveEvent): void {
    // Queued for the store before anyone is told; the queue is written within this tick.
    writer.push(event);
    if (event.type === 'turnEnd') this.options.store.addUsage(event.sessionId, event.usage, event.cost.total);
    if (event.type === 'agentEnd') writer.flush();
    for (const listener of this.listeners) {
      try {
        listener(event);
      } catch (error) {
        this.log(`an event listener failed on ${event.type}: ${(error as Error)?.message ?? String(error)}`);
      }
    }
  }

  private persistHistory(sessionId: string, change: HistoryChange): void {
    if (change.kind === 'append') this.options.store.appendMessage(sessionId, change.message as StoredMessage);
    else this.options.store.replaceMessages(sessionId, change.messages as StoredMessage[]);
  }
}
