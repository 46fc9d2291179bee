/**
 * The open session's transcript: redrawn from `session:open`, then followed live. The open
 * answers the latest events (the first screen) and the seq it read up to; live events are put
 * in order by seq (../features/transcript/event-order.ts), so one the answer holds is dropped
 * and a missing one is fetched. The older part of a long session comes after the first screen,
 * by seq range, and the whole is folded again once it is here.
 */
import type { StateCreator } from 'zustand';
import type { SessionEvent, SessionStatus } from '../../shared/contract';
import type { PermissionRequestEvent } from '../../shared/events';
import { EMPTY_TRANSCRIPT, foldEvents, reconcilePending, settleRun } from '../features/transcript/model';
import type { TranscriptState } from '../features/transcript/model-types';
import { admit, filled, opened, UNOPENED, type Admitted, type EventOrder, type MissingRange } from '../features/transcript/event-order';
import { call, transport } from '../transport/client';
import { firstScreenGate } from './first-screen';
import type { CoveState } from './types';

export interface OpenTranscript {
  sessionId: string;
  state: TranscriptState;
  loading: boolean;
  error: string | null;
  order: EventOrder;
  /** The stored events as loaded, oldest first, and the live ones applied after them. */
  stored: SessionEvent[];
  live: SessionEvent[];
  /** What the open said: the run was going, and the prompts it waited on. */
  streaming: boolean;
  pendingAtOpen: PermissionRequestEvent[];
  /** Events with seq ≤ this are still being loaded; 0 once the whole log is here. */
  olderUntil: number;
  /** A missing range is being fetched. */
  filling: boolean;
  generation: number;
}

export interface TranscriptSlice {
  transcript: OpenTranscript | null;
  /** Expanded/collapsed parts of items, by `<item key>:<part>`; kept while items scroll out of view. */
  toggles: Record<string, boolean>;
  openTranscript(sessionId: string, options?: { keepItems?: boolean }): Promise<void>;
  closeTranscript(): void;
  /** Agent events of the open session, in any order, duplicates included. */
  foldLiveEvents(sessionId: string, events: SessionEvent[]): void;
  setToggle(key: string, value: boolean): void;
  /** The transcript of `generation` has drawn its first screen: its older part may come now. */
  transcriptDrawn(generation: number): void;
}

const LIVE_STATUSES: readonly SessionStatus[] = ['running', 'waiting'];
/** Events per `session:events` answer while the older part of a long session loads. */
const OLDER_PAGE = 15_000;
let generations = 0;
/** How long the older part waits at most for the first screen (a view that never draws). */
const FIRST_SCREEN_WAIT_MS = 1000;

function watchOnly(sessionIds: string[]): void {
  void transport().api.watch({ sessionIds });
}

/** The stored events folded as a redraw, then the live ones. */
function rebuild(current: OpenTranscript, now: number): TranscriptState {
  let state = foldEvents(EMPTY_TRANSCRIPT, current.stored, now);
  if (!current.streaming) state = settleRun(state, now);
  state = reconcilePending(state, current.pendingAtOpen, now);
  return foldEvents(state, current.live, now);
}

