/**
 * The window: top bar, sessions on the left, the open session (or a new one) in the middle,
 * subagents on the right. Each side panel has a button in the top bar and closes on its own
 * when the window is too narrow for it (use-panels.ts).
 */
import { useEffect, useState } from 'react';
import { NewSession } from '../features/workspace/NewSession';
import { SESSIONS_PANEL_ID, SessionsPanel } from '../features/sessions/SessionsPanel';
import { WaitingBanner } from '../features/sessions/WaitingBanner';
import { subagentCount } from '../features/subagents/subagent-status';
import { waitingSubagentIds } from '../features/transcript/model';
import { useWindowDrop } from '../features/workspace/use-window-drop';
import { useCove } from '../store';
import { Notices } from './Notices';
import { ConnectionBanner } from './ConnectionBanner';
import { SandboxBanner } from './SandboxBanner';
import { FeatureBoundary } from './FeatureBoundary';
import { prefetchSessionViewAtIdle } from './feature-chunks';
import { LazySessionView, LazySettingsDialog, LazySubagentSidebar } from './lazy-features';
import { PanelButton, SUBAGENTS_PANEL_ID } from './PanelButton';
import { startNewSession, useGlobalShortcuts } from './use-global-shortcuts';
import { usePanels } from './use-panels';

export function App() {
  const activeSessionId = useCove((state) => state.activeSessionId);
  const subagentTotal = useCove((state) => state.transcript?.state.subagents.length ?? 0);
  // A string, so the window redraws only when the count's words change, not on every delta.
  const subagentDetail = useCove((state) => {
    const shown = state.transcript?.state;
    return shown && shown.subagents.length > 0 ? subagentCount(shown.subagents, waitingSubagentIds(shown)) : '';
  });
  const openSettings = useCove((state) => state.openSettings);
  const settingsOpen = useCove((state) => state.settingsOpen);
  // Settings' chunk is fetched when they are first opened, and the dialog then stays mounted.
  const [settingsUsed, setSettingsUsed] = useState(settingsOpen);
  if (settingsOpen && !settingsUsed) setSettingsUsed(true);
  const sessionsLoaded = useCove((state) => state.sessionsLoaded);
  // Once the list is drawn, the session view's chunk comes at idle, so a click draws it at once.
  useEffect(() => (sessionsLoaded ? prefetchSessionViewAtIdle() : undefined), [sessionsLoaded]);
  const dropping = useWindowDrop();
  const panels = usePanels();
  useGlobalShortcuts();
  const showSessions = panels.sessions.open;
  const showSubagents = subagentTotal > 0 && panels.subagents.open;
  const classes = ['app', showSessions ? '' : 'without-sessions', showSubagents ? 'with-subagents' : '', dropping ? 'dropping' : ''];

  return (
    <div className={classes.filter(Boolean).join(' ')}>
      <header className="topbar">
        <PanelButton label="Sessions panel" controls={SESSIONS_PANEL_ID} state={panels.sessions} onToggle={() => panels.toggle('sessions')} icon="☰" />
        <span className="brand">Cove</span>
        {showSessions ? null : (
          <button type="button" className="panel-button" aria-label="New session" title="New session (Ctrl+N)" onClick={startNewSession}>
            <span aria-hidden="true">+</span>
          </button>
        )}
        <ConnectionBanner />
        <SandboxBanner />
        <FeatureBoundary name="Waiting sessions">
          <WaitingBanner />
        </FeatureBoundary>
        <span className="topbar-end">
          {subagentTotal > 0 ? (
            <PanelButton label="Subagents panel" controls={SUBAGENTS_PANEL_ID} state={panels.subagents} onToggle={() => panels.toggle('subagents')} icon="◧" detail={subagentDetail} />
          ) : null}
          <button type="button" className="topbar-button" onClick={openSettings}>
            Settings
          </button>
        </span>
      </header>
      {showSessions ? (
        <FeatureBoundary name="Sessions">
          <SessionsPanel />
        </FeatureBoundary>
      ) : null}
      <main className="center">
        <FeatureBoundary name={activeSessionId ? 'Session' : 'New session'}>
          {activeSessionId ? <LazySessionView key={activeSessionId} sessionId={activeSessionId} /> : <NewSession />}
        </FeatureBoundary>
      </main>
      {showSubagents ? (
        <FeatureBoundary name="Subagents">
          <div id={SUBAGENTS_PANEL_ID} className="subagents-column">
            <LazySubagentSidebar />
          </div>
        </FeatureBoundary>
      ) : null}
      {settingsUsed ? (
        <FeatureBoundary name="Settings">
          <LazySettingsDialog />
        </FeatureBoundary>
      ) : null}
      <Notices />
      {dropping ? (
        <div className="drop-hint" aria-hidden="true">
          <span className="drop-hint-text">{activeSessionId ? 'Drop a folder to add it to this session' : 'Drop a folder to start a session in it'}</span>
        </div>
      ) : null}
    </div>
  );
}
