/**
 * Personas: `.cove/personas/<name>.md` in a workspace, each a prompt and an allowlist of tools
 * (`tools:` in the front matter). A session may switch persona at any time; the allowlist
 * filters the tools offered at each turn, so a "reviewer" persona cannot edit files.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { basename, join } from 'node:path';
import { listField, parseFrontMatter, stringField } from './front-matter';

export interface Persona {
  name: string;
  description: string;
  /** Tool names (or `mcp__server` prefixes) the persona may use; null means every tool. */
  tools: string[] | null;
  prompt: string;
  file: string;
}

const NAME = /^[A-Za-z0-9][A-Za-z0-9_.-]{0,63}$/;

export function loadPersonas(roots: readonly string[]): { personas: Persona[]; problems: string[] } {
  const personas = new Map<string, Persona>();
  const problems: string[] = [];
  for (const root of roots) {
    const dir = join(root, '.cove', 'personas');
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
        if (!NAME.test(name)) throw new Error(`${file}: the persona name '${name}' may use letters, digits, '.', '_' and '-' only`);
        if (personas.has(name)) continue;
        personas.set(name, {
          name,
          description: stringField(parsed, 'description') ?? '',
          tools: listField(parsed, 'tools') ?? null,
          prompt: parsed.body,
          file,
        });
      } catch (error) {
        problems.push((error as Error).message);
      }
    }
  }
  return { personas: [...personas.values()], problems };
}

/** Whether a persona lets the agent use a tool: by exact name, or `mcp__server` for a server's tools. */
export function personaAllows(persona: Persona | undefined, toolName: string): boolean {
  if (!persona?.tools) return true;
  return persona.tools.some((allowed) => allowed === toolName || (allowed.startsWith('mcp__') && toolName.startsWith(`${allowed}__`)));
}
