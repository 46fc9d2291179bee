/**
 * Subagent definitions: `.cove/agents/<name>.md` in a workspace (front matter: name,
 * description, tools, model, max_turns; the body is the subagent's instructions), plus two
 * built-ins, `research` and `review`. A workspace file with a built-in's name replaces it.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { basename, join } from 'node:path';
import { listField, parseFrontMatter, stringField } from '../project/front-matter';

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

const NAME = /^[A-Za-z0-9][A-Za-z0-9_.-]{0,63}$/;

export function loadAgentDefinitions(roots: readonly string[]): { definitions: AgentDefinition[]; problems: string[] } {
  const byName = new Map(BUILT_IN_AGENTS.map((definition) => [definition.name, definition]));
  const problems: string[] = [];
  const seen = new Set<string>();
  for (const root of roots) {
    const dir = join(root, '.cove', 'agents');
    let files: string[];
    try {
      files = readdirSync(dir).filter((name) => name.endsWith('.md')).sort();
    } catch {
      continue;
    }
    for (const entry of files) {
      const file = join(dir, entry);
      try {
        const parsed = parseFrontMatter(readFileSync(file, 'utf8'), file);
        const name = stringField(parsed, 'name') ?? basename(entry, '.md');
        if (!NAME.test(name)) throw new Error(`${file}: the agent name '${name}' may use letters, digits, '.', '_' and '-' only`);
        if (seen.has(name)) continue;
        const turns = stringField(parsed, 'max_turns');
        const maxTurns = turns === undefined ? undefined : Number(turns);
        if (maxTurns !== undefined && (!Number.isInteger(maxTurns) || maxTurns < 1)) throw new Error(`${file}: max_turns must be a whole number of at least 1`);
        seen.add(name);
        byName.set(name, {
          name,
          description: stringField(parsed, 'description') ?? '',
          tools: listField(parsed, 'tools') ?? null,
          model: stringField(parsed, 'model'),
          maxTurns,
          instructions: parsed.body,
          file,
        });
      } catch (error) {
        problems.push((error as Error).message);
      }
    }
  }
  return { definitions: [...byName.values()], problems };
}
