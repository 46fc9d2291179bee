/** The sessions list, the selected session, and search across sessions. */
import type { StateCreator } from 'zustand';
import type { AppInfo, SearchResult, SessionSummary } from '../../shared/contract';
import { call } from '../transport/client';
import { ask } from './request';
import { readStored, writeStored } from './storage';
import type { CoveState } from './types';

export interface SessionsSlice {
  sessions: Record<string, SessionSummary>;
  sessionsLoaded: boolean;
  /** null shows the new-session view. */
  activeSessionId: string | null;
  searchText: string;
  searchResults: SearchResult[] | null;
  searchError: string | null;
  appInfo: AppInfo | null;

  loadAppInfo(): Promise<void>;
  loadSessions(): Promise<void>;
  selectSession(sessionId: string | null): void;
  /** Creates a session; answers the error message instead when main refuses. */
  /** `worktree`: the session works in a git worktree of its own. */
  createSession(workspace: string, options?: { worktree?: boolean }): Promise<SessionSummary | string>;
  renameSession(sessionId: string, title: string): Promise<boolean>;
  deleteSession(sessionId: string): Promise<boolean>;
  addWorkspace(sessionId: string, path: string): Promise<boolean>;
  setSessionMode(sessionId: string, permissionMode: string): Promise<void>;
  setSearchText(text: string): void;
  runSearch(text: string): Promise<void>;
  upsertSession(session: SessionSummary): void;
  removeSession(sessionId: string): void;
}

const ACTIVE_KEY = 'cove.activeSession';
const MODES = ['default', 'acceptEdits', 'plan', 'bypass'] as const;

export const createSessionsSlice: StateCreator<CoveState, [], [], SessionsSlice> = (set, get) => ({
  sessions: {},
  sessionsLoaded: false,
  activeSessionId: readStored<string | null>(ACTIVE_KEY, null),
  searchText: '',
  searchResults: null,
  searchError: null,
  appInfo: null,

  async loadAppInfo() {
    const info = await ask('app:info', {});
    if (info) set({ appInfo: info });
  },

  async loadSessions() {
    const list = await ask('session:list', {});
    if (!list) return;
    set({ sessions: Object.fromEntries(list.map((session) => [session.id, session])), sessionsLoaded: true });
    const active = get().activeSessionId;
    if (active && !list.some((session) => session.id === active)) get().selectSession(null);
  },

  selectSession(sessionId) {
    writeStored(ACTIVE_KEY, sessionId);
    set({ activeSessionId: sessionId });
    const open = get().transcript;
    if (!sessionId) get().closeTranscript();
    // Choosing the open session again keeps what is shown (and any failed load is retried).
    else if (open?.sessionId !== sessionId || open.error) void get().openTranscript(sessionId);
  },

  async createSession(workspace, options) {
    const response = await call('session:create', { workspaces: [workspace], ...(options?.worktree ? { worktree: true } : {}) });
    if (!response.ok) return response.error.message;
    get().upsertSession(response.value);
    get().selectSession(response.value.id);
    return response.value;
  },

  async renameSession(sessionId, title) {
    const session = await ask('session:rename', { sessionId, title });
    if (session) get().upsertSession(session);
    return session !== undefined;
  },

  async deleteSession(sessionId) {
    const result = await ask('session:delete', { sessionId });
    if (result?.deleted) get().removeSession(sessionId);
    return result?.deleted === true;
  },

  async addWorkspace(sessionId, path) {
    const session = await ask('session:addWorkspace', { sessionId, path });
    if (!session) return false;
    get().upsertSession(session);
    get().notify(`Added ${path} to this session's folders.`, 'info');
    return true;
  },

  async setSessionMode(sessionId, permissionMode) {
    const mode = MODES.find((candidate) => candidate === permissionMode);
    if (!mode) return;
    const session = await ask('session:setMode', { sessionId, permissionMode: mode });
    if (session) get().upsertSession(session);
  },

  setSearchText(text) {
    set({ searchText: text });
    if (text.trim() === '') set({ searchResults: null, searchError: null });
  },

  async runSearch(text) {
    if (text.trim() === '') return;
    const response = await call('session:search', { text });
    // Answers can arrive out of order; only the one for what the box holds now counts.
    if (get().searchText !== text) return;
    if (response.ok) set({ searchResults: response.value, searchError: null });
    else set({ searchResults: [], searchError: response.error.message });
  },

  upsertSession(session) {
    set((state) => ({ sessions: { ...state.sessions, [session.id]: session } }));
  },

  removeSession(sessionId) {
    const sessions = { ...get().sessions };
    delete sessions[sessionId];
    set({ sessions });
    if (get().activeSessionId === sessionId) get().selectSession(null);
  },
});
