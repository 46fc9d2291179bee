/**
 * The open session's transcript: redrawn from `session:open`, then followed live. Live events
 * that arrive while the redraw is on its way are held and applied after it, so none is lost,
 * less those the stored list already holds, so none shows twice (../features/transcript/open-seam.ts).
 */
import type { StateCreator } from 'zustand';
import type { SessionStatus } from '../../shared/contract';
import type { CoveEvent } from '../../shared/events';
import { addSteeredPrompt, EMPTY_TRANSCRIPT, foldEvents, reconcilePending, settleRun } from '../features/transcript/model';
import type { TranscriptState } from '../features/transcript/model-types';
import { passSeams, settleHeld, type Seam } from '../features/transcript/open-seam';
import { call } from '../transport/client';
import { applyPendingEvents } from './pending-events';
import type { CoveState } from './types';

export interface OpenTranscript {
  sessionId: string;
  state: TranscriptState;
  loading: boolean;
  error: string | null;
  /** Live events received while loading. */
  held: CoveEvent[];
  /** Streaming blocks whose stored text and live text may overlap, until the overlap is known. */
  seams: Seam[];
  generation: number;
}

export interface TranscriptSlice {
  transcript: OpenTranscript | null;
  /** Expanded/collapsed parts of items, by `<item key>:<part>`; kept while items scroll out of view. */
  toggles: Record<string, boolean>;
  openTranscript(sessionId: string, options?: { keepItems?: boolean }): Promise<void>;
  closeTranscript(): void;
  /** Live agent events of the open session, in order. */
  foldLiveEvents(sessionId: string, events: CoveEvent[]): void;
  addSteered(sessionId: string, text: string): void;
  setToggle(key: string, value: boolean): void;
}

const LIVE_STATUSES: readonly SessionStatus[] = ['running', 'waiting'];
let generations = 0;

export const createTranscriptSlice: StateCreator<CoveState, [], [], TranscriptSlice> = (set, get) => ({
  transcript: null,
  toggles: {},

  async openTranscript(sessionId, options = {}) {
    const generation = ++generations;
    const previous = get().transcript;
    const keep = options.keepItems === true && previous?.sessionId === sessionId;
    set({
      transcript: { sessionId, state: keep ? previous.state : EMPTY_TRANSCRIPT, loading: true, error: null, held: [], seams: [], generation },
      ...(keep ? {} : { toggles: {} }),
    });
    const response = await call('session:open', { sessionId });
    // Events received before the answer are still waiting for a frame; they count as held.
    applyPendingEvents();
    const current = get().transcript;
    if (!current || current.generation !== generation) return;
    if (!response.ok) {
      set({ transcript: { ...current, loading: false, error: response.error.message, held: [] } });
      return;
    }
    const view = response.value;
    const now = Date.now();
    const streaming = LIVE_STATUSES.includes(view.session.status);
    let state = foldEvents(EMPTY_TRANSCRIPT, view.events, now);
    if (!streaming) state = settleRun(state, now);
    state = reconcilePending(state, view.pending, now);
    const held = settleHeld(view.events, current.held, streaming);
    state = foldEvents(state, held.events, now);
    set((store) => ({
      transcript: { ...current, state, loading: false, held: [], seams: held.seams },
      sessions: { ...store.sessions, [sessionId]: view.session },
      pending: { ...store.pending, ...Object.fromEntries(view.pending.map((request) => [request.requestId, request])) },
    }));
  },

  closeTranscript() {
    set({ transcript: null, toggles: {} });
  },

  foldLiveEvents(sessionId, events) {
    const current = get().transcript;
    if (!current || current.sessionId !== sessionId || events.length === 0) return;
    if (current.loading) return set({ transcript: { ...current, held: [...current.held, ...events] } });
    const passed = passSeams(current.seams, events);
    set({ transcript: { ...current, state: foldEvents(current.state, passed.events, Date.now()), seams: passed.seams } });
  },

  addSteered(sessionId, text) {
    const current = get().transcript;
    if (current?.sessionId === sessionId) set({ transcript: { ...current, state: addSteeredPrompt(current.state, text) } });
  },

  setToggle(key, value) {
    set((state) => ({ toggles: { ...state.toggles, [key]: value } }));
  },
});
