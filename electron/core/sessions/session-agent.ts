/**
 * Builds the agent of one run of a session: its system prompt (project instructions, skills,
 * persona), its tools (built-ins, the skill tool, a subagent tool while nesting allows), the
 * persona filter, and the subagent runner whose children share the run's client, secrets,
 * snapshots and permission gate.
 */
import type Anthropic from '@anthropic-ai/sdk';
import type { CoveEvent } from '../../../shared/events';
import { Agent, type HistoryChange } from '../agent/agent';
import { NO_SECRETS, type ConversationMessage, type SecretRedactor, type SnapshotStore, type ToolMiddleware } from '../agent/types';
import { loadInstructions } from '../project/instructions';
import { loadPersonas, personaAllows } from '../project/personas';
import { createSkillTool, loadSkills } from '../project/skills';
import type { SessionRecord } from '../store';
import { hookedSources, hookedTools } from '../hooks/hook-tools';
import type { SessionHooks } from '../hooks/session-hooks';
import { loadAgentDefinitions } from '../subagents/definitions';
import { DEFAULT_SUBAGENT_LIMITS, SubagentRunner } from '../subagents/subagent-runner';
import { createSubagentTool } from '../subagents/subagent-tool';
import { pinRoots } from '../tools/sandbox';
import type { SessionManagerOptions } from './session-options';
import { subagentPromptFor, systemPromptFor } from './system-prompt';

export interface SessionAgentInput {
  session: SessionRecord;
  options: SessionManagerOptions;
  client: Anthropic;
  middleware: ToolMiddleware[];
  maxTurns?: number;
  hooks?: SessionHooks;
  snapshots: SnapshotStore;
  /** The session's secret set, shared by its runs (session-secrets.ts); default: the host's scan. */
  secrets?: SecretRedactor | Promise<SecretRedactor>;
  messages: ConversationMessage[];
  /** Read at every turn: the persona the session acts as now. */
  personaName(): string | undefined;
  emit(event: CoveEvent): void;
  onHistory(change: HistoryChange): void;
  log(message: string): void;
}

export function buildSessionAgent(input: SessionAgentInput): { agent: Agent; subagents: SubagentRunner } {
  const { session, options } = input;
  // The roots' identity is fixed now: one replaced during the session is refused by file tools.
  pinRoots(session.workspaces);
  const { skills } = loadSkills(session.workspaces);
  const { personas } = loadPersonas(session.workspaces);
  const { definitions } = loadAgentDefinitions(session.workspaces);
  const instructions = loadInstructions(session.workspaces);
  const currentPersona = () => personas.find((persona) => persona.name === input.personaName());
  // One client, secret scan and gate for the run and all its subagents.
  const shared = {
    sessionId: session.id,
    client: input.client,
    model: session.model,
    toolSources: hookedSources(options.toolSources?.(session) ?? [], input.hooks),
    modelSpec: options.modelCatalog?.().then((catalog) => catalog.spec(session.model)),
    middleware: input.middleware,
    strategy: options.strategy,
    retry: options.retry,
    workspaceRoots: session.workspaces,
    secrets: input.secrets ?? options.secrets?.(session) ?? NO_SECRETS,
    snapshots: input.snapshots,
    log: input.log,
  };
  const baseTools = hookedTools([...options.tools(session), ...(skills.length > 0 ? [createSkillTool(skills)] : [])], input.hooks);
  const limits = { ...DEFAULT_SUBAGENT_LIMITS, ...options.subagentLimits };
  /** The tools of an agent at `depth` (0 is the session's own): a subagent tool while children may nest deeper. */
  const toolsAt = (depth: number) => [...baseTools, ...(depth < limits.maxDepth ? [createSubagentTool(subagents, definitions, depth + 1)] : [])];
  const subagents: SubagentRunner = new SubagentRunner(
    session.id,
    {
      base: () => shared,
      tools: toolsAt,
      systemPrompt: (definition) => subagentPromptFor(session.workspaces, definition, { instructions }),
      emit: (event) => {
        input.emit(event);
        if (event.type === 'subagentEnd') input.hooks?.subagentStop(event.subagentId);
      },
    },
    limits,
  );
  const agent = new Agent({
    ...shared,
    systemPrompt: systemPromptFor(session.workspaces, { instructions, skills, persona: currentPersona() }),
    tools: toolsAt(0),
    toolFilter: (name) => personaAllows(currentPersona(), name),
    maxTurns: input.maxTurns,
    ...(input.hooks ? { beforeCompact: (signal: AbortSignal) => input.hooks!.preCompact('auto', signal) } : {}),
    messages: input.messages,
    emit: input.emit,
    onHistory: input.onHistory,
  });
  return { agent, subagents };
}
