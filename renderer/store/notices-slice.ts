/** Messages for the person: errors from main and short confirmations, shown as toasts. */
import type { StateCreator } from 'zustand';
import type { CoveState } from './types';

export interface Notice {
  id: number;
  message: string;
  tone: 'error' | 'info';
}

export interface NoticesSlice {
  notices: Notice[];
  notify(message: string, tone?: Notice['tone']): void;
  dismissNotice(id: number): void;
}

const MAX_NOTICES = 5;
const INFO_MS = 6000;
let nextId = 1;

export const createNoticesSlice: StateCreator<CoveState, [], [], NoticesSlice> = (set, get) => ({
  notices: [],
  notify(message, tone = 'error') {
    const id = nextId++;
    set((state) => ({ notices: [...state.notices.filter((notice) => notice.message !== message), { id, message, tone }].slice(-MAX_NOTICES) }));
    if (tone === 'info') setTimeout(() => get().dismissNotice(id), INFO_MS);
  },
  dismissNotice(id) {
    set((state) => ({ notices: state.notices.filter((notice) => notice.id !== id) }));
  },
});
