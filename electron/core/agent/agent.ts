/**
 * The agent loop: prompt → stream a reply → run its tool calls → answer them → repeat, until
 * the model stops calling tools, a limit is reached, or the run is cancelled. It knows nothing
 * of permissions, SQLite or the UI: those arrive as middleware, event subscribers, history
 * listeners and tool sources.
 */
import { addUsage, makeEvent, ZERO_USAGE, type CoveEvent, type StopReason, type Usage, type Cost } from '../../../shared/events';
import type { AssistantReply, MessageAssembler, ProviderRequest } from './provider';
import { DEFAULT_RETRY, describeFailure, type FailureKind } from './retry';
import { addCost, costOf, priceRow, ZERO_COST } from './pricing';
import { EMPTY_CATALOG, type ModelSpec } from './model-catalog';
import { answerDanglingCalls, appendUser, INJECTED_PREFIX, toolResultBlock } from './conversation';
import { classifyStop, MAX_CONTINUATIONS, MAX_PAUSES, thinkingFor } from './stop-reasons';
import { buildRequest } from './request';
import { chooseCut, estimateTokens, summaryMessage, summaryOf, summaryRequest } from './compaction';
import { resolveTools, type Logger } from './tool-sources';
import { runToolBatch } from './tool-batch';
import { LoopGuard } from './loop-guard';
import { ProviderFailure, requestReply, type RequestHost } from './provider-request';
import { MemorySnapshotStore, NO_SECRETS, type ConversationBlock, type ConversationMessage, type SecretRedactor, type SnapshotStore, type Tool } from './types';
import type { AgentOptions, RunOutcome } from './agent-options';

export type { AgentOptions, HistoryChange, RunOutcome } from './agent-options';

const INTERRUPTED = 'Interrupted: Cove stopped before this call finished, so its result is unknown. Check the state before repeating it.';
const CANCELLED = 'Cancelled: the run was stopped before this call ran.';
const CONTINUE = `${INJECTED_PREFIX}Your reply was cut off at the output limit. Continue exactly where it stopped, without repeating what you already wrote.`;

export class Agent {
  readonly messages: ConversationMessage[];
  private readonly steering: string[] = [];
  private controller: AbortController | undefined;
  private assembler: MessageAssembler | undefined;
  private lastReport: { tokens: number; messageCount: number } | undefined;
  private readonly requestHost: RequestHost;
  private readonly log: Logger;
  private readonly snapshots: SnapshotStore;
  private spec: ModelSpec;

  constructor(private readonly options: AgentOptions) {
    this.messages = options.messages ? structuredClone(options.messages) : [];
    this.spec = EMPTY_CATALOG.spec(options.model);
    this.snapshots = options.snapshots ?? new MemorySnapshotStore();
    this.log = options.log ?? (() => {});
    this.requestHost = {
      client: options.client,
      retry: { ...DEFAULT_RETRY, ...options.retry },
      log: this.log,
      emit: (event) => this.emit(event),
      base: () => this.base(),
      streaming: (assembler) => (this.assembler = assembler),
    };
  }

  get running(): boolean {
    return this.controller !== undefined;
  }

  /** Queues a user message for the running run; it is read between tool units or after the reply. */
  steer(text: string): void {
    this.steering.push(text);
  }

  /** Takes the steering no turn read: what came after the run's last look for it. */
  takeSteering(): string[] {
    return this.drainSteering();
  }

  abort(reason = 'stopped'): void {
    this.controller?.abort(new Error(reason));
  }

