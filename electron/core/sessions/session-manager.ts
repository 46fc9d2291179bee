/**
 * The one owner of running agents. Creates, resumes, runs, steers and stops sessions, persists
 * everything as it goes, and publishes every event to any number of subscribers (the CLI, the
 * desktop window, browser tabs). Hosts talk to sessions only through this class.
 */
import { makeEvent, type CoveEvent, type EventFields, type RevertEvent, type RewindEvent, type StopReason } from '../../../shared/events';
import type { Agent, HistoryChange, RunOutcome } from '../agent/agent';
import { withoutThinking } from '../agent/conversation';
import type { ConversationMessage, SecretRedactor, SnapshotStore, ToolMiddleware } from '../agent/types';
import { MemorySnapshotStore } from '../agent/types';
import { costOf } from '../agent/pricing';
import type { SessionRecord, SessionStatus, StoredMessage, Store } from '../store';
import { EventWriter } from './event-writer';
import { NothingToResumeError, promptToResume } from './resume-prompt';
import type { EventSequencer } from './event-sequencer';
import { PermissionPrompts, type PromptAnswer } from './permission-prompts';
import { sessionPrompter } from './session-prompter';
import type { SubagentCalls } from './subagent-calls';
import { SessionPublisher, type EventListener, type SessionListener } from './session-publisher';
import type { RunSettings, SessionGate, SessionManagerOptions } from './session-options';
import { buildSessionAgent } from './session-agent';
import type { SubagentRunner } from '../subagents/subagent-runner';
import { loadPersonas, type Persona } from '../project/personas';
import type { SessionHooks } from '../hooks/session-hooks';
import { runWithHooks } from '../hooks/hooked-run';
import { SessionSecrets } from '../secrets/session-secrets';
import type { SessionCheckpoints } from '../checkpoints/session-checkpoints';

export type { EventListener, SessionListener } from './session-publisher';
export type { RunSettings, SessionGate, SessionManagerOptions } from './session-options';

interface LiveSession {
  agent: Agent;
  writer: EventWriter;
  subagents: SubagentRunner;
  run?: Promise<RunOutcome>;
  /** Stops the run's hooks too, which run while the agent itself is not running. */
  hooksStop?: AbortController;
  checkpoints?: SessionCheckpoints;
  /** Set once the run (its agent, then its hooks) has returned: steering then waits for the next run. */
  ended?: boolean;
  /** Steering that came after the agent's last look for it; it starts the next run. */
  late?: string[];
  /** The person pressed Stop: steering the run had not read starts no run after it. */
  stopped?: boolean;
}

const STATUS_AFTER: Record<StopReason, SessionStatus> = {
  endTurn: 'done',
  aborted: 'aborted',
  error: 'error',
  maxTurns: 'error',
  loopDetected: 'error',
  truncated: 'error',
  refused: 'error',
  contextExceeded: 'error',
};

export class SessionManager {
  private readonly live = new Map<string, LiveSession>();
  /** Sessions a `/compact` is summarizing; no run starts on them meanwhile. */
  private readonly compacting = new Set<string>();
  /** What the model was shown of each file, kept across a session's runs for hashline edits. */
  private readonly snapshots = new Map<string, SnapshotStore>();
  private readonly gates = new Map<string, SessionGate>();
  private readonly hookSets = new Map<string, SessionHooks>();
  /** Sessions whose SessionStart hooks ran in this process. */
  private readonly startedHooks = new Set<string>();
  private readonly lastErrors = new Map<string, string>();
  /** The persona each session acts as, by name; read at every turn for the tool allowlist. */
  private readonly personas = new Map<string, string>();
  private readonly prompts: PermissionPrompts;
  private readonly publisher: SessionPublisher;
  private readonly subagentCalls: SubagentCalls;
  private readonly sequencer: EventSequencer;
  private readonly log: (message: string) => void;
  /** One secret set per session, closed with it; it redacts the session's events as well. */
  private readonly secretSets: SessionSecrets;

