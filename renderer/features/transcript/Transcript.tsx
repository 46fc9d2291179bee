/**
 * The transcript, virtualized (only the rows in view are in the DOM; heights are measured as
 * rows render), so a session of ten thousand items opens and scrolls like a short one. It
 * follows the bottom while the agent streams, unless the person scrolled up to read
 * (./follow.ts), and jumps to a prompt just sent. A subagent opened from the sidebar shows its
 * own transcript here instead, with a way back.
 */
import { useVirtualizer } from '@tanstack/react-virtual';
import { memo, useCallback, useDeferredValue, useEffect, useLayoutEffect, useMemo, useRef, useState, type RefObject } from 'react';
import { useCove } from '../../store';
import { takeExpectedPrompt } from '../../store/sent-here';
import { SubagentTranscript } from '../subagents/SubagentTranscript';
import { useOpenSubagent } from '../subagents/subagent-view';
import type { TranscriptItem } from './model-types';
import { TranscriptRow } from './TranscriptRow';
import { useFollow } from './use-follow';
import { firstMatch, matchingIndexes, useSearchTarget } from './search-target';
import { SearchHits, type Hits } from './SearchHits';
import { ToolGroup, useGroupedRows } from '../tools/ToolGroup';
import type { TranscriptRowItem } from '../tools/tool-groups';
import { measureWithoutLayout, observeRectWithoutLayout } from '../../ui/virtual-layout';

const EMPTY: TranscriptItem[] = [];

function estimate(item: TranscriptRowItem | undefined): number {
  switch (item?.kind) {
    case 'toolGroup':
      return 44;
    case 'tool':
      // A card is one line until opened; a command shows its terminal.
      return item.toolKind === 'execute' ? 96 : 40;
    case 'permission':
      return 220;
    case 'assistant':
      return 120;
    default:
      return 44;
  }
}

export function Transcript({ sessionId }: { sessionId: string }) {
  const subagentId = useOpenSubagent(sessionId);
  if (subagentId) return <SubagentTranscript key={subagentId} sessionId={sessionId} subagentId={subagentId} />;
  return <SessionTranscript sessionId={sessionId} />;
}

function SessionTranscript({ sessionId }: { sessionId: string }) {
  const items = useCove((state) => (state.transcript?.sessionId === sessionId ? state.transcript.state.items : EMPTY));
  const loading = useCove((state) => state.transcript?.sessionId === sessionId && state.transcript.loading);
  // A long session shows its latest part first; the rest is still on its way (transcript-slice.ts).
  const olderLoading = useCove((state) => state.transcript?.sessionId === sessionId && state.transcript.olderUntil > 0);
  // The rows are drawn from a deferred copy of the items: React renders a batch's new rows in
  // the background, in slices it leaves for a keypress, and the composer never waits for them.
  const shownItems = useDeferredValue(items);
  const rows = useGroupedRows(shownItems);
  // Once the loaded transcript's rows are committed, the store may ask for its older part
  // (store/first-screen.ts: asked for sooner, it held the first screen back).
  const generation = useCove((state) => (state.transcript?.sessionId === sessionId && !state.transcript.loading ? state.transcript.generation : null));
  const transcriptDrawn = useCove((state) => state.transcriptDrawn);
  const rowsShown = shownItems.length > 0;
  useEffect(() => {
    if (generation !== null && rowsShown) transcriptDrawn(generation);
  }, [generation, rowsShown, transcriptDrawn]);
  const scroller = useRef<HTMLDivElement>(null);
  const { following, atBottom, onScroll, jumpToLatest, stopFollowing } = useFollow(scroller);
  const [hits, setHits] = useState<Hits | null>(null);
  // The rows read the scroller's size as they mount, so they mount after it (coming back from a
  // subagent, the items are there at once).
  const [scrollerReady, setScrollerReady] = useState(false);
  useLayoutEffect(() => setScrollerReady(true), []);

  return (
    <div className="transcript-frame">
      <div ref={scroller} className="transcript" role="region" aria-label="Transcript" aria-busy={loading} tabIndex={0} data-transcript onScroll={onScroll}>
        {!scrollerReady ? null : shownItems.length === 0 ? (
          <p className="empty" role="status">
            {loading || items.length > 0 ? 'Loading the transcript…' : 'Nothing here yet. Type below to start.'}
          </p>
        ) : (
          <TranscriptRows
            items={rows}
            sessionId={sessionId}
            scroller={scroller}
            following={following}
            onPromptSent={jumpToLatest}
            hits={hits}
            onHits={setHits}
            stopFollowing={stopFollowing}
          />
        )}
      </div>
      {hits ? <SearchHits hits={hits} onChange={setHits} /> : null}
      {olderLoading && !atBottom ? (
        <p className="older-loading" role="status">
          Loading earlier messages…
        </p>
      ) : null}
      {atBottom ? null : (
        <button type="button" className="jump-latest" onClick={jumpToLatest}>
          Jump to latest
        </button>
      )}
    </div>
  );
}

interface RowsProps {
  items: TranscriptRowItem[];
  sessionId: string;
  scroller: RefObject<HTMLDivElement | null>;
  following: RefObject<boolean>;
  /** A newer prompt than any seen (one just sent): the transcript goes to it, wherever the person was. */
  onPromptSent(): void;
  /** The messages a search result matched in this session, and the one shown. */
  hits: Hits | null;
  onHits(hits: Hits): void;
  stopFollowing(): void;
}

/**
 * The rows in view. Mounted once there are items, so a session opens straight at its bottom:
 * the rows at the top are never drawn and measured first.
 */
