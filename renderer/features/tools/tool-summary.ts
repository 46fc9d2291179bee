/** One line that says what a tool call does, from its arguments, for the card's title. */

const SUMMARY_FIELDS: Record<string, string[]> = {
  bash: ['command'],
  read_file: ['path'],
  write_file: ['path'],
  edit_file: ['path'],
  list_files: ['path', 'pattern'],
  search: ['pattern', 'path'],
  hashline_edit: ['patch'],
  subagent: ['task'],
};

const MAX_LENGTH = 160;

export function toolSummary(toolName: string, args: unknown): string {
  if (!args || typeof args !== 'object') return '';
  const record = args as Record<string, unknown>;
  const fields = SUMMARY_FIELDS[toolName];
  const values = fields
    ? fields.flatMap((field) => (typeof record[field] === 'string' && record[field] !== '' ? [record[field] as string] : []))
    : Object.values(record).filter((value): value is string => typeof value === 'string').slice(0, 1);
  const text = toolName === 'hashline_edit' ? patchPaths(values[0] ?? '') : values.join(' in ');
  const line = text.replace(/\s+/g, ' ').trim();
  return line.length > MAX_LENGTH ? `${line.slice(0, MAX_LENGTH - 1)}…` : line;
}

/** A hashline patch is long; its section headers `[path#TAG]` name the files it edits. */
function patchPaths(patch: string): string {
  const paths = [...patch.matchAll(/^\[([^\]#]+)#[^\]]*\]/gm)].map((match) => match[1]!);
  return [...new Set(paths)].join(', ');
}

/** Human label for a tool name: `mcp__server__tool` reads as `server › tool`. */
export function toolLabel(toolName: string): string {
  const mcp = /^mcp__(.+?)__(.+)$/.exec(toolName);
  return mcp ? `${mcp[1]} › ${mcp[2]}` : toolName;
}

const INLINE_RESULT_LENGTH = 160;

/**
 * A result short enough to show in the card as it is (one line of text, no images), so a
 * "Wrote hello.txt" is not hidden behind "Show output"; null for anything longer.
 */
export function inlineResult(content: readonly { type: string; text?: string }[]): string | null {
  if (content.length === 0 || content.some((block) => block.type !== 'text')) return null;
  const text = content.map((block) => block.text ?? '').join('\n').trim();
  if (text === '' || text.includes('\n') || text.length > INLINE_RESULT_LENGTH) return null;
  return text;
}
