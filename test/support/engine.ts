/**
 * Runs the real engine against the scripted model server, through the real SDK, and collects
 * what it publishes. Tests build tools with `testTool` to observe exactly what the engine does.
 */
import Anthropic from '@anthropic-ai/sdk';
import type { CoveEvent } from '../../shared/events';
import { Agent, type AgentOptions, type HistoryChange } from '../../electron/core/agent/agent';
import type { Tool, ToolContext, ToolResult } from '../../electron/core/agent/types';
import { startModelServer, type ModelServerOptions, type Script, type ScriptedServer } from './model-server';

export interface EngineHarness {
  server: ScriptedServer;
  agent: Agent;
  events: CoveEvent[];
  history: HistoryChange[];
  logs: string[];
  ofType<T extends CoveEvent['type']>(type: T): Array<Extract<CoveEvent, { type: T }>>;
  /** Resolves with the first event matching `predicate` (already published or still to come). */
  waitFor<T extends CoveEvent>(predicate: (event: CoveEvent) => event is T): Promise<T>;
  waitFor(predicate: (event: CoveEvent) => boolean): Promise<CoveEvent>;
  close(): Promise<void>;
}

export async function startEngine(script: Script, options: Partial<Omit<AgentOptions, 'emit' | 'client'>> = {}, serverOptions: ModelServerOptions = {}): Promise<EngineHarness> {
  const server = await startModelServer(script, serverOptions);
  const events: CoveEvent[] = [];
  const history: HistoryChange[] = [];
  const logs: string[] = [];
  const waiters: Array<{ predicate: (event: CoveEvent) => boolean; resolve: (event: CoveEvent) => void }> = [];
  const agent = new Agent({
    sessionId: 'session-test',
    model: 'claude-sonnet-5',
    workspaceRoots: [process.cwd()],
    retry: { baseDelayMs: 5, maxDelayMs: 20 },
    ...options,
    client: new Anthropic({ apiKey: 'test-key', baseURL: server.url, maxRetries: 0 }),
    emit: (event) => {
      events.push(event);
      for (const waiter of [...waiters]) {
        if (waiter.predicate(event)) {
          waiters.splice(waiters.indexOf(waiter), 1);
          waiter.resolve(event);
        }
      }
    },
    onHistory: (change) => history.push(change),
    log: (message) => logs.push(message),
  });
  return {
    server,
    agent,
    events,
    history,
    logs,
    ofType: <T extends CoveEvent['type']>(type: T) => events.filter((e): e is Extract<CoveEvent, { type: T }> => e.type === type),
    waitFor: ((predicate: (event: CoveEvent) => boolean) => {
      const found = events.find(predicate);
      if (found) return Promise.resolve(found);
      return new Promise<CoveEvent>((resolve) => waiters.push({ predicate, resolve }));
    }) as EngineHarness['waitFor'],
    close: () => server.close(),
  };
}

/** A tool whose behaviour the test supplies; records every call it receives. */
export function testTool<P = Record<string, unknown>>(
  name: string,
  execute: (params: P, ctx: ToolContext) => Promise<ToolResult> | ToolResult = (params) => ({ content: [{ type: 'text', text: JSON.stringify(params) }] }),
  overrides: Partial<Tool> = {},
): Tool<P> & { calls: P[] } {
  const calls: P[] = [];
  return {
    name,
    label: name,
    description: `test tool ${name}`,
    sensitivity: 'readOnly',
    parameters: { type: 'object', properties: { value: { type: 'string' } }, additionalProperties: false },
    ...overrides,
    calls,
    async execute(params, ctx) {
      calls.push(params);
      return execute(params, ctx);
    },
  };
}

/** Every tool_result must answer a tool_use of the message right before it, and every tool_use must be answered. */
export function assertValidHistory(messages: readonly { role: string; content: unknown }[]): void {
  messages.forEach((message, index) => {
    const blocks = Array.isArray(message.content) ? (message.content as Array<{ type: string; id?: string; tool_use_id?: string }>) : [];
    if (message.role === 'assistant') {
      const ids = blocks.filter((b) => b.type === 'tool_use').map((b) => b.id);
      if (ids.length === 0) return;
      const next = messages[index + 1];
      const answered = new Set(
        Array.isArray(next?.content) ? (next.content as Array<{ type: string; tool_use_id?: string }>).filter((b) => b.type === 'tool_result').map((b) => b.tool_use_id) : [],
      );
      for (const id of ids) if (!answered.has(id)) throw new Error(`tool_use ${id} in message ${index} has no tool_result`);
    } else {
      const previous = messages[index - 1];
      const called = new Set(Array.isArray(previous?.content) ? (previous.content as Array<{ type: string; id?: string }>).filter((b) => b.type === 'tool_use').map((b) => b.id) : []);
      for (const block of blocks) {
        if (block.type === 'tool_result' && !called.has(block.tool_use_id)) throw new Error(`tool_result ${block.tool_use_id} in message ${index} answers no tool_use`);
      }
    }
    if (index > 0 && messages[index - 1]!.role === message.role) throw new Error(`messages ${index - 1} and ${index} have the same role`);
  });
}