const TranscriptRows = memo(function TranscriptRows({ items, sessionId, scroller, following, onPromptSent, hits, onHits, stopFollowing }: RowsProps) {
  const latest = useRef(items);
  latest.current = items;
  // The virtualizer lays out every item again whenever getItemKey changes; it needs to only
  // when keys moved, not on each streamed delta or added item.
  const keys = useKeysVersion(items);
  const getItemKey = useCallback((index: number) => latest.current[index]?.key ?? index, [keys]);

  const newestPendingKey = useMemo(() => {
    const newest = items.findLast((item) => item.kind === 'permission' && !item.decision && !item.expired);
    return newest?.key ?? null;
  }, [items]);

  // The scroller is laid out already: its size and the bottom offset let the first render draw
  // the rows in view. Read once: reading a size on every render would force a layout each time.
  const [initialRect] = useState(() => ({ width: scroller.current?.clientWidth ?? 0, height: scroller.current?.clientHeight ?? 0 }));
  const virtualizer = useVirtualizer({
    count: items.length,
    getScrollElement: () => scroller.current,
    estimateSize: (index) => estimate(latest.current[index]),
    getItemKey,
    overscan: 6,
    initialRect,
    // Sizes from ResizeObserver, never read in the commit (../../ui/virtual-layout.ts).
    measureElement: measureWithoutLayout,
    observeElementRect: observeRectWithoutLayout,
    initialOffset: () => (following.current ? Math.max(0, estimatedHeight(items) - (scroller.current?.clientHeight ?? 0)) : 0),
  });
  const totalSize = virtualizer.getTotalSize();

  const lastPrompt = items.findLast((item) => item.kind === 'user')?.key ?? null;
  const seenPrompt = useRef(lastPrompt);
  // A newer prompt than the last one seen, sent from this window: it was just sent (older
  // history loads above it and leaves the newest prompt as it was; one typed in another tab
  // leaves this one where the person is). Not only when it is the last row: the rows are drawn
  // from a deferred copy, and a reply that came quickly lands in the same render as its prompt.
  useLayoutEffect(() => {
    if (lastPrompt === seenPrompt.current) return;
    seenPrompt.current = lastPrompt;
    if (lastPrompt !== null && takeExpectedPrompt(sessionId)) onPromptSent();
  }, [lastPrompt, onPromptSent, sessionId]);

  // Only when the height changed (a row added or measured anew), and at the start of the next
  // frame, before it is drawn: reading the scroller's height (or writing its position) lays the
  // page out, which here, in the commit, was a second layout in the render's own task (with a
  // long table in view, a fifth of the longest tasks in renderer-floods' profiles); in the frame
  // it is the layout the frame does anyway.
  useLayoutEffect(() => {
    if (!following.current) return;
    const frame = requestAnimationFrame(() => {
      const element = scroller.current;
      if (element && following.current) element.scrollTop = element.scrollHeight;
    });
    return () => cancelAnimationFrame(frame);
  }, [items.length, totalSize, scroller, following]);

  // A search result opened this session: go to its match once it is among the items (a long
  // session's older part may still be on its way).
  const target = useSearchTarget((state) => (state.target?.sessionId === sessionId ? state.target : null));
  useLayoutEffect(() => {
    if (!target) return;
    const index = firstMatch(items, target);
    if (index === null) return;
    useSearchTarget.getState().clear();
    const keys = matchingIndexes(items, target).map((at) => items[at]!.key);
    stopFollowing();
    onHits({ keys, at: Math.max(0, keys.indexOf(items[index]!.key)), terms: target.terms, version: (hits?.version ?? 0) + 1 });
  }, [target, items, stopFollowing, onHits, hits]);

  const hitKey = hits ? (hits.keys[hits.at] ?? null) : null;
  useLayoutEffect(() => {
    if (hitKey === null) return;
    const index = latest.current.findIndex((item) => item.key === hitKey);
    if (index >= 0) virtualizer.scrollToIndex(index, { align: 'center' });
    // Only when the person moves to another hit, not on every streamed delta.
  }, [hitKey, hits?.version]);

  return (
    <div className="transcript-canvas" style={{ height: totalSize }}>
      {virtualizer.getVirtualItems().map((row) => {
        const item = items[row.index]!;
        return (
          <div
            key={row.key}
            ref={virtualizer.measureElement}
            data-index={row.index}
            className={`transcript-row${item.key === hitKey ? ' search-hit' : ''}`}
            data-search-hit={item.key === hitKey ? '' : undefined}
            style={{ transform: `translateY(${row.start}px)` }}
          >
            {item.kind === 'toolGroup' ? <ToolGroup group={item} /> : <TranscriptRow item={item} sessionId={sessionId} newestPending={item.key === newestPendingKey} />}
          </div>
        );
      })}
    </div>
  );
});

function estimatedHeight(items: readonly TranscriptRowItem[]): number {
  let height = 0;
  for (const item of items) height += estimate(item);
  return height;
}

/** A number that changes when the items' keys change other than by items added at the end. */
function useKeysVersion(items: readonly TranscriptRowItem[]): number {
  const seen = useRef({ items, version: 0 });
  if (seen.current.items !== items) {
    const previous = seen.current.items;
    const last = previous.length - 1;
    // Keys are unique and new items only go at the end, so the old last key still at its
    // index means no item before it was removed.
    const appended = items.length >= previous.length && (last < 0 || items[last]?.key === previous[last]!.key);
    seen.current = { items, version: seen.current.version + (appended ? 0 : 1) };
  }
  return seen.current.version;
}