  /**
   * `attachments` (mentioned files, images) follow the prompt in its user message. `resume` runs
   * on the history as it stands when it already ends with the person's turn (a failed or
   * interrupted run's prompt), so the prompt is not sent twice.
   */
  async run(prompt: string, signal?: AbortSignal, attachments: readonly ConversationBlock[] = [], resume = false): Promise<RunOutcome> {
    if (this.controller) throw new Error('this session already has a run in progress');
    const controller = new AbortController();
    this.controller = controller;
    const onOuterAbort = () => controller.abort(signal?.reason);
    signal?.addEventListener('abort', onOuterAbort, { once: true });
    if (signal?.aborted) controller.abort(signal.reason);

    let usage: Usage = { ...ZERO_USAGE };
    let cost: Cost | null = priceRow(this.options.model) ? { ...ZERO_COST } : null;
    let stopReason: StopReason = 'endTurn';
    let error: string | undefined;
    let errorKind: FailureKind | undefined;
    this.emit(makeEvent('agentStart', { ...this.base(), model: this.options.model, prompt, ...(resume ? { resumed: true as const } : {}) }));
    try {
      // Sources are consulted before any state is touched, so a cancel here changes nothing.
      const [tools, secrets, spec] = await Promise.all([
        resolveTools(this.options.tools ?? [], this.options.toolSources ?? [], controller.signal, this.log),
        this.secrets(),
        this.options.modelSpec ?? this.spec,
      ]);
      this.spec = spec;
      if (answerDanglingCalls(this.messages, INTERRUPTED) > 0) this.replaceHistory();
      // Where this run's part of the history begins; the prompt may merge into a trailing user message.
      const runStart = this.messages.length;
      const trailing = this.messages.at(-1);
      const trailingBlocks = trailing?.role === 'user' && Array.isArray(trailing.content) ? trailing.content.length : undefined;
      // Project instructions (AGENTS.md, CLAUDE.md) and skills are workspace text like any other.
      const systemPrompt = secrets.redact(this.options.systemPrompt ?? '').text;
      const runPrompts = [prompt];
      if (!resume || this.messages.at(-1)?.role !== 'user') this.appendUserBlocks([{ type: 'text', text: prompt }, ...attachments]);
      const guard = new LoopGuard();
      const maxTurns = this.options.maxTurns ?? 50;
      let continuations = 0;
      let pauses = 0;
      let windowRetried = false;
      let forceCompaction = false;

      for (let turn = 1; ; turn++) {
        if (controller.signal.aborted) throw controller.signal.reason;
        if (turn > maxTurns) {
          stopReason = 'maxTurns';
          error = `stopped after ${maxTurns} turns (the turn limit)`;
          break;
        }
        this.emit(makeEvent('turnStart', { ...this.base(), turn }));
        const filter = this.options.toolFilter;
        const offered = filter ? tools.filter((tool) => filter(tool.name)) : tools;
        const turnUsage = await this.compactIfNeeded(offered, runPrompts, controller.signal, { force: forceCompaction });
        forceCompaction = false;
        const reply = await this.request(
          buildRequest({
            model: this.options.model,
            maxTokens: this.maxTokens(),
            systemPrompt,
            tools: offered,
            messages: this.messages,
            thinking: thinkingFor(this.spec),
          }),
          controller.signal,
          true,
        );
        const stop = classifyStop(reply.stopReason);
        if (stop.kind === 'unknown') this.log(`the provider ended a reply with stop reason "${reply.stopReason}", which Cove does not know; the turn ends there`);
        // A refused reply and one that overflowed the window never enter the history.
        const keep = stop.kind !== 'refusal' && stop.kind !== 'contextExceeded';
        if (keep && reply.content.length > 0) this.appendMessage({ role: 'assistant', content: reply.content as ConversationBlock[] });
        this.lastReport = keep ? { tokens: reply.usage.input + reply.usage.cacheRead + reply.usage.cacheWrite + reply.usage.output, messageCount: this.messages.length } : undefined;
        const spent = addUsage(turnUsage, reply.usage);
        const turnCost = costOf(this.options.model, spent);
        usage = addUsage(usage, spent);
        cost = addCost(cost, turnCost);
        this.emit(makeEvent('turnEnd', { ...this.base(), turn, usage: spent, cost: turnCost }));

        if (stop.kind === 'refusal') {
          // The docs forbid sending a refused exchange again: this run's part of the history goes.
          this.messages.splice(runStart);
          if (trailing && trailingBlocks !== undefined && Array.isArray(trailing.content)) trailing.content = trailing.content.slice(0, trailingBlocks);
          this.replaceHistory();
          stopReason = 'refused';
          error = 'the model declined this request (stop reason refusal); it is kept out of the conversation, so rephrase it or start over';
          break;
        }
        if (stop.kind === 'contextExceeded') {
          if (windowRetried) {
            stopReason = 'contextExceeded';
            error = 'the conversation no longer fits the context window, even after compacting; start a new session';
            break;
          }
          windowRetried = true;
          forceCompaction = true;
          continue;
        }
        if (stop.kind === 'pause') {
          if (++pauses > MAX_PAUSES) {
            stopReason = 'error';
            error = `the provider paused the turn ${MAX_PAUSES} times in a row (stop reason pause_turn)`;
            break;
          }
          continue;
        }
        pauses = 0;
        const calls = reply.content.some((block) => block.type === 'tool_use');
        if (stop.kind === 'maxTokens') {
          if (continuations >= MAX_CONTINUATIONS) {
            stopReason = 'truncated';
            error = `the reply was cut off at the output limit (${this.maxTokens()} tokens) ${MAX_CONTINUATIONS + 1} times in a row; it is incomplete`;
            break;
          }
          continuations++;
          // Cut-off calls are answered as not run by the batch below; cut-off text is continued.
          if (!calls) {
            this.appendUserBlocks([{ type: 'text', text: CONTINUE }]);
            continue;
          }
        } else continuations = 0;

        if (!calls) {
          const queued = this.drainSteering();
          if (queued.length === 0) break;
          runPrompts.push(...queued);
          this.appendUserBlocks(queued.map((text) => ({ type: 'text', text })));
          continue;
        }

        const batch = await runToolBatch({
          reply,
          strategy: this.options.strategy ?? 'parallel',
          guard,
          hasSteering: () => this.steering.length > 0,
          env: {
            sessionId: this.options.sessionId,
            subagentId: this.options.subagentId,
            tools: new Map(offered.map((tool) => [tool.name, tool])),
            middleware: this.options.middleware ?? [],
            workspaceRoots: this.options.workspaceRoots,
            cwd: this.options.cwd ?? this.options.workspaceRoots[0] ?? process.cwd(),
            secrets,
            snapshots: this.snapshots,
            messages: this.messages,
            runPrompts,
            signal: controller.signal,
            emit: (event) => this.emit(event),
          },
        });
        const queued = this.drainSteering();
        runPrompts.push(...queued);
        this.appendUserBlocks([
          ...batch.outcomes.map(({ call, outcome }) => toolResultBlock(call.id, outcome.result, outcome.isError)),
          ...queued.map((text): ConversationBlock => ({ type: 'text', text })),
        ]);
        if (batch.loopStop) {
          stopReason = 'loopDetected';
          error = 'stopped: the model kept repeating the same tool call after being told to change course';
          break;
        }
      }
    } catch (caught) {
      if (controller.signal.aborted) {
        stopReason = 'aborted';
        this.keepPartialReply();
      } else {
        stopReason = 'error';
        const failure = caught instanceof ProviderFailure ? caught : describeFailure(caught);
        error = failure.message;
        errorKind = failure.kind;
      }
    } finally {
      signal?.removeEventListener('abort', onOuterAbort);
      if (answerDanglingCalls(this.messages, CANCELLED) > 0) this.replaceHistory();
      this.assembler = undefined;
      this.controller = undefined;
    }
    this.emit(makeEvent('agentEnd', { ...this.base(), stopReason, usage, cost, ...(error ? { error } : {}), ...(errorKind ? { errorKind } : {}) }));
    return { stopReason, usage, cost, ...(error ? { error } : {}) };
  }