  constructor(private readonly options: SessionManagerOptions) {
    this.log = options.log ?? (() => {});
    this.secretSets = new SessionSecrets(options.secrets ? (session) => options.secrets!(this.requireSession(session.id)) : undefined);
    this.publisher = new SessionPublisher({
      store: options.store,
      log: this.log,
      writerOf: (sessionId) => this.live.get(sessionId)?.writer,
      secretsOf: (sessionId) => this.secretSets.current(sessionId),
      hooksOf: (sessionId) => this.hookSets.get(sessionId),
    });
    this.subagentCalls = this.publisher.subagentCalls;
    this.sequencer = this.publisher.sequencer;
    this.prompts = new PermissionPrompts(
      (event) => this.publish(event),
      (sessionId, waiting) => this.update(sessionId, { status: waiting ? 'waiting' : 'running' }),
    );
    const recovered = options.store.recoverInterrupted();
    if (recovered.sessions.length > 0) {
      this.log(`marked ${recovered.sessions.length} session(s) interrupted (their process had stopped)`);
    }
  }

  get store(): Store {
    return this.options.store;
  }

  subscribe(listener: EventListener): () => void {
    return this.publisher.subscribe(listener);
  }

  /** Called with the fresh record whenever a session's status, title, usage or settings change. */
  subscribeSessions(listener: SessionListener): () => void {
    return this.publisher.subscribeSessions(listener);
  }

  createSession(input: { workspaces: string[]; model: string; permissionMode: string; title?: string }): SessionRecord {
    const session = this.options.store.createSession(input);
    this.notify(session.id);
    return session;
  }

  getSession(id: string): SessionRecord | undefined {
    return this.options.store.getSession(id);
  }

  /** The most recently active session of a workspace (`cove run --continue`). */
  latestSessionForWorkspace(workspace: string): SessionRecord | undefined {
    return this.options.store.latestSessionForWorkspace(workspace);
  }

  isRunning(id: string): boolean {
    return this.live.get(id)?.run !== undefined;
  }

  /** The last run's error, while this process knows it. */
  lastError(id: string): string | null {
    return this.lastErrors.get(id) ?? null;
  }

  /** Forgets every session's permission gate, so the next run reads the settings files again. */
  reloadPermissions(): void {
    this.gates.clear();
    this.hookSets.clear();
  }

  /** The session's hooks, read from its settings files now; throws `HookConfigError` for a malformed one. */
  hooksFor(session: SessionRecord): SessionHooks | undefined {
    if (!this.options.hooks) return undefined;
    let hooks = this.hookSets.get(session.id);
    if (!hooks) this.hookSets.set(session.id, (hooks = this.options.hooks(session, (event) => this.publish(event))));
    hooks.reload();
    return hooks;
  }

  /** Changes a session's settings; a running run keeps its workspaces until it ends. */
  updateSession(id: string, patch: { title?: string; workspaces?: string[]; permissionMode?: string; model?: string }): SessionRecord {
    const before = this.requireSession(id);
    // Another model cannot read this one's thinking blocks: the stored history drops them.
    if (patch.model && patch.model !== before.model) {
      this.options.store.replaceMessages(id, withoutThinking(this.options.store.loadMessages(id) as ConversationMessage[]) as StoredMessage[]);
    }
    this.options.store.updateSession(id, patch);
    if (patch.permissionMode) this.gates.get(id)?.setMode?.(patch.permissionMode);
    if (patch.workspaces) {
      this.gates.delete(id);
      this.hookSets.delete(id);
    }
    return this.notify(id)!;
  }

  deleteSession(id: string): boolean {
    if (this.isRunning(id)) throw new Error(`session ${id} is running; stop it before deleting it`);
    this.snapshots.delete(id);
    this.gates.delete(id);
    this.hookSets.delete(id);
    this.lastErrors.delete(id);
    this.secretSets.close(id);
    this.sequencer.forget(id);
    return this.options.store.deleteSession(id);
  }

