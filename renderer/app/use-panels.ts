/**
 * The side panels at the window's width (panel-layout.ts decides), and the buttons' toggles.
 * Ctrl/Cmd+K searches sessions; with the sessions panel closed there is no search box to
 * focus, so the panel is opened first, before the window's shortcut handler looks for it.
 */
import { useEffect } from 'react';
import { flushSync } from 'react-dom';
import { useCove } from '../store';
import { ONE_LINE_HEADER_WIDTH, panelState, type PanelName, type PanelState } from './panel-layout';
import { useWindowWidth } from './use-window-width';

export interface Panels {
  sessions: PanelState;
  subagents: PanelState;
  toggle(panel: PanelName): void;
}

export function usePanels(): Panels {
  const width = useWindowWidth();
  const choices = useCove((state) => state.panelChoices);
  const togglePanel = useCove((state) => state.togglePanel);
  const sessions = panelState('sessions', width, choices);

  useEffect(() => {
    if (sessions.open) return;
    const onKeyDown = (event: KeyboardEvent) => {
      if ((event.ctrlKey || event.metaKey) && !event.altKey && !event.shiftKey && event.key.toLowerCase() === 'k') {
        flushSync(() => useCove.getState().togglePanel('sessions', window.innerWidth));
      }
    };
    window.addEventListener('keydown', onKeyDown, { capture: true });
    return () => window.removeEventListener('keydown', onKeyDown, { capture: true });
  }, [sessions.open]);

  return {
    sessions,
    subagents: panelState('subagents', width, choices),
    toggle: (panel) => togglePanel(panel, width),
  };
}

/** Whether the session header keeps to one line. */
export function useOneLineHeader(): boolean {
  return useWindowWidth() < ONE_LINE_HEADER_WIDTH;
}