  private async secrets(): Promise<SecretRedactor> {
    return (await this.options.secrets) ?? NO_SECRETS;
  }

  private base(): { sessionId: string; subagentId?: string } {
    return this.options.subagentId ? { sessionId: this.options.sessionId, subagentId: this.options.subagentId } : { sessionId: this.options.sessionId };
  }

  private emit(event: CoveEvent): void {
    try {
      this.options.emit(event);
    } catch (error) {
      this.log(`an event subscriber failed on ${event.type}: ${(error as Error)?.message ?? String(error)}`);
    }
  }

  private maxTokens(): number {
    return this.options.maxTokens ?? Math.min(32_000, this.spec.maxOutput);
  }

  private drainSteering(): string[] {
    return this.steering.splice(0, this.steering.length);
  }

  private appendMessage(message: ConversationMessage): void {
    this.messages.push(message);
    this.options.onHistory?.({ kind: 'append', message });
  }

  private appendUserBlocks(blocks: ConversationBlock[]): void {
    const merging = this.messages.at(-1)?.role === 'user';
    const message = appendUser(this.messages, blocks);
    if (merging) this.replaceHistory();
    else this.options.onHistory?.({ kind: 'append', message });
  }

  private replaceHistory(): void {
    this.options.onHistory?.({ kind: 'replaceAll', messages: this.messages });
  }

