/** Checkpoints (SPEC §13): what a host passes the session manager, and the parts the CLI reads. */
import type { CoveEvent } from '../../../shared/events';
import type { SessionRecord, Store } from '../store';
import { loadCheckpointSettings } from './settings';
import { SessionCheckpoints } from './session-checkpoints';

export { SessionCheckpoints } from './session-checkpoints';
export { loadCheckpointSettings, type CheckpointSettings } from './settings';

/** The session manager's `checkpoints` option: a malformed `checkpoints` setting throws here, before the run starts. */
export function checkpointsFor(coveHome: string, store: Store, options: { warmUp?: boolean } = {}) {
  return (session: SessionRecord, emit: (event: CoveEvent) => void): SessionCheckpoints | undefined => {
    const settings = loadCheckpointSettings(coveHome, session.workspaces);
    if (!settings.enabled) return undefined;
    return new SessionCheckpoints({
      coveHome,
      sessionId: session.id,
      workspaceRoots: session.workspaces,
      settings,
      emit,
      hadCheckpoints: () => store.loadEvents(session.id).some((event) => event.type === 'checkpoint'),
      warmUp: options.warmUp ?? false,
    });
  };
}
