/**
 * The `subagent` tool: delegates a task to a child agent with a fresh context. Starting one is
 * readOnly; every tool the child calls passes the permission gate itself.
 */
import { ToolError, type Tool } from '../agent/types';
import type { AgentDefinition } from './definitions';
import type { SubagentRunner } from './subagent-runner';

export function createSubagentTool(runner: SubagentRunner, definitions: readonly AgentDefinition[], depth: number): Tool<{ task: string; name?: string }> {
  const byName = new Map(definitions.map((definition) => [definition.name, definition]));
  const listing = definitions.map((definition) => `- ${definition.name}: ${definition.description}`).join('\n');
  return {
    name: 'subagent',
    label: 'Delegate to a subagent',
    description:
      'Starts a subagent with a fresh context to work on a self-contained task, and returns its final answer. ' +
      'Use it for research or reviews that would otherwise fill your context; several may run at once. ' +
      'Write the task so it can be done without this conversation: say what to find or do and what to report.' +
      (listing ? `\nAgent definitions (pass one as name):\n${listing}` : ''),
    sensitivity: 'readOnly',
    parameters: {
      type: 'object',
      properties: {
        task: { type: 'string', minLength: 1, description: 'The complete task for the subagent' },
        name: { type: 'string', description: 'An agent definition to use (optional)' },
      },
      required: ['task'],
      additionalProperties: false,
    },
    async execute({ task, name }, ctx) {
      const definition = name === undefined ? undefined : byName.get(name);
      if (name !== undefined && !definition) {
        throw ToolError.invalidArgs(`No agent definition named '${name}'. Available: ${[...byName.keys()].join(', ')}`);
      }
      return runner.run(task, definition, ctx, depth);
    },
  };
}
