/**
 * Subagent definitions: `.cove/agents/<name>.md` in a workspace (front matter: name,
 * description, tools, model, max_turns; the body is the subagent's instructions), plus two
 * built-ins, `research` and `review`. A workspace file with a built-in's name replaces it.
 */
import { readDefinitionFiles } from '../project/definition-files';
import { listField, stringField } from '../project/front-matter';

export interface AgentDefinition {
  name: string;
  description: string;
  /** Tool names the subagent may use; null means the default subset. */
  tools: string[] | null;
  model?: string;
  maxTurns?: number;
  instructions: string;
  file?: string;
}

const READ_ONLY = ['read_file', 'list_files', 'search'];

export const BUILT_IN_AGENTS: readonly AgentDefinition[] = [
  {
    name: 'research',
    description: 'Finds things out in the code base: where something is defined, how it works, what uses it. Read-only.',
    tools: READ_ONLY,
    maxTurns: 30,
    instructions:
      'Investigate the question thoroughly with the read-only tools, then answer it: name files and line numbers, quote the few lines that matter, and say what you could not determine.',
  },
  {
    name: 'review',
    description: 'Reviews a change or a file for bugs, risks and unclear code. Read-only.',
    tools: READ_ONLY,
    maxTurns: 30,
    instructions:
      'Review what the task names. Report concrete problems first (bugs, security, data loss, races), each with its file and line and why it matters; then smaller points. Do not rewrite the code.',
  },
];

function maxTurnsOf(value: string | undefined, file: string): number | undefined {
  if (value === undefined) return undefined;
  const turns = Number(value);
  if (!Number.isInteger(turns) || turns < 1) throw new Error(`${file}: max_turns must be a whole number of at least 1`);
  return turns;
}

export function loadAgentDefinitions(roots: readonly string[]): { definitions: AgentDefinition[]; problems: string[] } {
  const { files, problems } = readDefinitionFiles(roots, 'agents', 'agent', ({ file, parsed }) => maxTurnsOf(stringField(parsed, 'max_turns'), file));
  const byName = new Map(BUILT_IN_AGENTS.map((definition) => [definition.name, definition]));
  for (const { name, file, parsed } of files) {
    byName.set(name, {
      name,
      description: stringField(parsed, 'description') ?? '',
      tools: listField(parsed, 'tools') ?? null,
      model: stringField(parsed, 'model'),
      maxTurns: maxTurnsOf(stringField(parsed, 'max_turns'), file),
      instructions: parsed.body,
      file,
    });
  }
  return { definitions: [...byName.values()], problems };
}
