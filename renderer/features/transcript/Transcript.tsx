/**
 * The transcript, virtualized (only the rows in view are in the DOM; heights are measured as
 * rows render), so a session of ten thousand items opens and scrolls like a short one. It
 * follows the bottom while the agent streams, unless the person scrolled up to read.
 */
import { useVirtualizer } from '@tanstack/react-virtual';
import { useCallback, useLayoutEffect, useMemo, useRef, useState, type RefObject } from 'react';
import { useCove } from '../../store';
import type { TranscriptItem } from './model-types';
import { TranscriptRow } from './TranscriptRow';
import { ToolGroup, useGroupedRows } from '../tools/ToolGroup';
import type { TranscriptRowItem } from '../tools/tool-groups';

const EMPTY: TranscriptItem[] = [];
const BOTTOM_SLACK_PX = 48;

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
  const items = useCove((state) => (state.transcript?.sessionId === sessionId ? state.transcript.state.items : EMPTY));
  const loading = useCove((state) => state.transcript?.sessionId === sessionId && state.transcript.loading);
  // A long session shows its latest part first; the rest is still on its way (transcript-slice.ts).
  const olderLoading = useCove((state) => state.transcript?.sessionId === sessionId && state.transcript.olderUntil > 0);
  const rows = useGroupedRows(items);
  const scroller = useRef<HTMLDivElement>(null);
  const following = useRef(true);
  const [atBottom, setAtBottom] = useState(true);

  const onScroll = useCallback(() => {
    const element = scroller.current;
    if (!element) return;
    const bottom = element.scrollHeight - element.scrollTop - element.clientHeight <= BOTTOM_SLACK_PX;
    following.current = bottom;
    setAtBottom(bottom);
  }, []);

  // Rows measured on the way in change the height; the rows keep the bottom in view while following.
  const jumpToLatest = () => {
    following.current = true;
    setAtBottom(true);
    const element = scroller.current;
    if (element) element.scrollTop = element.scrollHeight;
  };

  return (
    <div className="transcript-frame">
      <div ref={scroller} className="transcript" role="region" aria-label="Transcript" aria-busy={loading} tabIndex={0} data-transcript onScroll={onScroll}>
        {items.length === 0 ? (
          <p className="empty" role="status">
            {loading ? 'Loading the transcript…' : 'Nothing here yet. Type below to start.'}
          </p>
        ) : (
          <TranscriptRows items={rows} sessionId={sessionId} scroller={scroller} following={following} />
        )}
      </div>
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
}

/**
 * The rows in view. Mounted once there are items, so a session opens straight at its bottom:
 * the rows at the top are never drawn and measured first.
 */
function TranscriptRows({ items, sessionId, scroller, following }: RowsProps) {
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
    initialOffset: () => (following.current ? Math.max(0, estimatedHeight(items) - (scroller.current?.clientHeight ?? 0)) : 0),
  });
  const totalSize = virtualizer.getTotalSize();

  useLayoutEffect(() => {
    const element = scroller.current;
    if (element && following.current) element.scrollTop = element.scrollHeight;
  }, [items, totalSize, scroller, following]);

  return (
    <div className="transcript-canvas" style={{ height: totalSize }}>
      {virtualizer.getVirtualItems().map((row) => {
        const item = items[row.index]!;
        return (
          <div key={row.key} ref={virtualizer.measureElement} data-index={row.index} className="transcript-row" style={{ transform: `translateY(${row.start}px)` }}>
            {item.kind === 'toolGroup' ? <ToolGroup group={item} /> : <TranscriptRow item={item} sessionId={sessionId} newestPending={item.key === newestPendingKey} />}
          </div>
        );
      })}
    </div>
  );
}

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
