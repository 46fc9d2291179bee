/**
 * The review pane's line comments not yet sent, per session, kept in sessionStorage like the
 * composer's drafts: a reload (or closing the pane) never loses them; they go once main has
 * taken them as the session's next message, which is then a userMessage like any prompt.
 */
import { create } from 'zustand';
import { readStored, writeStored } from '../../store/storage';
import type { LineComment } from './review-diff';

const COMMENTS_KEY = 'cove.review.comments';

function isComment(value: unknown): value is LineComment {
  const entry = value as Partial<LineComment> | null;
  return (
    typeof entry === 'object' &&
    entry !== null &&
    typeof entry.root === 'string' &&
    typeof entry.path === 'string' &&
    typeof entry.line === 'number' &&
    typeof entry.removed === 'boolean' &&
    typeof entry.quote === 'string' &&
    typeof entry.text === 'string'
  );
}

/** What storage holds, keeping only well-formed comments: a copy from an older build is not a crash. */
function readComments(): Record<string, LineComment[]> {
  const stored = readStored<unknown>(COMMENTS_KEY, {});
  if (typeof stored !== 'object' || stored === null) return {};
  const comments: Record<string, LineComment[]> = {};
  for (const [sessionId, list] of Object.entries(stored)) {
    const kept = Array.isArray(list) ? list.filter(isComment) : [];
    if (kept.length > 0) comments[sessionId] = kept;
  }
  return comments;
}

interface ReviewComments {
  bySession: Record<string, LineComment[]>;
  add(sessionId: string, comment: LineComment): void;
  remove(sessionId: string, comment: LineComment): void;
  clear(sessionId: string, sent: readonly LineComment[]): void;
}

const NONE: readonly LineComment[] = [];

export const useReviewComments = create<ReviewComments>((set, get) => {
  const change = (sessionId: string, next: LineComment[]) => {
    const bySession = { ...get().bySession };
    if (next.length === 0) delete bySession[sessionId];
    else bySession[sessionId] = next;
    set({ bySession });
    writeStored(COMMENTS_KEY, bySession);
  };
  const of = (sessionId: string) => get().bySession[sessionId] ?? [];
  return {
    bySession: readComments(),
    add: (sessionId, comment) => change(sessionId, [...of(sessionId), comment]),
    remove: (sessionId, comment) =>
      change(
        sessionId,
        of(sessionId).filter((entry) => entry !== comment),
      ),
    // Only those sent: one added while they were on their way stays.
    clear: (sessionId, sent) =>
      change(
        sessionId,
        of(sessionId).filter((entry) => !sent.includes(entry)),
      ),
  };
});

export function useSessionComments(sessionId: string): readonly LineComment[] {
  return useReviewComments((state) => state.bySession[sessionId] ?? NONE);
}