  /** Runs a prompt and resolves when the run ends. A session runs one run at a time; use `send` to steer. */
  run(sessionId: string, prompt: string, settings: RunSettings = {}): Promise<RunOutcome> {
    try {
      return this.start(sessionId, prompt, settings);
    } catch (error) {
      return Promise.reject(error);
    }
  }

  /**
   * Starts a run. Whatever can fail before the run begins (an unknown session, a run already
   * going, no API key, a malformed settings file) throws here, synchronously, so a host can
   * answer the request that asked for it; the returned promise resolves when the run ends.
   */
  start(sessionId: string, prompt: string, settings: RunSettings = {}): Promise<RunOutcome> {
    const session = this.requireSession(sessionId);
    if (this.live.get(sessionId)?.run) throw new Error(`session ${sessionId} is already running; steer it or stop it first`);
    if (this.compacting.has(sessionId)) throw new Error(`session ${sessionId} is being compacted (/compact); send again when it is done`);
    const hooks = this.hooksFor(session);
    const live = this.liveSession(session, settings, hooks);
    this.sequencer.resync(sessionId);
    if (!settings.resume && !settings.announced) this.publish(makeEvent('userMessage', { sessionId, text: prompt, ...settings.message, steered: false }));
    this.lastErrors.delete(sessionId);
    this.update(sessionId, { status: 'running', ownerPid: process.pid });
    const firstInProcess = !this.startedHooks.has(sessionId);
    this.startedHooks.add(sessionId);
    if (hooks) live.hooksStop = new AbortController();
    const resume = settings.resume === true;
    const run = hooks
      ? runWithHooks(live.agent, hooks, prompt, firstInProcess, live.hooksStop!.signal, settings.attachments, resume)
      : live.agent.run(prompt, undefined, settings.attachments, resume);
    live.run = run;
    return run
      .then(async (outcome) => {
        live.ended = true;
        await live.checkpoints?.finishRun();
        this.sequencer.release(sessionId);
        live.writer.flush();
        if (outcome.error && outcome.stopReason !== 'endTurn') this.lastErrors.set(sessionId, outcome.error);
        this.update(sessionId, { status: STATUS_AFTER[outcome.stopReason], ownerPid: null });
        return outcome;
      })
      .finally(() => {
        live.run = undefined;
        // The next run builds a fresh agent from the store, with that run's settings.
        this.live.delete(sessionId);
        this.startLateSteering(sessionId, live);
      });
  }

  /**
   * Steering sent while a run was ending (its agent had made its last check for steering, the
   * run's checkpoint and hooks were finishing) was shown as sent but read by no turn; it starts
   * the next run, as if sent a moment later, rather than being lost.
   */
  private startLateSteering(sessionId: string, live: LiveSession): void {
    const late = [...live.agent.takeSteering(), ...(live.late ?? [])];
    // Stop means stop: a note the stopped run never read stays shown as not read (the
    // transcript says so), rather than starting a run the person just ended.
    if (late.length === 0 || live.stopped || this.live.get(sessionId)?.run) return;
    this.start(sessionId, late.join('\n\n'), { announced: true }).catch((error: unknown) =>
      this.options.log?.(`the steering sent as ${sessionId}'s run ended could not start a run: ${(error as Error).message}`),
    );
  }

  /**
   * `/compact`: summarizes the session's history now (SPEC §3 compaction, at the person's
   * request). Between runs only; its usage and cost count to the session like a turn's.
   */
  async compact(sessionId: string, focus: string): Promise<{ compacted: boolean }> {
    const session = this.requireSession(sessionId);
    if (this.live.get(sessionId)?.run) throw new Error(`session ${sessionId} is running; stop it first, or let it compact by itself`);
    if (this.compacting.has(sessionId)) throw new Error(`session ${sessionId} is already being compacted`);
    const live = this.liveSession(session, {}, this.hooksFor(session));
    this.compacting.add(sessionId);
    try {
      const { compacted, usage } = await live.agent.compactNow(new AbortController().signal, focus);
      this.options.store.addUsage(sessionId, usage, costOf(session.model, usage)?.total ?? 0);
      return { compacted };
    } finally {
      this.compacting.delete(sessionId);
      this.sequencer.release(sessionId);
      live.writer.flush();
      this.live.delete(sessionId);
      this.notify(sessionId);
    }
  }

