/**
 * Starts the renderer: picks the transport, subscribes to host events once (batched per
 * animation frame), and fills the store from main — again after every reconnect, since events
 * sent while the socket was down are gone and main owns the data.
 */
import { applyHostEvents } from '../store/apply-events';
import { createBatcher, type Scheduler } from '../store/event-batcher';
import { useCove } from '../store';
import { setTransport } from '../transport/client';
import { selectTransport } from '../transport/select-transport';

// A hidden page gets no animation frames; events still have to be applied (and bounded).
const scheduleFrame: Scheduler = (run) => {
  if (document.hidden) setTimeout(run, 250);
  else requestAnimationFrame(run);
};

export function bootstrap(): void {
  const { transport, missingToken } = selectTransport();
  setTransport(transport);
  useCove.setState({ transportKind: transport.kind, missingToken });
  const batcher = createBatcher(applyHostEvents, scheduleFrame);
  transport.api.onEvent(batcher.push);
  // Filled on every open, the first included: a first connection that takes longer than a
  // request may wait must still load the sessions once it is up.
  transport.onConnection((state) => {
    useCove.getState().setConnection(state);
    if (state.status === 'open') void refill(state.reconnected);
  });
}

async function refill(keepItems: boolean): Promise<void> {
  const store = useCove.getState();
  await Promise.all([store.loadAppInfo(), store.loadSessions(), store.loadPending()]);
  const active = useCove.getState().activeSessionId;
  if (active) await useCove.getState().openTranscript(active, { keepItems });
}
