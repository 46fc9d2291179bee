/** Follows a scroller's bottom by the rules of ./follow.ts; wires the person's gestures to it. */
import { useCallback, useEffect, useRef, useState, type RefObject } from 'react';
import { afterScroll, isNavigationKey, ScrollIntent, type FollowState } from './follow';

export interface Follow {
  /** Read by layout effects that keep the bottom in view. */
  following: RefObject<boolean>;
  atBottom: boolean;
  onScroll(): void;
  /** Follows again and scrolls to the bottom (the Jump to latest button, a prompt just sent). */
  jumpToLatest(): void;
  /** The page takes the person elsewhere (a search match): stay there. */
  stopFollowing(): void;
}

export function useFollow(scroller: RefObject<HTMLElement | null>): Follow {
  const following = useRef(true);
  const state = useRef<FollowState>({ following: true, lastTop: 0 });
  const intent = useRef(new ScrollIntent());
  const [atBottom, setAtBottom] = useState(true);

  useEffect(() => {
    const element = scroller.current;
    if (!element) return;
    const gesture = () => intent.current.noteGesture();
    const onKey = (event: KeyboardEvent) => {
      if (isNavigationKey(event.key)) gesture();
    };
    const down = (event: PointerEvent) => {
      // A press on the scroller itself (its scrollbar), not on a row's button or text.
      if (event.target === element) intent.current.press(true);
    };
    const up = () => intent.current.press(false);
    element.addEventListener('wheel', gesture, { passive: true });
    element.addEventListener('touchmove', gesture, { passive: true });
    element.addEventListener('keydown', onKey);
    element.addEventListener('pointerdown', down);
    window.addEventListener('pointerup', up);
    return () => {
      element.removeEventListener('wheel', gesture);
      element.removeEventListener('touchmove', gesture);
      element.removeEventListener('keydown', onKey);
      element.removeEventListener('pointerdown', down);
      window.removeEventListener('pointerup', up);
    };
  }, [scroller]);

  const onScroll = useCallback(() => {
    const element = scroller.current;
    if (!element) return;
    const next = afterScroll(state.current, { scrollTop: element.scrollTop, scrollHeight: element.scrollHeight, clientHeight: element.clientHeight, byPerson: intent.current.active() });
    state.current = next;
    following.current = next.following;
    setAtBottom(next.following);
  }, [scroller]);

  const jumpToLatest = useCallback(() => {
    intent.current.endGesture();
    following.current = true;
    state.current = { ...state.current, following: true };
    setAtBottom(true);
    const element = scroller.current;
    if (element) element.scrollTop = element.scrollHeight;
  }, [scroller]);

  const stopFollowing = useCallback(() => {
    following.current = false;
    state.current = { ...state.current, following: false };
    setAtBottom(false);
  }, []);

  return { following, atBottom, onScroll, jumpToLatest, stopFollowing };
}
