/**
 * Options for @tanstack/react-virtual that never make the browser lay the page out inside
 * React's commit. By default the virtualizer reads a row's height (`offsetHeight`) when the row
 * mounts and its scroller's size (`clientWidth`/`clientHeight`) when it starts: with the DOM just
 * changed, each read lays out the whole page then and there, in the same task as the render
 * that changed it. During a flood that made one task of render, commit and layout, the tasks
 * over 50 ms of the renderer benchmark (measureElement and getRect were a fifth to a third of
 * them in CPU profiles).
 *
 * Here the sizes come from ResizeObserver only, which reports them after the browser's own
 * layout for the frame and before its paint: a new row is placed at its estimate (or its size
 * from an earlier mount), corrected before anything is drawn. Nothing shows the estimate.
 */
import { measureElement as measureFromEntry, type Virtualizer } from '@tanstack/react-virtual';

/** A row's size: from ResizeObserver's entry, or, as it mounts, what is known without a layout. */
export function measureWithoutLayout<TScroller extends Element, TElement extends Element>(
  element: TElement,
  entry: ResizeObserverEntry | undefined,
  instance: Virtualizer<TScroller, TElement>,
): number {
  if (entry) return measureFromEntry(element, entry, instance);
  const index = instance.indexFromElement(element);
  return instance.itemSizeCache.get(instance.options.getItemKey(index)) ?? instance.options.estimateSize(index);
}

/**
 * The scroller's size from ResizeObserver alone (its first report comes with the first frame
 * after the virtualizer starts); until then the virtualizer keeps its `initialRect`.
 */
export function observeRectWithoutLayout<TScroller extends Element, TElement extends Element>(
  instance: Virtualizer<TScroller, TElement>,
  onRect: (rect: { width: number; height: number }) => void,
): (() => void) | undefined {
  const element = instance.scrollElement;
  const ResizeObserverOf = instance.targetWindow?.ResizeObserver;
  if (!element || !ResizeObserverOf) return undefined;
  // Read as the default observer reads it (the client box, padding included); inside a
  // ResizeObserver callback the page is laid out already, so the read costs no layout.
  const observer = new ResizeObserverOf(() => onRect({ width: element.clientWidth, height: element.clientHeight }));
  observer.observe(element, { box: 'content-box' });
  return () => observer.disconnect();
}
