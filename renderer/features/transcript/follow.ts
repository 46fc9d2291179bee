/**
 * Whether a transcript keeps its bottom in view. Only the person stops it, by scrolling up:
 * content growing under a streamed reply, rows measured on the way in and the virtualizer's
 * own adjustments all move the scroll position too, and none of them may stop following (they
 * did: a streamed reply stopped being followed by itself). Reaching the bottom, however it got
 * there, follows again; so does a prompt just sent.
 */
export const BOTTOM_SLACK_PX = 48;
/** How long after a wheel turn, a touch or a key a scroll counts as the person's. */
export const INTENT_MS = 400;

export interface FollowState {
  following: boolean;
  /** The scroll position at the previous scroll event. */
  lastTop: number;
}

export interface ScrollSample {
  scrollTop: number;
  scrollHeight: number;
  clientHeight: number;
  /** The scroll came from the person (wheel, touch, keys, the scrollbar), not from the page. */
  byPerson: boolean;
}

export function isAtBottom(sample: Omit<ScrollSample, 'byPerson'>): boolean {
  return sample.scrollHeight - sample.scrollTop - sample.clientHeight <= BOTTOM_SLACK_PX;
}

export function afterScroll(state: FollowState, sample: ScrollSample): FollowState {
  if (isAtBottom(sample)) return { following: true, lastTop: sample.scrollTop };
  const scrolledUp = sample.scrollTop < state.lastTop;
  return { following: state.following && !(sample.byPerson && scrolledUp), lastTop: sample.scrollTop };
}

/** The person's scroll intent: recent wheel, touch or navigation keys, or a press held on the scroller (its scrollbar). */
export class ScrollIntent {
  private until = 0;
  private pressed = false;

  constructor(private readonly clock: () => number = () => performance.now()) {}

  /** A wheel turn, a touch move, or a navigation key. */
  noteGesture(): void {
    this.until = this.clock() + INTENT_MS;
  }

  press(down: boolean): void {
    this.pressed = down;
    if (!down) this.noteGesture();
  }

  active(): boolean {
    return this.pressed || this.clock() <= this.until;
  }

  /**
   * The page took the person to the bottom (Jump to latest, a prompt just sent): the gesture
   * before it is over. A wheel turn a moment before sending counted the page's own scrolls
   * after it (rows measured, the virtualizer's adjustments) as the person's, and a prompt just
   * sent stopped being followed.
   */
  endGesture(): void {
    this.until = 0;
  }
}

const NAVIGATION_KEYS = new Set(['ArrowUp', 'ArrowDown', 'PageUp', 'PageDown', 'Home', 'End', ' ']);

export function isNavigationKey(key: string): boolean {
  return NAVIGATION_KEYS.has(key);
}
