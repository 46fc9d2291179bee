/**
 * `session:revertHunk` and `session:undoRevert` behind the contract: one hunk of a file's change
 * put back from the review pane, or a revert undone. Like a rewind each waits for the session to
 * stop, is recorded as an event, and the model is told at its next run, so it reads the file
 * again instead of building on lines that changed under it.
 */
import { join } from 'node:path';
import { INJECTED_PREFIX } from '../agent/conversation';
import { RewindError } from '../checkpoints/rewind';
import { recordedHunkRevert, undoNote, undoRevert } from '../checkpoints/session-reverts';
import { timelineOf } from '../checkpoints/timeline';
import type { SessionManager } from '../sessions/session-manager';
import { ApiError, type Handlers } from './dispatch';

export function createReviewHandlers(manager: SessionManager, dataDir: string): Pick<Handlers, 'session:revertHunk' | 'session:undoRevert'> {
  const stopped = (sessionId: string, what: string) => {
    const session = manager.getSession(sessionId);
    if (!session) throw ApiError.notFound(`no session with id ${sessionId}`);
    if (manager.isRunning(sessionId)) throw ApiError.conflict(`the session is running; stop it before ${what}`);
    return session;
  };
  const tellModel = (sessionId: string, text: string) => manager.store.appendMessage(sessionId, { role: 'user', content: [{ type: 'text', text: `${INJECTED_PREFIX}${text}` }] });
  const asInvalid = async <T>(task: () => Promise<T>): Promise<T> => {
    try {
      return await task();
    } catch (error) {
      if (error instanceof RewindError) throw ApiError.invalid(error.message);
      throw error;
    }
  };
  return {
    'session:revertHunk': ({ sessionId, prompt, root, path, hunk }) => {
      const session = stopped(sessionId, 'reverting part of its changes');
      return asInvalid(async () => {
        const timeline = timelineOf(manager.store.loadEvents(sessionId));
        const report = await recordedHunkRevert({
          coveHome: dataDir,
          workspaceRoots: session.workspaces,
          timeline,
          prompt,
          root,
          path,
          hunk,
          sessionId,
          record: (event) => manager.recordRewind(event),
        });
        if (report.reverted) tellModel(sessionId, `The person reverted one of your changes to ${join(root, path)} (the hunk ${report.hunk}); read the file again before editing it.`);
        return report;
      });
    },
    'session:undoRevert': ({ sessionId, seq }) => {
      const session = stopped(sessionId, 'undoing a revert');
      return asInvalid(async () => {
        const timeline = timelineOf(manager.store.loadEvents(sessionId));
        const report = await undoRevert({ coveHome: dataDir, workspaceRoots: session.workspaces, timeline, seq, sessionId, record: (event) => manager.recordRewind(event) });
        if (report.undone) tellModel(sessionId, undoNote(report));
        return report;
      });
    },
  };
}