  /** A reply cut short by a cancel keeps the text the person already saw. */
  private keepPartialReply(): void {
    const text = this.assembler?.finished ? [] : (this.assembler?.partial().filter((block) => block.type === 'text') ?? []);
    if (text.length > 0) this.appendMessage({ role: 'assistant', content: text });
  }

  /** One provider request with retries; each retry is published as `providerRetry`. */
  private request(request: ProviderRequest, signal: AbortSignal, visible: boolean): Promise<AssistantReply> {
    return requestReply(this.requestHost, request, signal, visible);
  }

  /**
   * `/compact`: summarizes all but the latest exchange now, between runs, keeping `focus` (the
   * person's words) in the summary. History is replaced only by a summary that has text in it.
   * Returns the usage spent and whether anything was compacted.
   */
  async compactNow(signal: AbortSignal, focus = ''): Promise<{ compacted: boolean; usage: Usage }> {
    this.spec = await (this.options.modelSpec ?? this.spec);
    const first = this.messages[0];
    const usage = await this.compactIfNeeded(this.options.tools ?? [], [], signal, { force: true, keepWithoutSummary: false, focus });
    // A compaction always replaces the first message with the summary.
    return { compacted: this.messages[0] !== first, usage };
  }

  /**
   * Summarizes the older part of the history when the context nears the window, or at once when
   * `force` (the provider said the window was exceeded, or the person asked). Returns the usage spent.
   */
  private async compactIfNeeded(
    tools: readonly Tool[],
    runPrompts: readonly string[],
    signal: AbortSignal,
    options: { force?: boolean; keepWithoutSummary?: boolean; focus?: string } = {},
  ): Promise<Usage> {
    const { force = false, keepWithoutSummary = force, focus = '' } = options;
    const window = this.options.contextWindow ?? this.spec.contextWindow;
    const fixed = estimateTokens([{ role: 'user', content: (this.options.systemPrompt ?? '') + JSON.stringify(tools.map((t) => t.parameters)) }]);
    const tokens = this.lastReport ? this.lastReport.tokens + estimateTokens(this.messages.slice(this.lastReport.messageCount)) : fixed + estimateTokens(this.messages);
    if (!force && tokens < window * (this.options.compactAt ?? 0.8)) return { ...ZERO_USAGE };
    // Past the window, keep as little as a cut allows: the latest exchange.
    const cut = chooseCut(this.messages, force ? 0 : Math.floor(window * 0.25));
    if (cut === null) return { ...ZERO_USAGE };

    await this.options.beforeCompact?.(signal);
    const removed = this.messages.slice(0, cut);
    let summary: string | null = null;
    let spent: Usage = { ...ZERO_USAGE };
    try {
      const reply = await this.request(summaryRequest(this.options.model, this.spec, removed, window, focus), signal, false);
      spent = reply.usage;
      summary = summaryOf(reply);
    } catch (error) {
      if (signal.aborted) throw error;
      this.log(`compaction could not summarize: ${describeFailure(error).message}`);
    }
    if (summary === null && !keepWithoutSummary) {
      // Older turns are replaced only by a real summary; the window is not full yet.
      this.log('compaction got no summary; the history is kept as it is for now');
      return spent;
    }
    this.messages.splice(0, cut, summaryMessage(summary, removed.length, runPrompts));
    this.lastReport = undefined;
    this.replaceHistory();
    this.emit(makeEvent('contextCompacted', { ...this.base(), removedMessages: removed.length, tokensBefore: tokens, summarized: summary !== null }));
    return spent;
  }
}
