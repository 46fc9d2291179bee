/**
 * Consecutive read-only calls of a turn drawn as one row ("Read 4 files, 2 searches") that opens
 * to their cards. A pure function over the transcript items, so the transcript's virtualizer
 * sees one row per group and a stored session groups exactly as a live one.
 */
import type { AssistantItem, ToolItem, TranscriptItem } from '../transcript/model-types';
import { callOutcome } from './tool-outcome';
import { toolLabel } from './tool-summary';

export interface ToolGroupRow {
  kind: 'toolGroup';
  /** The first call's key: a card that becomes a group keeps its place in the virtualizer. */
  key: string;
  tools: ToolItem[];
}

export type TranscriptRowItem = TranscriptItem | ToolGroupRow;

/** Calls that only look (read, list, search) and end quickly; a denied one stays in view on its own. */
function groupable(item: TranscriptItem): item is ToolItem {
  if (item.kind !== 'tool' || item.sensitivity !== 'readOnly') return false;
  if (item.toolKind === 'execute' || item.toolKind === 'delegate') return false;
  return callOutcome(item).tone !== 'denied';
}

/** A message that shows nothing (it only carried the tool calls) does not end a run of calls. */
function invisible(item: TranscriptItem): item is AssistantItem {
  if (item.kind !== 'assistant' || item.streaming) return false;
  return item.parts.every((part) => part === undefined || part.kind === 'toolCall' || (part.kind === 'text' && part.text.trim() === ''));
}

/**
 * The rows to draw. `previous` holds the groups of the last call by key: a group whose calls
 * are the same objects is returned as the same object, so its memoized row does not redraw.
 */
export function groupToolCalls(items: readonly TranscriptItem[], previous?: ReadonlyMap<string, ToolGroupRow>): TranscriptRowItem[] {
  const rows: TranscriptRowItem[] = [];
  let index = 0;
  while (index < items.length) {
    const item = items[index]!;
    if (!groupable(item)) {
      rows.push(item);
      index++;
      continue;
    }
    const tools: ToolItem[] = [item];
    let end = index + 1;
    for (let next = index + 1; next < items.length; next++) {
      const candidate = items[next]!;
      if (groupable(candidate)) {
        tools.push(candidate);
        end = next + 1;
      } else if (!invisible(candidate)) break;
    }
    if (tools.length < 2) {
      rows.push(item);
      index++;
      continue;
    }
    const known = previous?.get(item.key);
    rows.push(known && sameTools(known.tools, tools) ? known : { kind: 'toolGroup', key: item.key, tools });
    index = end;
  }
  return rows;
}

function sameTools(a: readonly ToolItem[], b: readonly ToolItem[]): boolean {
  return a.length === b.length && a.every((tool, index) => tool === b[index]);
}

interface Phrase {
  count: number;
  say(count: number): string;
}

function plural(count: number, one: string, many = `${one}s`): string {
  return `${count} ${count === 1 ? one : many}`;
}

/** How Cove's own read-only tools are counted; any other tool is counted by its label. */
function phraseFor(tool: ToolItem): { id: string; say(count: number): string } {
  const label = toolLabel(tool.toolName, tool.label);
  if (label === 'List files') return { id: 'list', say: (count) => `listed ${plural(count, 'folder')}` };
  if (tool.toolKind === 'read') return { id: 'read', say: (count) => `read ${plural(count, 'file')}` };
  if (tool.toolKind === 'search') return { id: 'search', say: (count) => plural(count, 'search', 'searches') };
  if (tool.toolKind === 'fetch') return { id: 'fetch', say: (count) => `fetched ${plural(count, 'page')}` };
  return { id: `label:${label}`, say: (count) => `${label} ×${count}` };
}

/** "Read 4 files, 2 searches": what the calls did, in the order they first appear. */
export function groupSummary(tools: readonly ToolItem[]): string {
  const phrases = new Map<string, Phrase>();
  for (const tool of tools) {
    const phrase = phraseFor(tool);
    const known = phrases.get(phrase.id);
    if (known) known.count++;
    else phrases.set(phrase.id, { count: 1, say: phrase.say });
  }
  const text = [...phrases.values()].map((phrase) => phrase.say(phrase.count)).join(', ');
  return text.charAt(0).toUpperCase() + text.slice(1);
}

/** The group's state: running while any call runs, else how many failed. */
export function groupOutcome(tools: readonly ToolItem[]): { running: boolean; failed: number } {
  let running = false;
  let failed = 0;
  for (const tool of tools) {
    const tone = callOutcome(tool).tone;
    if (tone === 'running') running = true;
    else if (tone !== 'done') failed++;
  }
  return { running, failed };
}
