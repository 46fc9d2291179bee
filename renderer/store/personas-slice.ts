/**
 * Personas a session may act as (`.cove/personas/*.md` in its folders), per session, and
 * switching between them. The active one is the session summary's `persona`.
 */
import type { StateCreator } from 'zustand';
import type { PersonaList } from '../../shared/contract';
import { call } from '../transport/client';
import { ask } from './request';
import type { CoveState } from './types';

export interface PersonasSlice {
  personas: Record<string, PersonaList>;
  settingPersona: Record<string, boolean>;
  loadPersonas(sessionId: string): Promise<void>;
  setPersona(sessionId: string, persona: string | null): Promise<void>;
}

export const createPersonasSlice: StateCreator<CoveState, [], [], PersonasSlice> = (set, get) => ({
  personas: {},
  settingPersona: {},

  async loadPersonas(sessionId) {
    const response = await call('persona:list', { sessionId });
    // A host without personas, or a session gone meanwhile, simply shows no picker.
    if (response.ok) set((state) => ({ personas: { ...state.personas, [sessionId]: response.value } }));
  },

  async setPersona(sessionId, persona) {
    set((state) => ({ settingPersona: { ...state.settingPersona, [sessionId]: true } }));
    const session = await ask('session:setPersona', { sessionId, persona });
    set((state) => ({ settingPersona: { ...state.settingPersona, [sessionId]: false } }));
    if (!session) return;
    get().upsertSession(session);
    // The files may have changed since the list was read; the answer is the moment to look again.
    await get().loadPersonas(sessionId);
  },
});
