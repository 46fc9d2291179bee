/**
 * Window-wide keys: Ctrl/Cmd+K focuses session search, Ctrl/Cmd+N starts a new session,
 * Alt+ArrowUp/ArrowDown open the previous/next session of the list (in its grouping); the desktop menu's New
 * Session too, and a clicked notification's session. (Escape closes dialogs natively; permission keys live with their cards.)
 */
import { useEffect } from 'react';
import { listedSessions } from '../features/sessions/session-groups';
import { useCove } from '../store';
import { transport } from '../transport/client';

export const SEARCH_INPUT_ID = 'session-search';
export const FOLDER_INPUT_ID = 'project-folder';

/** Shows the new-session view with the folder field focused. */
export function startNewSession(): void {
  useCove.getState().selectSession(null);
  requestAnimationFrame(() => document.getElementById(FOLDER_INPUT_ID)?.focus());
}

export function useGlobalShortcuts(): void {
  useEffect(() => {
    const onKeyDown = (event: KeyboardEvent) => {
      const command = event.ctrlKey || event.metaKey;
      const key = event.key.toLowerCase();
      if (command && !event.altKey && !event.shiftKey && key === 'k') {
        event.preventDefault();
        document.getElementById(SEARCH_INPUT_ID)?.focus();
      } else if (command && !event.altKey && !event.shiftKey && key === 'n') {
        event.preventDefault();
        startNewSession();
      } else if (event.altKey && !command && (event.key === 'ArrowUp' || event.key === 'ArrowDown')) {
        event.preventDefault();
        const state = useCove.getState();
        // As the list shows them: grouped by project, a folder's sessions come together.
        const order = listedSessions(state.sessions, state.sessionGrouping, Date.now());
        if (order.length === 0) return;
        const index = order.findIndex((session) => session.id === state.activeSessionId);
        const step = event.key === 'ArrowUp' ? -1 : 1;
        const next = index < 0 ? 0 : Math.min(order.length - 1, Math.max(0, index + step));
        if (order[next]!.id !== state.activeSessionId) state.selectSession(order[next]!.id);
      }
    };
    window.addEventListener('keydown', onKeyDown);
    const stopMenu = transport().onMenuCommand?.((command) => {
      if (command === 'newSession') startNewSession();
      // A clicked notification (electron/desktop/notifier.ts) names the session it was about.
      const opened = /^openSession:(.+)$/.exec(command)?.[1];
      if (opened && useCove.getState().sessions[opened]) useCove.getState().selectSession(opened);
    });
    return () => {
      window.removeEventListener('keydown', onKeyDown);
      stopMenu?.();
    };
  }, []);
}
