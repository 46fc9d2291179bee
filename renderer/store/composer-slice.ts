/**
 * What the person is typing, per session (and for the new-session view), kept in
 * sessionStorage too: a failed send or a reload never loses a draft. A draft is cleared only
 * once main has taken the message.
 */
import { actionFor } from './notices-slice';
import type { StateCreator } from 'zustand';
import { call } from '../transport/client';
import { ask } from './request';
import { readStored } from './storage';
import { deferredWrite } from './deferred-storage';
import { cancelExpectedPrompt, expectPrompt } from './sent-here';
import type { CoveState } from './types';

/** The draft of the new-session view. */
export const NEW_SESSION_DRAFT = 'new';
const DRAFTS_KEY = 'cove.drafts';
// Written once typing pauses, and at once when the page goes (./deferred-storage.ts).
const storedDrafts = deferredWrite(DRAFTS_KEY);

export interface ComposerSlice {
  drafts: Record<string, string>;
  sending: Record<string, boolean>;
  /** When a message was last queued for a running agent, per session. */
  steeredAt: Record<string, number>;
  setDraft(key: string, text: string): void;
  /** Sends the session's draft; true when main took it. */
  sendDraft(sessionId: string): Promise<boolean>;
  /** Retry after a failure, Resume after an interruption: the run goes on without the prompt sent twice; the draft is not touched. */
  retrySession(sessionId: string): Promise<void>;
  stopSession(sessionId: string): Promise<void>;
  /** Moves the new-session draft onto a just-created session and sends it. */
  sendFirstMessage(sessionId: string): Promise<void>;
}

export const createComposerSlice: StateCreator<CoveState, [], [], ComposerSlice> = (set, get) => ({
  drafts: readStored<Record<string, string>>(DRAFTS_KEY, {}),
  sending: {},
  steeredAt: {},

  setDraft(key, text) {
    const drafts = { ...get().drafts };
    if (text === '') delete drafts[key];
    else drafts[key] = text;
    set({ drafts });
    storedDrafts.write(drafts);
  },

  async sendDraft(sessionId) {
    const text = get().drafts[sessionId] ?? '';
    if (text.trim() === '' || get().sending[sessionId]) return false;
    set((state) => ({ sending: { ...state.sending, [sessionId]: true } }));
    const images = (get().promptImages[sessionId] ?? []).map(({ attachmentId, name }) => ({ attachmentId, name }));
    // Before the call: the prompt's event may come back before its answer does.
    expectPrompt(sessionId);
    const response = await call('session:send', { sessionId, text, ...(images.length > 0 ? { images } : {}) });
    set((state) => ({ sending: { ...state.sending, [sessionId]: false } }));
    if (!response.ok) {
      cancelExpectedPrompt(sessionId);
      get().notify(response.error.message, 'error', actionFor(response.error.code));
      return false;
    }
    // Whatever was typed while the message was on its way stays.
    if (get().drafts[sessionId] === text) get().setDraft(sessionId, '');
    if (images.length > 0) get().clearPromptImages(sessionId);
    // The prompt's row comes from its userMessage event, like every window's.
    if (response.value.steered) set((state) => ({ steeredAt: { ...state.steeredAt, [sessionId]: Date.now() } }));
    return true;
  },

  async retrySession(sessionId) {
    await ask('session:retry', { sessionId });
  },

  async stopSession(sessionId) {
    const result = await ask('session:stop', { sessionId });
    if (result && !result.stopped) get().notify('Nothing to stop: the session is not running.', 'info');
  },

  async sendFirstMessage(sessionId) {
    const text = get().drafts[NEW_SESSION_DRAFT] ?? '';
    if (text.trim() === '') return;
    get().setDraft(sessionId, text);
    get().setDraft(NEW_SESSION_DRAFT, '');
    await get().sendDraft(sessionId);
  },
});
