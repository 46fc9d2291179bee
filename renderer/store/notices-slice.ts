/** Messages for the person: errors from main and short confirmations, shown as toasts. */
import type { StateCreator } from 'zustand';
import type { ErrorCode } from '../../shared/contract';
import type { CoveState } from './types';

export interface Notice {
  id: number;
  message: string;
  tone: 'error' | 'info';
  /** A button that does what the message asks for. */
  action?: 'openSettings';
}

export interface NoticesSlice {
  notices: Notice[];
  notify(message: string, tone?: Notice['tone'], action?: Notice['action']): void;
  dismissNotice(id: number): void;
}

/** The button a failure of main's gets: a missing key is added in Settings. */
export function actionFor(code: ErrorCode): Notice['action'] {
  return code === 'noApiKey' ? 'openSettings' : undefined;
}

const MAX_NOTICES = 5;
const INFO_MS = 6000;
let nextId = 1;

export const createNoticesSlice: StateCreator<CoveState, [], [], NoticesSlice> = (set, get) => ({
  notices: [],
  notify(message, tone = 'error', action) {
    const id = nextId++;
    set((state) => ({ notices: [...state.notices.filter((notice) => notice.message !== message), { id, message, tone, ...(action ? { action } : {}) }].slice(-MAX_NOTICES) }));
    if (tone === 'info') setTimeout(() => get().dismissNotice(id), INFO_MS);
  },
  dismissNotice(id) {
    set((state) => ({ notices: state.notices.filter((notice) => notice.id !== id) }));
  },
});
