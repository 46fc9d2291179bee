/**
 * React components of the chunks in feature-chunks.ts. Each draws its chunk's component in the
 * same render once the module is loaded, and nothing until then. They do not suspend (no
 * React.lazy): a Suspense boundary that showed its fallback holds the content back until
 * 300 ms after it (React's FALLBACK_THROTTLE_MS), a delay every session open paid.
 */
import { useEffect, useState, useSyncExternalStore, type ComponentType } from 'react';
import { searchResultsChunk, sessionViewChunk, settingsDialogChunk, subagentSidebarChunk, type Chunk } from './feature-chunks';
import { loadFailureText } from './load-failure';

/**
 * A component that draws `pick(module)` of `source`, fetching the chunk on mount. A failed
 * fetch shows what could not load and a Try again button; the component also appears as soon
 * as the module arrives some other way (a prefetch from a session row).
 */
export function chunkComponent<Module, Props extends object>(source: Chunk<Module>, pick: (module: Module) => ComponentType<Props>, what: string): ComponentType<Props> {
  function ChunkComponent(props: Props) {
    const module = useSyncExternalStore(source.subscribe, source.loaded);
    const [failure, setFailure] = useState<string | null>(null);
    const [attempt, setAttempt] = useState(0);
    useEffect(() => {
      if (module) return;
      let live = true;
      source.load().catch((error: unknown) => {
        if (live) setFailure(loadFailureText(what, error));
      });
      return () => {
        live = false;
      };
    }, [module, attempt]);
    if (module) {
      const Component = pick(module);
      return <Component {...props} />;
    }
    if (failure === null) return null;
    return (
      <div role="alert" className="feature-error">
        <p>{failure}</p>
        <button
          type="button"
          onClick={() => {
            setFailure(null);
            setAttempt((count) => count + 1);
          }}
        >
          Try again
        </button>
      </div>
    );
  }
  ChunkComponent.displayName = `Chunk(${what})`;
  return ChunkComponent;
}

export const LazySessionView = chunkComponent(sessionViewChunk, (module) => module.SessionView, 'the session view');
export const LazySettingsDialog = chunkComponent(settingsDialogChunk, (module) => module.SettingsDialog, 'the settings');
export const LazySubagentSidebar = chunkComponent(subagentSidebarChunk, (module) => module.SubagentSidebar, 'the subagents panel');
export const LazySearchResults = chunkComponent(searchResultsChunk, (module) => module.SearchResults, 'the search results');
