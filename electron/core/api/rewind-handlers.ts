/**
 * `session:rewind` and `session:changes` behind the contract: the same rewind as `cove rewind`
 * (its event published live) and the same changes as `cove sessions --changes`.
 */
import { sessionChanges } from '../checkpoints/changes';
import { timelineOf } from '../checkpoints/timeline';
import { RewindError, rewindSession } from '../checkpoints/rewind-session';
import { fileRevertOf } from '../checkpoints/session-reverts';
import type { SessionManager } from '../sessions/session-manager';
import { ApiError, type Handlers } from './dispatch';
import { worktreeChanges, worktreeOf } from '../worktrees';
import type { ConversationMessage } from '../agent/types';
import type { StoredMessage } from '../store';

export function createRewindHandlers(manager: SessionManager, dataDir: string): Pick<Handlers, 'session:rewind' | 'session:changes'> {
  return {
    'session:changes': async ({ sessionId }) => {
      const session = manager.getSession(sessionId);
      if (!session) throw ApiError.notFound(`no session with id ${sessionId}`);
      const timeline = timelineOf(manager.store.loadEvents(sessionId));
      const secrets = await manager.secretsOf(sessionId);
      const changes = await sessionChanges({ coveHome: dataDir, workspaceRoots: session.workspaces, timeline, secrets });
      const worktree = worktreeOf(dataDir, sessionId);
      return worktree ? { ...changes, worktree: await worktreeChanges(worktree, secrets) } : changes;
    },
    'session:rewind': async ({ sessionId, toPrompt, dryRun, force, paths, cutConversation }) => {
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
          ...(paths ? { only: paths } : {}),
          // Some files only: the review pane's Revert file, recorded as that files' revert.
          record: (event) => manager.recordRewind(paths ? fileRevertOf(event) : event),
          tellModel: (text) => manager.store.appendMessage(sessionId, { role: 'user', content: [{ type: 'text', text }] }),
          cutConversation: cutConversation ?? false,
          history: {
            load: () => manager.store.loadMessages(sessionId) as ConversationMessage[],
            replace: (messages) => manager.store.replaceMessages(sessionId, messages as StoredMessage[]),
          },
        });
      } catch (error) {
        if (error instanceof RewindError) throw ApiError.invalid(error.message);
        throw error;
      }
    },
  };
}
