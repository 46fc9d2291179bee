/** The window: top bar, sessions on the left, the open session (or a new one) in the middle, subagents on the right. */
import { NewSession } from '../features/workspace/NewSession';
import { SessionsPanel } from '../features/sessions/SessionsPanel';
import { WaitingBanner } from '../features/sessions/WaitingBanner';
import { SessionView } from '../features/session/SessionView';
import { SettingsDialog } from '../features/settings/SettingsDialog';
import { SubagentSidebar } from '../features/subagents/SubagentSidebar';
import { useWindowDrop } from '../features/workspace/use-window-drop';
import { useCove } from '../store';
import { Notices } from './Notices';
import { ConnectionBanner } from './ConnectionBanner';
import { SandboxBanner } from './SandboxBanner';
import { FeatureBoundary } from './FeatureBoundary';
import { useGlobalShortcuts } from './use-global-shortcuts';

export function App() {
  const activeSessionId = useCove((state) => state.activeSessionId);
  const hasSubagents = useCove((state) => (state.transcript?.state.subagents.length ?? 0) > 0);
  const openSettings = useCove((state) => state.openSettings);
  const dropping = useWindowDrop();
  useGlobalShortcuts();

  return (
    <div className={`app${hasSubagents ? ' with-subagents' : ''}${dropping ? ' dropping' : ''}`}>
      <header className="topbar">
        <span className="brand">Cove</span>
        <ConnectionBanner />
        <SandboxBanner />
        <FeatureBoundary name="Waiting sessions">
          <WaitingBanner />
        </FeatureBoundary>
        <button type="button" className="topbar-button" onClick={openSettings}>
          Settings
        </button>
      </header>
      <FeatureBoundary name="Sessions">
        <SessionsPanel />
      </FeatureBoundary>
      <main className="center">
        <FeatureBoundary name={activeSessionId ? 'Session' : 'New session'}>
          {activeSessionId ? <SessionView key={activeSessionId} sessionId={activeSessionId} /> : <NewSession />}
        </FeatureBoundary>
      </main>
      {hasSubagents ? (
        <FeatureBoundary name="Subagents">
          <SubagentSidebar />
        </FeatureBoundary>
      ) : null}
      <FeatureBoundary name="Settings">
        <SettingsDialog />
      </FeatureBoundary>
      <Notices />
      {dropping ? (
        <div className="drop-hint" aria-hidden="true">
          {activeSessionId ? 'Drop a folder to add it to this session' : 'Drop a folder to start a session in it'}
        </div>
      ) : null}
    </div>
  );
}
