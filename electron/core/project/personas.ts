/**
 * Personas: `.cove/personas/<name>.md` in a workspace, each a prompt and an allowlist of tools
 * (`tools:` in the front matter). A session may switch persona at any time; the allowlist
 * filters the tools offered at each turn, so a "reviewer" persona cannot edit files.
 */
import { readDefinitionFiles } from './definition-files';
import { listField, stringField } from './front-matter';

export interface Persona {
  name: string;
  description: string;
  /** Tool names (or `mcp__server` prefixes) the persona may use; null means every tool. */
  tools: string[] | null;
  prompt: string;
  file: string;
}

export function loadPersonas(roots: readonly string[]): { personas: Persona[]; problems: string[] } {
  const { files, problems } = readDefinitionFiles(roots, 'personas', 'persona');
  const personas = files.map(({ name, file, parsed }) => ({
    name,
    description: stringField(parsed, 'description') ?? '',
    tools: listField(parsed, 'tools') ?? null,
    prompt: parsed.body,
    file,
  }));
  return { personas, problems };
}

/** Whether a persona lets the agent use a tool: by exact name, or `mcp__server` for a server's tools. */
export function personaAllows(persona: Persona | undefined, toolName: string): boolean {
  if (!persona?.tools) return true;
  return persona.tools.some((allowed) => allowed === toolName || (allowed.startsWith('mcp__') && toolName.startsWith(`${allowed}__`)));
}
