/**
 * The system prompt of a session: who Cove is, where it works, how it should use its tools,
 * then the project's own instructions, its skills and the session's persona.
 */
import type { InstructionFile } from '../project/instructions';
import { instructionsSection } from '../project/instructions';
import type { Persona } from '../project/personas';
import { skillsSection, type Skill } from '../project/skills';
import type { AgentDefinition } from '../subagents/definitions';

export interface PromptContext {
  instructions?: readonly InstructionFile[];
  skills?: readonly Skill[];
  persona?: Persona;
}

export function systemPromptFor(workspaces: readonly string[], context: PromptContext = {}): string {
  const roots = workspaces.map((root, index) => `- ${root}${index === 0 ? ' (the working directory; relative paths start here)' : ''}`).join('\n');
  return [
    "You are Cove, a coding agent working on a person's code through tools. Be precise and careful: read before you edit, " +
      "prefer small, exact edits, run the project's own checks after changing code, and say plainly what you changed and what you did not verify.",
    `The workspace roots are:\n${roots}\nFile tools work only inside them.`,
    "Tool calls that change files or run commands may need the person's approval; a denied call comes back with the reason. " +
      'Do not retry a denied call unchanged: adapt, or ask the person.',
    'Secret values in tool output are replaced with [REDACTED:…] markers; never try to recover them.',
    instructionsSection(context.instructions ?? []),
    skillsSection(context.skills ?? []),
    context.persona ? `You are acting as the persona "${context.persona.name}":\n${context.persona.prompt}` : '',
  ]
    .filter(Boolean)
    .join('\n\n');
}

/** A subagent's prompt: the same ground rules, its definition's instructions, and how to report. */
export function subagentPromptFor(workspaces: readonly string[], definition: AgentDefinition | undefined, context: PromptContext = {}): string {
  return [
    systemPromptFor(workspaces, { instructions: context.instructions }),
    'You are a subagent: another agent gave you the task in the first message and will read only your final answer. ' +
      'Work on your own with the tools you have, then end with a concise, complete report of what you found or did.',
    definition ? `You are the "${definition.name}" agent. ${definition.instructions}` : '',
  ]
    .filter(Boolean)
    .join('\n\n');
}
