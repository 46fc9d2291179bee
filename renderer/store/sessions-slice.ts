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
  /** Where the next page of the list starts (the oldest session loaded); null once every session is loaded. */
  sessionsCursor: { updatedAt: number; id: string } | null;
  loadingMoreSessions: boolean;
  searchText: string;
  searchResults: SearchResult[] | null;
  searchError: string | null;
  appInfo: AppInfo | null;

  loadAppInfo(): Promise<void>;
  /** The newest page of the list, replacing what was loaded. */
  loadSessions(): Promise<void>;
  /** The next page of older sessions, when there is one and none is on its way. */
  loadMoreSessions(): Promise<void>;
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
/** A screenful many times over, and a fraction of what 10,000 stored sessions would send at once. */
export const SESSION_PAGE = 200;
/** Later pages are bigger: someone scrolling that far is going a long way. */
const MORE_PAGE = 1000;
const MODES = ['default', 'acceptEdits', 'plan', 'bypass'] as const;

function cursorOf(session: SessionSummary): { updatedAt: number; id: string } {
  return { updatedAt: session.updatedAt, id: session.id };
}

export const createSessionsSlice: StateCreator<CoveState, [], [], SessionsSlice> = (set, get) => ({
  sessions: {},
  sessionsLoaded: false,
  sessionsCursor: null,
  loadingMoreSessions: false,
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
    const list = await ask('session:list', { limit: SESSION_PAGE });
    if (!list) return;
    const complete = list.length < SESSION_PAGE;
    const active = get().activeSessionId;
    const listed = list.some((session) => session.id === active);
    // An active session older than the first page stays: opening it brings its summary.
    const kept = active && !listed ? get().sessions[active] : undefined;
    set({
      sessions: Object.fromEntries([...list, ...(kept ? [kept] : [])].map((session) => [session.id, session])),
      sessionsLoaded: true,
      sessionsCursor: complete ? null : cursorOf(list.at(-1)!),
      loadingMoreSessions: false,
    });
    if (active && !listed && complete) get().selectSession(null);
  },

  async loadMoreSessions() {
    const cursor = get().sessionsCursor;
    if (!cursor || get().loadingMoreSessions) return;
    set({ loadingMoreSessions: true });
    const list = await ask('session:list', { limit: MORE_PAGE, before: cursor });
    // A reload of the first page in the meantime started the list again; this page is stale.
    if (get().sessionsCursor !== cursor) return;
    if (!list) return set({ loadingMoreSessions: false });
    set((state) => ({
      // A session already here was updated since it was listed: the live copy is newer.
      sessions: { ...Object.fromEntries(list.map((session) => [session.id, session])), ...state.sessions },
      sessionsCursor: list.length < MORE_PAGE ? null : cursorOf(list.at(-1)!),
      loadingMoreSessions: false,
    }));
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
