/**
 * Runs subagents for one session: a child agent with a fresh context, the parent's workspace,
 * a tool subset, limits on turns and time, and the parent's permission gate. At most
 * `maxConcurrent` children run at once (others wait for a slot); the parent's cancel stops
 * them, and so can a person from the sidebar. Their events carry their `subagentId`, framed
 * by `subagentStart` and `subagentEnd`.
 */
import { randomUUID } from 'node:crypto';
import { makeEvent, type CoveEvent } from '../../../shared/events';
import { Agent, type AgentOptions, type RunOutcome } from '../agent/agent';
import { ToolError, type Tool, type ToolContext, type ToolResult } from '../agent/types';
import type { AgentDefinition } from './definitions';
import { displayNameFor } from './display-names';

export interface SubagentLimits {
  maxConcurrent: number;
  maxDepth: number;
  maxTurns: number;
  timeLimitMs: number;
}

export const DEFAULT_SUBAGENT_LIMITS: SubagentLimits = { maxConcurrent: 4, maxDepth: 2, maxTurns: 25, timeLimitMs: 10 * 60_000 };

/** What the runner needs from the session to build a child agent. */
export interface ChildFactory {
  /** The options shared with the parent: client, workspace, secrets, snapshots, middleware, strategy. */
  base(): Omit<AgentOptions, 'emit' | 'subagentId' | 'tools' | 'systemPrompt' | 'maxTurns' | 'messages' | 'onHistory'>;
  /** The tools a child at `depth` may have before its definition narrows them (a subagent tool only below the depth limit). */
  tools(depth: number): Tool[];
  systemPrompt(definition: AgentDefinition | undefined): string;
  emit(event: CoveEvent): void;
}

interface Running {
  agent: Agent;
  cancelledByPerson: boolean;
}

export class SubagentRunner {
  private readonly running = new Map<string, Running>();
  private readonly waiting: Array<() => void> = [];
  private active = 0;

  constructor(
    private readonly sessionId: string,
    private readonly factory: ChildFactory,
    private readonly limits: SubagentLimits = DEFAULT_SUBAGENT_LIMITS,
  ) {}

  /** Stops one subagent, as the sidebar's cancel button does; the parent's run goes on. */
  cancel(subagentId: string): boolean {
    const running = this.running.get(subagentId);
    if (!running) return false;
    running.cancelledByPerson = true;
    running.agent.abort('cancelled by the person');
    return true;
  }

  runningIds(): string[] {
    return [...this.running.keys()];
  }

  /** Runs `task` to its end as a child at `depth` (1 for the session's own agent's children). */
  async run(task: string, definition: AgentDefinition | undefined, ctx: ToolContext, depth: number): Promise<ToolResult> {
    if (depth > this.limits.maxDepth) throw ToolError.failed(`Subagents may nest at most ${this.limits.maxDepth} levels deep; do this task yourself.`);
    await this.acquire(ctx.signal);
    const subagentId = `sub_${randomUUID().replace(/-/g, '').slice(0, 12)}`;
    const displayName = displayNameFor(subagentId);
    const base = { sessionId: this.sessionId, subagentId };
    const started = Date.now();
    const maxTurns = definition?.maxTurns ?? this.limits.maxTurns;
    const agent = new Agent({
      ...this.factory.base(),
      // Another model has other limits: the session model's spec would be wrong for it.
      ...(definition?.model ? { model: definition.model, modelSpec: undefined } : {}),
      subagentId,
      tools: this.childTools(definition, depth),
      systemPrompt: this.factory.systemPrompt(definition),
      maxTurns,
      emit: (event) => this.factory.emit(event),
    });
    const running: Running = { agent, cancelledByPerson: false };
    this.running.set(subagentId, running);
    this.factory.emit(makeEvent('subagentStart', { ...base, displayName, parentToolCallId: ctx.toolCallId, task }));
    ctx.onProgress(`${displayName} is working on: ${task.slice(0, 120)}`);
    const onParentAbort = () => agent.abort('the parent run was stopped');
    ctx.signal.addEventListener('abort', onParentAbort, { once: true });
    let timedOut = false;
    const timer = setTimeout(() => {
      timedOut = true;
      agent.abort('time limit');
    }, this.limits.timeLimitMs);
    let outcome: RunOutcome | undefined;
    try {
      outcome = await agent.run(task);
    } finally {
      clearTimeout(timer);
      ctx.signal.removeEventListener('abort', onParentAbort);
      this.running.delete(subagentId);
      this.release();
    }
    const status = outcome.stopReason === 'endTurn' ? 'done' : outcome.stopReason === 'aborted' && !timedOut ? 'cancelled' : 'failed';
    this.factory.emit(makeEvent('subagentEnd', { ...base, status }));
    const answer = finalText(agent);
    const details = { subagentId, displayName, stopReason: outcome.stopReason, usage: outcome.usage, costUsd: outcome.cost?.total ?? null, elapsedMs: Date.now() - started };
    if (status === 'done') return { content: [{ type: 'text', text: answer || '(the subagent finished without a final answer)' }], details };
    const why = timedOut
      ? `it reached its time limit of ${Math.round(this.limits.timeLimitMs / 1000)} s`
      : running.cancelledByPerson
        ? 'the person cancelled it'
        : outcome.stopReason === 'aborted'
          ? 'the run was stopped'
          : (outcome.error ?? outcome.stopReason);
    const partial = answer ? `\nIts last words were:\n${answer}` : '';
    if (outcome.stopReason === 'aborted' && !timedOut && !running.cancelledByPerson) throw ToolError.cancelled(`Subagent ${displayName} was stopped: ${why}.`, details);
    throw ToolError.failed(`Subagent ${displayName} stopped before finishing: ${why}.${partial}`, details);
  }

  private childTools(definition: AgentDefinition | undefined, depth: number): Tool[] {
    const allowed = definition?.tools;
    return this.factory.tools(depth).filter((tool) => !allowed || allowed.includes(tool.name));
  }

  get maxDepth(): number {
    return this.limits.maxDepth;
  }

  private acquire(signal: AbortSignal): Promise<void> {
    if (this.active < this.limits.maxConcurrent) {
      this.active++;
      return Promise.resolve();
    }
    return new Promise((resolve, reject) => {
      const grant = () => {
        signal.removeEventListener('abort', onAbort);
        this.active++;
        resolve();
      };
      const onAbort = () => {
        this.waiting.splice(this.waiting.indexOf(grant), 1);
        reject(ToolError.cancelled('Cancelled while waiting for a free subagent slot.'));
      };
      this.waiting.push(grant);
      signal.addEventListener('abort', onAbort, { once: true });
    });
  }

  private release(): void {
    this.active--;
    this.waiting.shift()?.();
  }
}

function finalText(agent: Agent): string {
  const last = [...agent.messages].reverse().find((message) => message.role === 'assistant');
  if (!last) return '';
  if (typeof last.content === 'string') return last.content;
  return last.content
    .flatMap((block) => (block.type === 'text' ? [block.text] : []))
    .join('\n')
    .trim();
}