  /**
   * Runs the session again from its stored history, without a new prompt: Retry after a failed
   * run, Resume after an interrupted one. Refused when the history ends with the model's reply.
   */
  retry(sessionId: string): Promise<RunOutcome> {
    const prompt = promptToResume(this.options.store.loadMessages(sessionId) as ConversationMessage[]);
    if (prompt === undefined) throw new NothingToResumeError(sessionId);
    return this.start(sessionId, prompt, { resume: true });
  }

  /** A message for the session: steers a running run, or starts a new one. */
  send(sessionId: string, text: string, settings: RunSettings = {}): { steered: boolean; run?: Promise<RunOutcome> } {
    const live = this.live.get(sessionId);
    if (live?.run) {
      this.publish(makeEvent('userMessage', { sessionId, text, ...settings.message, steered: true }));
      const hooks = this.hookSets.get(sessionId);
      // A run that has returned reads no more steering; its end passes it on to the next run.
      const deliver = (checked: string) => (live.ended ? (live.late ??= []).push(checked) : live.agent.steer(checked));
      if (hooks) hooks.steer(text, deliver);
      else deliver(text);
      return { steered: true };
    }
    return { steered: false, run: this.start(sessionId, text, settings) };
  }

  /** What the model was shown of each file in this session (a mention's read counts too). */
  snapshotsOf(sessionId: string): SnapshotStore {
    let snapshots = this.snapshots.get(sessionId);
    if (!snapshots) this.snapshots.set(sessionId, (snapshots = new MemorySnapshotStore()));
    return snapshots;
  }

  secretsOf(sessionId: string): SecretRedactor | Promise<SecretRedactor> {
    return this.secretSets.of(this.requireSession(sessionId));
  }

  /** Redacts with the session's secret set once it is scanned (the built-in patterns before): for the permission audit. */
  redactorOf(sessionId: string): SecretRedactor {
    return this.secretSets.redactorOf(sessionId);
  }

  /**
   * Stores everything the session has published so far and answers the seq of the latest, so a
   * read of its log that follows holds every event numbered up to it.
   */
  settleEvents(sessionId: string): number {
    this.sequencer.release(sessionId);
    this.live.get(sessionId)?.writer.flush();
    return this.sequencer.current(sessionId);
  }

  /** Publishes a prompt that starts no run (a built-in command and its answer). */
  recordUserMessage(sessionId: string, fields: Omit<EventFields<'userMessage'>, 'sessionId'>): void {
    this.publish(makeEvent('userMessage', { sessionId, ...fields }));
  }

  /** Publishes a rewind (SPEC §13) done while no run was going. */
  recordRewind(event: RewindEvent | RevertEvent): void {
    this.publish(event);
  }

  stop(sessionId: string): boolean {
    const live = this.live.get(sessionId);
    if (!live?.run) return false;
    live.stopped = true;
    live.agent.abort('stopped by the user');
    live.hooksStop?.abort(new Error('stopped by the user'));
    return true;
  }

  /** Stops every run and waits for them to end (host shutdown). */
  async stopAll(): Promise<void> {
    const runs = [...this.live.values()].flatMap((live) => (live.run ? [live.run] : []));
    for (const live of this.live.values()) {
      live.agent.abort('Cove is shutting down');
      live.hooksStop?.abort(new Error('Cove is shutting down'));
    }
    await Promise.allSettled(runs);
    this.secretSets.closeAll();
    // Nothing may be left to number and write once the host closes the store.
    this.sequencer.releaseAll();
    for (const live of this.live.values()) live.writer.flush();
  }

