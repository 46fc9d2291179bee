/**
 * The front matter of Cove's Markdown definitions (agents, personas, skills): a `---` block of
 * `key: value` lines at the top. Lists are written `[a, b]` or as `- item` lines. It is a small
 * subset of YAML on purpose: enough for names, descriptions and tool lists, and every line it
 * does not understand is reported rather than guessed.
 */
export interface Parsed {
  fields: Record<string, string | string[]>;
  body: string;
}

export class FrontMatterError extends Error {}

function unquote(value: string): string {
  const trimmed = value.trim();
  if ((trimmed.startsWith('"') && trimmed.endsWith('"')) || (trimmed.startsWith("'") && trimmed.endsWith("'"))) return trimmed.slice(1, -1);
  return trimmed;
}

export function parseFrontMatter(text: string, source: string): Parsed {
  const normalized = text.replace(/^\uFEFF/, '').replace(/\r\n/g, '\n');
  if (!normalized.startsWith('---\n')) return { fields: {}, body: normalized.trim() };
  const end = normalized.indexOf('\n---', 4);
  if (end < 0) throw new FrontMatterError(`${source}: the front matter opened with --- is never closed`);
  const fields: Record<string, string | string[]> = {};
  let listKey: string | null = null;
  normalized
    .slice(4, end)
    .split('\n')
    .forEach((line, index) => {
      if (!line.trim() || line.trim().startsWith('#')) return;
      const item = /^\s+-\s+(.*)$/.exec(line) ?? /^-\s+(.*)$/.exec(line);
      if (item && listKey) {
        (fields[listKey] as string[]).push(unquote(item[1]!));
        return;
      }
      const pair = /^([A-Za-z_][A-Za-z0-9_-]*)\s*:\s*(.*)$/.exec(line);
      if (!pair) throw new FrontMatterError(`${source}: line ${index + 2} of the front matter is not "key: value": ${line.trim()}`);
      const [, key, raw] = pair as unknown as [string, string, string];
      const value = raw.trim();
      if (value === '') {
        fields[key] = [];
        listKey = key;
      } else if (value.startsWith('[') && value.endsWith(']')) {
        fields[key] = value.slice(1, -1).split(',').map(unquote).filter(Boolean);
        listKey = null;
      } else {
        fields[key] = unquote(value);
        listKey = null;
      }
    });
  const body = normalized
    .slice(end + 4)
    .replace(/^[^\n]*\n/, '')
    .trim();
  return { fields, body };
}

export function stringField(parsed: Parsed, key: string): string | undefined {
  const value = parsed.fields[key];
  return typeof value === 'string' && value ? value : undefined;
}

/** A list field; a comma-separated string is accepted too (`tools: read_file, search`). */
export function listField(parsed: Parsed, key: string): string[] | undefined {
  const value = parsed.fields[key];
  if (value === undefined) return undefined;
  return (Array.isArray(value) ? value : value.split(',')).map((v) => v.trim()).filter(Boolean);
}
