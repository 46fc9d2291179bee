/**
 * The `subagent` tool: delegates a task to a child agent with a fresh context. Starting one is
 * readOnly; every tool the child calls passes the permission gate itself.
 */
import { z } from 'zod';
import { ToolError } from '../agent/types';
import { declareTool } from '../tools/define-tool';
import type { AgentDefinition } from './definitions';
import type { SubagentRunner } from './subagent-runner';

const DESCRIPTION =
  'Starts a subagent with a fresh context to work on a self-contained task, and returns its final answer. ' +
  'Use it for research or reviews that would otherwise fill your context; several may run at once. ' +
  'Write the task so it can be done without this conversation: say what to find or do and what to report.';

const subagent = declareTool({
  name: 'subagent',
  label: 'Delegate to a subagent',
  description: DESCRIPTION,
  schema: z.strictObject({
    task: z.string().min(1).describe('The complete task for the subagent'),
    name: z.string().optional().describe('An agent definition to use (optional)'),
  }),
  sensitivity: 'readOnly',
  kind: 'delegate',
  permission: { name: (args) => args.name },
  summary: (args) => args.task,
});

export function createSubagentTool(runner: SubagentRunner, definitions: readonly AgentDefinition[], depth: number) {
  const byName = new Map(definitions.map((definition) => [definition.name, definition]));
  const listing = definitions.map((definition) => `- ${definition.name}: ${definition.description}`).join('\n');
  return subagent.implement(
    async ({ task, name }, ctx) => {
      const definition = name === undefined ? undefined : byName.get(name);
      if (name !== undefined && !definition) {
        throw ToolError.invalidArgs(`No agent definition named '${name}'. Available: ${[...byName.keys()].join(', ')}`);
      }
      return runner.run(task, definition, ctx, depth);
    },
    { description: DESCRIPTION + (listing ? `\nAgent definitions (pass one as name):\n${listing}` : '') },
  );
}
