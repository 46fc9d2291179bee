/**
 * A search result opened: the session opens at the message that matched, not at its bottom.
 * The result's snippet is a passage of that message with the matched words marked, so the
 * message is found by its passage, or, failing that, by holding every matched word.
 */
import type { TranscriptRowItem } from '../tools/tool-groups';
import { create } from 'zustand';
import { snippetSegments } from '../sessions/snippet';

export interface SearchTarget {
  sessionId: string;
  /** The matched words, as marked in the snippet. */
  terms: string[];
  /** The longest run of the snippet between its ellipses, normalized as ./search-target.ts compares. */
  passage: string;
}

interface SearchTargets {
  target: SearchTarget | null;
  show(sessionId: string, snippet: string): void;
  clear(): void;
}

export const useSearchTarget = create<SearchTargets>()((set) => ({
  target: null,
  show: (sessionId, snippet) => set({ target: searchTargetOf(sessionId, snippet) }),
  clear: () => set({ target: null }),
}));

function normalized(text: string): string {
  return text.replace(/\s+/g, ' ').trim().toLowerCase();
}

export function searchTargetOf(sessionId: string, snippet: string): SearchTarget {
  const segments = snippetSegments(snippet);
  const terms = [...new Set(segments.filter((segment) => segment.match).map((segment) => normalized(segment.text)))].filter((term) => term !== '');
  const pieces = segments
    .map((segment) => segment.text)
    .join('')
    .split('…')
    .map(normalized);
  const passage = pieces.reduce((longest, piece) => (piece.length > longest.length ? piece : longest), '');
  return { sessionId, terms, passage };
}

function itemText(item: TranscriptRowItem): string | null {
  if (item.kind === 'user') return item.text;
  if (item.kind === 'assistant') return item.parts.map((part) => (part?.kind === 'text' ? part.text : '')).join('\n');
  return null;
}

/** The indexes of the items that hold the match, in transcript order. */
export function matchingIndexes(items: readonly TranscriptRowItem[], target: SearchTarget): number[] {
  const byPassage: number[] = [];
  const byTerms: number[] = [];
  items.forEach((item, index) => {
    const text = itemText(item);
    if (text === null) return;
    const plain = normalized(text);
    if (target.passage !== '' && plain.includes(target.passage)) byPassage.push(index);
    else if (target.terms.length > 0 && target.terms.every((term) => plain.includes(term))) byTerms.push(index);
  });
  return byPassage.length > 0 ? [...byPassage, ...byTerms].sort((a, b) => a - b) : byTerms;
}

/** Where to open: the first message holding the passage itself, else the first holding every word. */
export function firstMatch(items: readonly TranscriptRowItem[], target: SearchTarget): number | null {
  const matches = matchingIndexes(items, target);
  if (matches.length === 0) return null;
  const exact = matches.find((index) => {
    const text = itemText(items[index]!);
    return text !== null && target.passage !== '' && normalized(text).includes(target.passage);
  });
  return exact ?? matches[0]!;
}
