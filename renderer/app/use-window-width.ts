/** The window's inner width, updated on resize; the layout decides from it which panels show. */
import { useSyncExternalStore } from 'react';

function subscribe(onChange: () => void): () => void {
  window.addEventListener('resize', onChange);
  return () => window.removeEventListener('resize', onChange);
}

// A resize fires many events in a row; React skips renders while the width stays the same.
const width = () => window.innerWidth;

export function useWindowWidth(): number {
  return useSyncExternalStore(subscribe, width);
}
