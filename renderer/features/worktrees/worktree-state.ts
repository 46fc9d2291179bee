/**
 * A worktree session's branch as the window knows it, shared by the header's actions, the offer
 * at a run's end and the review pane, so a Merge made in one place takes the others' buttons
 * away at once. Main owns it: it is read with `session:worktree` when a session opens.
 */
import { create } from 'zustand';
import type { WorktreeView } from '../../../shared/contract';
import { call } from '../../transport/client';

export interface WorktreeOutcome {
  text: string;
  failed: boolean;
}

interface WorktreeState {
  /** undefined until main answered; null for a session without a worktree (or no longer). */
  views: Record<string, WorktreeView | null>;
  outcomes: Record<string, WorktreeOutcome>;
  busy: Record<string, boolean>;
}

export const useWorktreeState = create<WorktreeState>(() => ({ views: {}, outcomes: {}, busy: {} }));

function put<K extends keyof WorktreeState>(key: K, sessionId: string, value: WorktreeState[K][string] | undefined): void {
  useWorktreeState.setState((state) => {
    const next = { ...state[key] } as Record<string, unknown>;
    if (value === undefined) delete next[sessionId];
    else next[sessionId] = value;
    return { [key]: next } as Partial<WorktreeState>;
  });
}

export async function loadWorktree(sessionId: string): Promise<void> {
  const response = await call('session:worktree', { sessionId });
  put('views', sessionId, response.ok ? response.value.worktree : null);
}

/** Merge or Discard through main; the outcome (a refusal included, in main's words) is kept for every place that shows it. */
export async function finishWorktree(sessionId: string, action: 'merge' | 'discard'): Promise<void> {
  const worktree = useWorktreeState.getState().views[sessionId];
  if (!worktree || useWorktreeState.getState().busy[sessionId]) return;
  put('busy', sessionId, true);
  put('outcomes', sessionId, undefined);
  const response = action === 'merge' ? await call('session:mergeWorktree', { sessionId }) : await call('session:discardWorktree', { sessionId });
  put('busy', sessionId, undefined);
  if (!response.ok) {
    put('outcomes', sessionId, { text: response.error.message, failed: true });
    return;
  }
  put('views', sessionId, null);
  put('outcomes', sessionId, {
    text:
      action === 'merge'
        ? `Merged ${worktree.branch} into ${worktree.baseBranch}; the session works in ${worktree.workspace} again.`
        : `Discarded ${worktree.branch}; the session works in ${worktree.workspace} again.`,
    failed: false,
  });
}
