/**
 * A call's arguments as things a person reads: a command as a code block, a path as a path,
 * an edit's old and new text as a diff, a file's content as highlighted code, a search as its
 * pattern and folder; anything else (MCP tools) as a list of names and values, multi-line values
 * as blocks. Decided by the arguments' names and the tool's kind, never by the tool's name.
 */
import type { ToolKind } from '../../../shared/events';
import { stripMarkers } from './tool-markers';

export type ArgumentView =
  | { type: 'command'; name: string; text: string }
  | { type: 'path'; name: string; path: string }
  | { type: 'diff'; path: string | null; oldText: string; newText: string }
  | { type: 'file'; path: string; text: string }
  | { type: 'pattern'; name: string; text: string }
  | { type: 'value'; name: string; text: string; block: boolean };

const COMMAND_KEYS = ['command', 'cmd', 'script'];
const PATH_KEYS = ['path', 'file_path', 'filePath', 'file', 'folder', 'directory', 'cwd'];
const PATTERN_KEYS = ['pattern', 'query', 'regex', 'glob', 'include'];
const EDIT_PAIRS: [string, string][] = [
  ['old_text', 'new_text'],
  ['old_string', 'new_string'],
  ['oldText', 'newText'],
];
const CONTENT_KEYS = ['content', 'contents', 'text'];

/** Names as words: `case_sensitive` → "case sensitive", `maxDepth` → "max depth". */
export function argumentName(key: string): string {
  return key
    .replace(/([a-z0-9])([A-Z])/g, '$1 $2')
    .replace(/[_-]+/g, ' ')
    .toLowerCase()
    .trim();
}

function valueText(value: unknown): string {
  if (typeof value === 'string') return stripMarkers(value);
  if (value === undefined) return '';
  return JSON.stringify(value, null, 2) ?? String(value);
}

export function describeArguments(args: unknown, kind: ToolKind | undefined): ArgumentView[] {
  if (args === null || typeof args !== 'object' || Array.isArray(args)) {
    const text = valueText(args);
    return text === '' ? [] : [{ type: 'value', name: 'input', text, block: text.includes('\n') }];
  }
  const entries = args as Record<string, unknown>;
  const views: ArgumentView[] = [];
  const used = new Set<string>();
  const take = (key: string): string | undefined => {
    const value = entries[key];
    if (typeof value !== 'string') return undefined;
    used.add(key);
    return value;
  };

  for (const key of COMMAND_KEYS) {
    const text = take(key);
    if (text !== undefined) views.push({ type: 'command', name: argumentName(key), text });
  }
  const pathKey = PATH_KEYS.find((key) => typeof entries[key] === 'string');
  const path = pathKey === undefined ? undefined : take(pathKey);
  const pair = EDIT_PAIRS.find(([before, after]) => typeof entries[before] === 'string' && typeof entries[after] === 'string');
  if (pair) views.push({ type: 'diff', path: path ?? null, oldText: take(pair[0])!, newText: take(pair[1])! });
  else if (path !== undefined) views.push({ type: 'path', name: kind === 'search' ? 'in' : argumentName(pathKey!), path });
  // A permission prompt does not know the kind; a path with content is a file being written either way.
  if (path !== undefined && (kind === 'edit' || kind === undefined)) {
    const contentKey = CONTENT_KEYS.find((key) => typeof entries[key] === 'string');
    if (contentKey !== undefined) views.push({ type: 'file', path, text: take(contentKey)! });
  }
  for (const key of PATTERN_KEYS) {
    const text = take(key);
    if (text !== undefined) views.push({ type: 'pattern', name: argumentName(key), text });
  }
  for (const [key, value] of Object.entries(entries)) {
    if (used.has(key) || value === undefined) continue;
    const text = valueText(value);
    views.push({ type: 'value', name: argumentName(key), text, block: text.includes('\n') });
  }
  return views;
}

/** A unified diff of an edit's old and new text, for the diff view. */
export function editDiff(path: string | null, oldText: string, newText: string): string {
  const before = oldText === '' ? [] : oldText.split('\n');
  const after = newText === '' ? [] : newText.split('\n');
  const name = path ?? 'file';
  return [`--- a/${name}`, `+++ b/${name}`, `@@ -1,${before.length} +1,${after.length} @@`, ...before.map((line) => `-${line}`), ...after.map((line) => `+${line}`)].join('\n') + '\n';
}
