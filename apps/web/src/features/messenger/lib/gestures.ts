/** Spec §9 chat swipe-close: 10 px to start, more than 80 px to close, clicks blocked 500 ms after. */
export const SWIPE_CLOSE = { startPx: 10, closePx: 80, clickBlockMs: 500 } as const;
/** Spec §9 media viewer: closes on a swipe of 100 px, or 50 px if fast. */
export const VIEWER_SWIPE = { closePx: 100, fastClosePx: 50, fastVelocity: 0.5 } as const;

/**
 * Whether a horizontal drag has become a swipe: it must travel 10 px, and mostly sideways, so a
 * vertical scroll of the history never closes the chat.
 */
export function swipeStarted(dx: number, dy: number): boolean {
  return dx >= SWIPE_CLOSE.startPx && Math.abs(dx) > Math.abs(dy);
}

/** On release of a started swipe: close when it went right by more than 80 px. */
export function swipeCloses(started: boolean, dx: number): boolean {
  return started && dx > SWIPE_CLOSE.closePx;
}

/** Blocks clicks for 500 ms after a swipe-close so the lifted finger does not open a chat. */
export class ClickBlocker {
  private until = 0;
  constructor(private readonly now: () => number = Date.now) {}
  block(): void {
    this.until = this.now() + SWIPE_CLOSE.clickBlockMs;
  }
  get blocked(): boolean {
    return this.now() < this.until;
  }
  /** When the current block ends (epoch ms on the blocker's clock); past when none is active. */
  get blockedUntil(): number {
    return this.until;
  }
}

/** The media viewer closes on a swipe of 100 px, or 50 px when fast (velocity in px/ms). */
export function viewerSwipeCloses(distance: number, velocity: number): boolean {
  const d = Math.abs(distance);
  if (d >= VIEWER_SWIPE.closePx) return true;
  return d >= VIEWER_SWIPE.fastClosePx && Math.abs(velocity) >= VIEWER_SWIPE.fastVelocity;
}
