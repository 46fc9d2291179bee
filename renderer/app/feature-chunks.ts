/**
 * The parts of the window that are not on the first screen, each a chunk of its own that is
 * fetched on first use: the first screen (the sessions list and the new-session form) then
 * parses and renders less. Kept free of React so that main.tsx can start a fetch early (the
 * session view, when a session was open before the reload) without pulling the interface in.
 *
 * Each chunk remembers its module once loaded, so the window can draw it in the same render
 * as the click that asks for it (lazy-features.tsx) instead of suspending: React holds a
 * suspended boundary's content back until 300 ms after its fallback showed
 * (FALLBACK_THROTTLE_MS), which made opening any session take a third of a second even when
 * the chunk had arrived 40 ms after the click.
 */

export interface Chunk<Module> {
  /** The module, fetching it unless it is loaded or on its way. A failed fetch is tried again on the next call. */
  load(): Promise<Module>;
  /** The module if it has loaded, else undefined. */
  loaded(): Module | undefined;
  /** Calls `listener` once the module has loaded (whoever asked for it); returns the unsubscribe. */
  subscribe(listener: () => void): () => void;
}

/**
 * Asks for every file a later chunk imports at once, by the list index.html holds for it
 * (scripts/first-screen.mjs, LATER_MODULES): import() alone learns of them only once the
 * chunk's own file has arrived and been parsed, a second round trip before the view can draw.
 */
function preloadFiles(name: string): void {
  if (typeof document === 'undefined') return;
  const listed = document.querySelector(`meta[name="cove-chunk-files"][data-chunk="${name}"]`)?.getAttribute('content') ?? '';
  for (const file of listed.split(' ').filter(Boolean)) {
    const href = `./${file}`;
    // A hint whose fetch failed stays in the page; the import() fetches that file itself again.
    if (document.querySelector(`link[rel="modulepreload"][href="${href}"]`)) continue;
    const link = document.createElement('link');
    link.rel = 'modulepreload';
    link.href = href;
    document.head.append(link);
  }
}

/** A chunk of the interface; `name`, when given, is its key in index.html's lists of files (LATER_MODULES). */
export function chunk<Module>(importModule: () => Promise<Module>, name?: string): Chunk<Module> {
  let module: Module | undefined;
  let loading: Promise<Module> | undefined;
  const listeners = new Set<() => void>();
  return {
    load() {
      if (!loading && name) preloadFiles(name);
      loading ??= importModule().then(
        (value) => {
          module = value;
          for (const listener of [...listeners]) listener();
          return value;
        },
        (error: unknown) => {
          // A chunk request can fail while the server restarts; the next use asks again.
          loading = undefined;
          throw error;
        },
      );
      return loading;
    },
    loaded: () => module,
    subscribe(listener) {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
  };
}

export const sessionViewChunk = chunk(() => import('../features/session/SessionView'), 'sessionView');
export const settingsDialogChunk = chunk(() => import('../features/settings/SettingsDialog'));
export const subagentSidebarChunk = chunk(() => import('../features/subagents/SubagentSidebar'));
// Results draw snippets with the transcript's markdown: fetched on the first search rather than with the first screen.
export const searchResultsChunk = chunk(() => import('../features/sessions/SearchResults'));

/**
 * Fetches the session view ahead of the click that needs it (at idle once the list is drawn,
 * and when the pointer or focus reaches a session row). A failure here is not shown: the
 * click that needs the chunk asks again and shows its own failure.
 */
export function prefetchSessionView(): void {
  if (!sessionViewChunk.loaded()) sessionViewChunk.load().catch(() => undefined);
}

/** Longest wait for an idle moment before the prefetch goes ahead anyway. */
const IDLE_TIMEOUT_MS = 2000;

/**
 * Prefetches the session view once the browser is idle (after the frame that drew the list,
 * so the first screen never shares the network or the main thread with it); returns a cancel.
 */
export function prefetchSessionViewAtIdle(): () => void {
  // Safari has no requestIdleCallback; a timeout after the current frame is the nearest thing.
  if (typeof requestIdleCallback !== 'function') {
    const timer = setTimeout(prefetchSessionView, 200);
    return () => clearTimeout(timer);
  }
  const handle = requestIdleCallback(prefetchSessionView, { timeout: IDLE_TIMEOUT_MS });
  return () => cancelIdleCallback(handle);
}
