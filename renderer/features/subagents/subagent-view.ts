/**
 * Which subagent's own transcript is open in place of the session's. Page state only: a reload
 * or another session shows the session's transcript again.
 */
import { create } from 'zustand';

interface OpenSubagent {
  sessionId: string;
  subagentId: string;
}

interface SubagentView {
  open: OpenSubagent | null;
  openSubagent(sessionId: string, subagentId: string): void;
  close(): void;
}

export const useSubagentView = create<SubagentView>()((set) => ({
  open: null,
  openSubagent: (sessionId, subagentId) => set({ open: { sessionId, subagentId } }),
  close: () => set({ open: null }),
}));

/** The subagent open in this session, or null. */
export function useOpenSubagent(sessionId: string): string | null {
  return useSubagentView((state) => (state.open?.sessionId === sessionId ? state.open.subagentId : null));
}
