/** An open session: header, transcript, composer. */
import { useEffect, useState } from 'react';
import { FeatureBoundary } from '../../app/FeatureBoundary';
import { useCove } from '../../store';
import { displayTitle } from '../../ui/format';
import { Composer } from '../composer/Composer';
import { Transcript } from '../transcript/Transcript';
import { SessionHeader } from './SessionHeader';
import { RunStateBanner } from './RunStateBanner';
import { ReviewChanges } from '../checkpoints/ReviewChanges';
import { WorktreeEndOffer } from '../worktrees/WorktreeEndOffer';
import { ProjectApprovals } from '../approvals/ProjectApprovals';

const QUEUED_NOTE_MS = 6000;
const OFFLINE = 'Cove is not connected: sending and stopping wait until it is back';

export function SessionView({ sessionId }: { sessionId: string }) {
  const session = useCove((state) => state.sessions[sessionId]);
  const loading = useCove((state) => state.transcript?.sessionId === sessionId && state.transcript.loading);
  const error = useCove((state) => (state.transcript?.sessionId === sessionId ? state.transcript.error : null));
  const openTranscript = useCove((state) => state.openTranscript);

  if (!session) {
    return (
      <section className="session-view" aria-label="Session">
        <p className="empty" role="status">
          {loading ? 'Opening the session…' : 'This session is not in the list (it may have been deleted).'}
        </p>
      </section>
    );
  }
  return (
    <section className="session-view" aria-label={`Session ${displayTitle(session.title)}`}>
      <FeatureBoundary name="Session header">
        <SessionHeader session={session} />
      </FeatureBoundary>
      {error ? (
        <div role="alert" className="inline-error transcript-error">
          Could not open this session: {error}{' '}
          <button type="button" onClick={() => void openTranscript(sessionId)}>
            Try again
          </button>
        </div>
      ) : null}
      <FeatureBoundary name="Project approvals">
        <ProjectApprovals workspaces={session.workspaces} />
      </FeatureBoundary>
      <RunStateBanner session={session} />
      <FeatureBoundary name="Review pane">
        <ReviewChanges sessionId={sessionId} />
      </FeatureBoundary>
      <FeatureBoundary name="Transcript">
        <Transcript sessionId={sessionId} />
      </FeatureBoundary>
      <FeatureBoundary name="Worktree offer">
        <WorktreeEndOffer sessionId={sessionId} />
      </FeatureBoundary>
      <FeatureBoundary name="Composer">
        <SessionComposer sessionId={sessionId} running={session.status === 'running' || session.status === 'waiting'} />
      </FeatureBoundary>
    </section>
  );
}

function SessionComposer({ sessionId, running }: { sessionId: string; running: boolean }) {
  const sending = useCove((state) => state.sending[sessionId] === true);
  const steeredAt = useCove((state) => state.steeredAt[sessionId] ?? 0);
  const sendDraft = useCove((state) => state.sendDraft);
  const stopSession = useCove((state) => state.stopSession);
  const offline = useCove((state) => state.connection.status !== 'open');
  const [queuedVisible, setQueuedVisible] = useState(false);

  useEffect(() => {
    if (steeredAt === 0) return;
    setQueuedVisible(true);
    const timer = setTimeout(() => setQueuedVisible(false), QUEUED_NOTE_MS);
    return () => clearTimeout(timer);
  }, [steeredAt]);

  return (
    <Composer
      draftKey={sessionId}
      sessionId={sessionId}
      submitLabel="Send"
      placeholder={running ? 'Add to what the agent is doing… (it reads this at its next step)' : 'Ask Cove…'}
      busy={sending}
      autoFocus
      {...(offline ? { unavailable: OFFLINE } : {})}
      onSubmit={() => void sendDraft(sessionId)}
      extra={
        <>
          <span role="status" className="queued-note">
            {queuedVisible ? 'Queued for the running agent' : ''}
          </span>
          {running ? (
            <button type="button" className="danger" disabled={offline} title={offline ? OFFLINE : undefined} onClick={() => void stopSession(sessionId)}>
              Stop
            </button>
          ) : null}
        </>
      }
    />
  );
}
