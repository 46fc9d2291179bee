/**
 * Reads Cove's Markdown definitions (`<root>/.cove/<folder>/<name>.md`: personas, subagent
 * definitions) from every workspace root, first root first. A name is taken once: the first
 * file that claims it wins. Each problem names its file.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { basename, join } from 'node:path';
import { parseFrontMatter, stringField, type Parsed } from './front-matter';

export const DEFINITION_NAME = /^[A-Za-z0-9][A-Za-z0-9_.-]{0,63}$/;

export interface DefinitionFile {
  name: string;
  file: string;
  parsed: Parsed;
}

export function readDefinitionFiles(
  roots: readonly string[],
  folder: string,
  kind: string,
  /** Turns a parsed file into a definition; throws an Error naming the file when it is invalid. */
  check: (definition: DefinitionFile) => void = () => {},
): { files: DefinitionFile[]; problems: string[] } {
  const files: DefinitionFile[] = [];
  const problems: string[] = [];
  const taken = new Set<string>();
  for (const root of roots) {
    const dir = join(root, '.cove', folder);
    let entries: string[];
    try {
      entries = readdirSync(dir)
        .filter((name) => name.endsWith('.md'))
        .sort();
    } catch {
      continue;
    }
    for (const entry of entries) {
      const file = join(dir, entry);
      try {
        const parsed = parseFrontMatter(readFileSync(file, 'utf8'), file);
        const name = stringField(parsed, 'name') ?? basename(entry, '.md');
        if (!DEFINITION_NAME.test(name)) throw new Error(`${file}: the ${kind} name '${name}' may use letters, digits, '.', '_' and '-' only`);
        if (taken.has(name)) continue;
        const definition = { name, file, parsed };
        check(definition);
        taken.add(name);
        files.push(definition);
      } catch (error) {
        problems.push((error as Error).message);
      }
    }
  }
  return { files, problems };
}
