/**
 * `session:revertHunk` behind the contract: one hunk of a file's change put back from the review
 * pane. Like a rewind it waits for the session to stop, and the model is told at its next run,
 * so it reads the file again instead of building on the line that is gone.
 */
import { join } from 'node:path';
import { INJECTED_PREFIX } from '../agent/conversation';
import { revertHunk } from '../checkpoints/hunk-revert';
import { RewindError } from '../checkpoints/rewind';
import { timelineOf } from '../checkpoints/timeline';
import type { SessionManager } from '../sessions/session-manager';
import { ApiError, type Handlers } from './dispatch';

export function createReviewHandlers(manager: SessionManager, dataDir: string): Pick<Handlers, 'session:revertHunk'> {
  return {
    'session:revertHunk': async ({ sessionId, prompt, root, path, hunk }) => {
      const session = manager.getSession(sessionId);
      if (!session) throw ApiError.notFound(`no session with id ${sessionId}`);
      if (manager.isRunning(sessionId)) throw ApiError.conflict('the session is running; stop it before reverting part of its changes');
      try {
        const report = await revertHunk({ coveHome: dataDir, workspaceRoots: session.workspaces, timeline: timelineOf(manager.store.loadEvents(sessionId)), prompt, root, path, hunk });
        if (report.reverted) {
          const text = `${INJECTED_PREFIX}The person reverted one of your changes to ${join(root, path)} (the hunk ${report.hunk}); read the file again before editing it.`;
          manager.store.appendMessage(sessionId, { role: 'user', content: [{ type: 'text', text }] });
        }
        return report;
      } catch (error) {
        if (error instanceof RewindError) throw ApiError.invalid(error.message);
        throw error;
      }
    },
  };
}
