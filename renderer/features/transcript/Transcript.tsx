/**
 * The transcript, virtualized (only the rows in view are in the DOM; heights are measured as
 * rows render), so a session of ten thousand items scrolls like a short one. It follows the
 * bottom while the agent streams, unless the person scrolled up to read.
 */
import { useVirtualizer } from '@tanstack/react-virtual';
import { useCallback, useLayoutEffect, useMemo, useRef, useState } from 'react';
import { useCove } from '../../store';
import type { TranscriptItem } from './model-types';
import { TranscriptRow } from './TranscriptRow';

const EMPTY: TranscriptItem[] = [];
const BOTTOM_SLACK_PX = 48;

function estimate(item: TranscriptItem | undefined): number {
  switch (item?.kind) {
    case 'tool':
      return 96;
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
  const scroller = useRef<HTMLDivElement>(null);
  const following = useRef(true);
  const [atBottom, setAtBottom] = useState(true);

  const newestPendingKey = useMemo(() => {
    const newest = items.findLast((item) => item.kind === 'permission' && !item.decision && !item.expired);
    return newest?.key ?? null;
  }, [items]);

  const virtualizer = useVirtualizer({
    count: items.length,
    getScrollElement: () => scroller.current,
    estimateSize: (index) => estimate(items[index]),
    getItemKey: (index) => items[index]?.key ?? index,
    overscan: 6,
  });
  const totalSize = virtualizer.getTotalSize();

  useLayoutEffect(() => {
    const element = scroller.current;
    if (element && following.current) element.scrollTop = element.scrollHeight;
  }, [items, totalSize]);

  const onScroll = useCallback(() => {
    const element = scroller.current;
    if (!element) return;
    const bottom = element.scrollHeight - element.scrollTop - element.clientHeight <= BOTTOM_SLACK_PX;
    following.current = bottom;
    setAtBottom(bottom);
  }, []);

  const jumpToLatest = () => {
    following.current = true;
    setAtBottom(true);
    virtualizer.scrollToIndex(items.length - 1, { align: 'end' });
  };

  return (
    <div className="transcript-frame">
      <div ref={scroller} className="transcript" role="region" aria-label="Transcript" aria-busy={loading} tabIndex={0} data-transcript onScroll={onScroll}>
        {items.length === 0 ? (
          <p className="empty" role="status">
            {loading ? 'Loading the transcript…' : 'Nothing here yet. Type below to start.'}
          </p>
        ) : null}
        <div className="transcript-canvas" style={{ height: totalSize }}>
          {virtualizer.getVirtualItems().map((row) => {
            const item = items[row.index]!;
            return (
              <div key={row.key} ref={virtualizer.measureElement} data-index={row.index} className="transcript-row" style={{ transform: `translateY(${row.start}px)` }}>
                <TranscriptRow item={item} sessionId={sessionId} newestPending={item.key === newestPendingKey} />
              </div>
            );
          })}
        </div>
      </div>
      {atBottom ? null : (
        <button type="button" className="jump-latest" onClick={jumpToLatest}>
          Jump to latest
        </button>
      )}
    </div>
  );
}
