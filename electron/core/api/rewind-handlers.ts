/** `session:rewind` behind the contract: the same rewind as `cove rewind`, its event published live. */
import { RewindError, rewindSession } from '../checkpoints/rewind-session';
import type { SessionManager } from '../sessions/session-manager';
import { ApiError, type Handlers } from './dispatch';

export function createRewindHandlers(manager: SessionManager, dataDir: string): Pick<Handlers, 'session:rewind'> {
  return {
    'session:rewind': async ({ sessionId, toPrompt, dryRun, force }) => {
      const session = manager.getSession(sessionId);
      if (!session) throw ApiError.notFound(`no session with id ${sessionId}`);
      if (manager.isRunning(sessionId)) throw ApiError.conflict('the session is running; stop it before rewinding its files');
      try {
        return await rewindSession({
          coveHome: dataDir,
          session,
          events: manager.store.loadEvents(sessionId),
          toPrompt,
          dryRun: dryRun ?? false,
          force: force ?? false,
          record: (event) => manager.recordRewind(event),
        });
      } catch (error) {
        if (error instanceof RewindError) throw ApiError.invalid(error.message);
        throw error;
      }
    },
  };
}
