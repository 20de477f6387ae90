/** Gesture thresholds of spec §9 ("Feed swipe", "Double tap", "Swipe (carousel)"). */
export const GestureLimits = {
  swipeDistance: 50,
  swipeMaxMs: 300,
  wheelDelta: 10,
  wheelLockMs: 300,
  doubleTapMs: 300,
  longPressMs: 500,
  carouselSwipe: 50,
  /** Movement below this still counts as a tap or a held press. */
  tapSlop: 10,
} as const;

export type Step = -1 | 0 | 1;

/**
 * A vertical swipe moves the feed when it travelled over 50 px in under 300 ms. Finger up (negative
 * dy) goes to the next post.
 */
export function classifyFeedSwipe(dy: number, elapsedMs: number): Step {
  if (elapsedMs >= GestureLimits.swipeMaxMs || Math.abs(dy) <= GestureLimits.swipeDistance) return 0;
  return dy < 0 ? 1 : -1;
}

/** A horizontal carousel swipe of at least 50 px; finger left (negative dx) shows the next image. */
export function classifyCarouselSwipe(dx: number): Step {
  if (Math.abs(dx) < GestureLimits.carouselSwipe) return 0;
  return dx < 0 ? 1 : -1;
}

/** Which axis a drag belongs to, decided once it leaves the tap slop. */
export function dragAxis(dx: number, dy: number): 'x' | 'y' | null {
  if (Math.hypot(dx, dy) < GestureLimits.tapSlop) return null;
  return Math.abs(dx) > Math.abs(dy) ? 'x' : 'y';
}

/** Wheel navigation: a delta of 10 or more moves one post, then the wheel is locked for 300 ms. */
export function createWheelStepper() {
  let lockedUntil = Number.NEGATIVE_INFINITY;
  return (deltaY: number, now: number): Step => {
    if (now < lockedUntil || Math.abs(deltaY) < GestureLimits.wheelDelta) return 0;
    lockedUntil = now + GestureLimits.wheelLockMs;
    return deltaY > 0 ? 1 : -1;
  };
}
