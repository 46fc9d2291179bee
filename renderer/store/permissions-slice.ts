/**
 * Permission prompts waiting for an answer, across every session (the transcript shows the
 * open session's as cards; this map drives the badges and the "waiting for you" banner).
 */
import type { StateCreator } from 'zustand';
import type { PermissionRequestEvent, PermissionScope } from '../../shared/events';
import { call } from '../transport/client';
import { ask } from './request';
import type { CoveState } from './types';

export interface PermissionAnswer {
  decision: 'allow' | 'deny';
  scope?: PermissionScope;
  rule?: string;
  /** For a denial: what the person wants instead; the model reads it. */
  reason?: string;
}

export interface PermissionsSlice {
  pending: Record<string, PermissionRequestEvent>;
  /** Answers sent and not yet confirmed by a permissionDecision. */
  answering: Record<string, PermissionAnswer>;
  loadPending(): Promise<void>;
  answerPermission(request: PermissionRequestEvent, answer: PermissionAnswer): Promise<void>;
}

export const createPermissionsSlice: StateCreator<CoveState, [], [], PermissionsSlice> = (set, get) => ({
  pending: {},
  answering: {},

  async loadPending() {
    const list = await ask('permission:pending', {});
    if (list) set({ pending: Object.fromEntries(list.map((request) => [request.requestId, request])) });
  },

  async answerPermission(request, answer) {
    const requestId = request.requestId;
    if (get().answering[requestId]) return;
    set((state) => ({ answering: { ...state.answering, [requestId]: answer } }));
    const response = await call('permission:answer', { sessionId: request.sessionId, requestId, ...answer });
    const stillWaiting = response.ok && response.value.answered;
    if (stillWaiting) return;
    set((state) => {
      const answering = { ...state.answering };
      delete answering[requestId];
      return { answering };
    });
    if (!response.ok) get().notify(response.error.message);
    else {
      get().notify('That prompt is no longer waiting: it was answered elsewhere or its run ended.', 'info');
      set((state) => {
        const pending = { ...state.pending };
        delete pending[requestId];
        return { pending };
      });
    }
  },
});