export const createTranscriptSlice: StateCreator<CoveState, [], [], TranscriptSlice> = (set, get) => {
  /** The open transcript, if it is still the one of `generation`. */
  const still = (generation: number) => {
    const current = get().transcript;
    return current && current.generation === generation ? current : null;
  };

  const apply = (current: OpenTranscript, admitted: Admitted) => {
    // Appended in place, not copied: a copy per batch made a 20,000-delta stream cost the square
    // of its length. Only a rebuild reads it, from the newest transcript, which owns the array.
    for (const event of admitted.ready) current.live.push(event);
    const state = foldEvents(current.state, admitted.ready, Date.now());
    const next: OpenTranscript = { ...current, state, order: admitted.order };
    set({ transcript: next });
    if (admitted.missing && !current.filling) void fill(next.generation, admitted.missing);
  };

  const fill = async (generation: number, missing: MissingRange) => {
    const before = still(generation);
    if (!before) return;
    set({ transcript: { ...before, filling: true } });
    const response = await call('session:events', { sessionId: before.sessionId, afterSeq: missing.afterSeq, untilSeq: missing.untilSeq });
    const current = still(generation);
    if (!current) return;
    const settled = { ...current, filling: false };
    if (!response.ok) return set({ transcript: { ...settled, error: response.error.message } });
    apply(settled, filled(settled.order, missing, response.value.events));
  };

  const loadOlder = async (generation: number) => {
    const first = still(generation);
    if (!first || first.olderUntil === 0) return;
    const older: SessionEvent[] = [];
    while (older.length === 0 || older.at(-1)!.seq < first.olderUntil) {
      const afterSeq = older.at(-1)?.seq ?? 0;
      const response = await call('session:events', { sessionId: first.sessionId, afterSeq, untilSeq: first.olderUntil, limit: OLDER_PAGE });
      if (!still(generation)) return;
      if (!response.ok) return set({ transcript: { ...still(generation)!, error: response.error.message } });
      if (response.value.events.length === 0) break;
      older.push(...response.value.events);
    }
    const current = still(generation);
    if (!current) return;
    const whole: OpenTranscript = { ...current, stored: [...older, ...current.stored], olderUntil: 0 };
    set({ transcript: { ...whole, state: rebuild(whole, Date.now()) } });
  };

  const firstScreen = firstScreenGate(FIRST_SCREEN_WAIT_MS);

  return {
    transcript: null,
    toggles: {},

    async openTranscript(sessionId, options = {}) {
      const generation = ++generations;
      const previous = get().transcript;
      const keep = options.keepItems === true && previous?.sessionId === sessionId;
      // Watched before the open is asked, so no stream event of it falls between the two.
      watchOnly([sessionId]);
      set({
        transcript: {
          sessionId,
          state: keep ? previous.state : EMPTY_TRANSCRIPT,
          loading: true,
          error: null,
          order: UNOPENED,
          stored: [],
          live: [],
          streaming: false,
          pendingAtOpen: [],
          olderUntil: 0,
          filling: false,
          generation,
        },
        ...(keep ? {} : { toggles: {} }),
      });
      const response = await call('session:open', { sessionId });
      const current = still(generation);
      if (!current) return;
      if (!response.ok) return set({ transcript: { ...current, loading: false, error: response.error.message } });
      const view = response.value;
      const loaded: OpenTranscript = {
        ...current,
        loading: false,
        stored: view.events,
        streaming: LIVE_STATUSES.includes(view.session.status),
        pendingAtOpen: view.pending,
        olderUntil: view.fromSeq,
      };
      set((store) => ({
        transcript: { ...loaded, state: rebuild(loaded, Date.now()) },
        sessions: { ...store.sessions, [sessionId]: view.session },
        pending: { ...store.pending, ...Object.fromEntries(view.pending.map((request) => [request.requestId, request])) },
      }));
      apply(get().transcript!, opened(loaded.order, view.lastSeq));
      if (loaded.olderUntil === 0) return;
      await firstScreen.wait(generation);
      await loadOlder(generation);
    },

    closeTranscript() {
      watchOnly([]);
      set({ transcript: null, toggles: {} });
    },

    foldLiveEvents(sessionId, events) {
      const current = get().transcript;
      if (!current || current.sessionId !== sessionId || events.length === 0) return;
      const admitted = admit(current.order, events);
      if (current.loading) return set({ transcript: { ...current, order: admitted.order } });
      apply(current, admitted);
    },

    transcriptDrawn(generation) {
      firstScreen.drawn(generation);
    },

    setToggle(key, value) {
      set((state) => ({ toggles: { ...state.toggles, [key]: value } }));
    },
  };
};
