/**
 * Every stored session, drawn virtualized: only the rows in view (and a few either side) are in
 * the page, so 10,000 sessions cost what 30 do. Older pages load as the list nears its end; the
 * open session is scrolled into view when it changes.
 */
import { useCallback, useEffect, useLayoutEffect, useMemo, useRef } from 'react';
import { useVirtualizer } from '@tanstack/react-virtual';
import { measureWithoutLayout, observeRectWithoutLayout } from '../../ui/virtual-layout';
import { useCove } from '../../store';
import { useNow } from '../../ui/use-now';
import { groupedRows } from './session-groups';
import { SessionRow } from './SessionRow';
import { pendingCounts, sortedSessions } from './sorted-sessions';

const ROW_ESTIMATE = 70;
const GROUP_ESTIMATE = 30;
/** Rows from the end at which the next page is asked for, so it is there before it is needed. */
const LOAD_AHEAD = 40;

export function SessionList() {
  const sessions = useCove((state) => state.sessions);
  const pending = useCove((state) => state.pending);
  const loaded = useCove((state) => state.sessionsLoaded);
  const grouping = useCove((state) => state.sessionGrouping);
  const activeSessionId = useCove((state) => state.activeSessionId);
  const more = useCove((state) => state.sessionsCursor !== null);
  const loadMoreSessions = useCove((state) => state.loadMoreSessions);
  // Date groups move at midnight; a minute is soon enough.
  const now = useNow(60_000);
  const ordered = useMemo(() => sortedSessions(sessions), [sessions]);
  const rows = useMemo(() => groupedRows(ordered, grouping, now), [ordered, grouping, now]);
  const counts = useMemo(() => pendingCounts(sessions, pending), [sessions, pending]);
  // Each session's place among the sessions alone (headings are not items), for aria-posinset.
  const positions = useMemo(() => {
    let position = 0;
    return rows.map((row) => (row.kind === 'session' ? ++position : 0));
  }, [rows]);
  const scroller = useRef<HTMLDivElement>(null);

  // Stable between renders of the same rows: the virtualizer recomputes every row's offset
  // when these change, which for 10,000 rows would be work on every scroll frame.
  const estimateSize = useCallback((index: number) => (rows[index]?.kind === 'group' ? GROUP_ESTIMATE : ROW_ESTIMATE), [rows]);
  const getItemKey = useCallback((index: number) => rows[index]?.key ?? index, [rows]);
  const getScrollElement = useCallback(() => scroller.current, []);
  // Until the scroller is measured (after the first commit) the virtualizer would draw no rows,
  // then measure and draw again: sized to the window, the first commit already holds the
  // rows in view, which is what a page load waits for.
  const initialRect = useMemo(() => ({ width: 0, height: window.innerHeight }), []);
  const virtualizer = useVirtualizer({
    count: rows.length,
    getScrollElement,
    estimateSize,
    getItemKey,
    overscan: 8,
    initialRect,
    // Sizes from ResizeObserver, never read in the commit (../../ui/virtual-layout.ts).
    measureElement: measureWithoutLayout,
    observeElementRect: observeRectWithoutLayout,
  });
  const visible = virtualizer.getVirtualItems();
  const lastVisible = visible.at(-1)?.index ?? -1;

  // The active session is brought into view when it changes (a click, Alt+Arrow, a search
  // result, a reload), and kept there while rows arrive above it, unless the person scrolled it
  // away: an active session older than the pages loaded sits at the end until they reach it.
  const shownFor = useRef<string | null>(null);
  const activeWasInView = useRef(false);
  const activeIndex = useMemo(() => (activeSessionId ? rows.findIndex((row) => row.key === activeSessionId) : -1), [rows, activeSessionId]);

  // Older pages load as the person nears the end. An open session older than the loaded pages
  // sits at the end and is scrolled to, which alone must not count: each page would land above
  // it, the list would follow it down, and every page would load in turn while the row jumped.
  const personScrolled = useRef(false);
  const onPersonScroll = useCallback(() => {
    personScrolled.current = true;
  }, []);
  const nearEnd = lastVisible >= rows.length - LOAD_AHEAD;
  const endIsTheActiveRow = activeIndex >= rows.length - LOAD_AHEAD;
  useEffect(() => {
    if (more && nearEnd && (personScrolled.current || !endIsTheActiveRow)) void loadMoreSessions();
  }, [more, nearEnd, lastVisible, endIsTheActiveRow, loadMoreSessions]);

  // Rows arriving above the active one are first placed at an estimated height and then
  // measured; the measured heights move the active row down, so the check runs again when the
  // list's size changes, not only when the active row's index does.
  const totalSize = virtualizer.getTotalSize();
  useLayoutEffect(() => {
    if (activeIndex < 0 || (shownFor.current === activeSessionId && !activeWasInView.current)) return;
    shownFor.current = activeSessionId;
    // While sessions stream, the active one trades places with the busy ones many times a
    // second; when it is in view already, asking the virtualizer to scroll costs a layout each time.
    const row = virtualizer.measurementsCache[activeIndex];
    const offset = virtualizer.scrollOffset ?? 0;
    const height = virtualizer.scrollRect?.height ?? 0;
    if (row && height > 0 && row.start >= offset && row.end <= offset + height) return;
    virtualizer.scrollToIndex(activeIndex, { align: 'auto' });
  }, [activeIndex, activeSessionId, virtualizer, totalSize]);
  useEffect(() => {
    const element = scroller.current;
    const item = visible.find((candidate) => candidate.index === activeIndex);
    activeWasInView.current = element !== null && item !== undefined && item.start < element.scrollTop + element.clientHeight && item.end > element.scrollTop;
  });

  if (loaded && ordered.length === 0) return <p className="empty">No sessions yet. Drop a project folder here to start one.</p>;
  const total = more ? -1 : ordered.length;

  return (
    <div className="session-scroller" ref={scroller} onWheel={onPersonScroll} onTouchMove={onPersonScroll} onKeyDown={onPersonScroll} onPointerDown={onPersonScroll}>
      <ul className="session-list" aria-label="Session list" style={{ height: totalSize }}>
        {visible.map((item) => {
          const row = rows[item.index]!;
          return row.kind === 'group' ? (
            <li
              key={row.key}
              ref={virtualizer.measureElement}
              data-index={item.index}
              className="session-group"
              style={{ transform: `translateY(${item.start}px)` }}
              aria-hidden="true"
              title={row.title}
            >
              {row.label}
            </li>
          ) : (
            <SessionRow
              key={row.key}
              session={row.session}
              pendingCount={counts[row.session.id] ?? 0}
              index={item.index}
              start={item.start}
              measure={virtualizer.measureElement}
              setSize={total}
              posInSet={positions[item.index]!}
            />
          );
        })}
      </ul>
    </div>
  );
}