  /** The personas defined in a session's workspaces, and problems with their files. */
  availablePersonas(sessionId: string): { personas: Persona[]; problems: string[] } {
    return loadPersonas(this.requireSession(sessionId).workspaces);
  }

  persona(sessionId: string): string | null {
    return this.personas.get(sessionId) ?? null;
  }

  /** Switches persona; its tool allowlist applies from the next turn, its prompt from the next run. */
  setPersona(sessionId: string, name: string | null): void {
    if (name === null) this.personas.delete(sessionId);
    else {
      const { personas } = this.availablePersonas(sessionId);
      if (!personas.some((persona) => persona.name === name)) {
        throw new Error(`no persona named '${name}' in this session's workspaces (.cove/personas/${name}.md)`);
      }
      this.personas.set(sessionId, name);
    }
    this.notify(sessionId);
  }

  /** Stops one subagent of a running session; its parent goes on. */
  cancelSubagent(sessionId: string, subagentId: string): boolean {
    return this.live.get(sessionId)?.subagents.cancel(subagentId) ?? false;
  }

  pendingPermissions(sessionId?: string) {
    return this.prompts.list(sessionId);
  }

  answerPermission(sessionId: string, requestId: string, answer: PromptAnswer): boolean {
    return this.prompts.answer(sessionId, requestId, answer);
  }

  private requireSession(id: string): SessionRecord {
    const session = this.options.store.getSession(id);
    if (!session) throw new Error(`no session with id ${id}`);
    return session;
  }

  private update(id: string, patch: { status?: SessionStatus; ownerPid?: number | null }): void {
    this.options.store.updateSession(id, patch);
    this.notify(id);
  }

  private notify(id: string): SessionRecord | undefined {
    return this.publisher.notify(id);
  }

  private gateFor(session: SessionRecord): ToolMiddleware[] {
    if (!this.options.permissionGate) return [];
    let gate = this.gates.get(session.id);
    if (!gate) {
      const prompter = sessionPrompter(session, {
        prompts: this.prompts,
        subagentCalls: this.subagentCalls,
        tools: () => this.options.tools(session),
        snapshots: this.snapshotsOf(session.id),
        secrets: () => this.secretsOf(session.id),
      });
      this.gates.set(session.id, (gate = this.options.permissionGate(session, prompter)));
    }
    return [gate];
  }

  private liveSession(session: SessionRecord, settings: RunSettings, hooks: SessionHooks | undefined): LiveSession {
    const existing = this.live.get(session.id);
    if (existing) return existing;
    const store = this.options.store;
    const writer = new EventWriter(store, session.id, (error) => this.log(`could not store events of ${session.id}: ${(error as Error).message}`));
    const snapshots = this.snapshotsOf(session.id);
    const checkpoints = this.options.checkpoints?.(session, (event) => this.publish(event));
    const { agent, subagents } = buildSessionAgent({
      session,
      options: this.options,
      client: this.options.createClient(),
      middleware: [...this.gateFor(session), ...(checkpoints ? [checkpoints.middleware] : [])],
      maxTurns: settings.maxTurns,
      hooks,
      snapshots,
      secrets: this.secretSets.of(session),
      messages: store.loadMessages(session.id) as ConversationMessage[],
      personaName: () => this.personas.get(session.id),
      emit: (event) => this.publish(event),
      onHistory: (change) => this.persistHistory(session.id, change),
      log: this.log,
    });
    const live: LiveSession = { agent, writer, subagents, checkpoints };
    this.live.set(session.id, live);
    return live;
  }

  private publish(event: CoveEvent): void {
    this.publisher.publish(event);
  }

  private persistHistory(sessionId: string, change: HistoryChange): void {
    if (change.kind === 'append') {
      const first = this.options.store.appendMessage(sessionId, change.message as StoredMessage) === 1;
      // The first prompt names the session.
      if (first) this.notify(sessionId);
    } else this.options.store.replaceMessages(sessionId, change.messages as StoredMessage[]);
  }
}
