import { describe, expect, it } from 'vitest';
import { ClickBlocker, SWIPE_CLOSE, swipeCloses, swipeStarted, viewerSwipeCloses } from './gestures.ts';

describe('chat swipe-close', () => {
  it('starts after 10 px sideways, never on a vertical scroll or a left swipe', () => {
    expect(swipeStarted(9, 0)).toBe(false);
    expect(swipeStarted(10, 2)).toBe(true);
    expect(swipeStarted(12, 30)).toBe(false);
    expect(swipeStarted(-40, 0)).toBe(false);
  });

  it('closes only beyond 80 px', () => {
    expect(swipeCloses(true, 80)).toBe(false);
    expect(swipeCloses(true, 81)).toBe(true);
    expect(swipeCloses(false, 200)).toBe(false);
  });

  it('ignores clicks for 500 ms after a close', () => {
    let now = 0;
    const blocker = new ClickBlocker(() => now);
    expect(blocker.blocked).toBe(false);
    blocker.block();
    // What the messenger shows the page (`data-clicks-blocked`): the moment clicks work again.
    expect(blocker.blockedUntil).toBe(SWIPE_CLOSE.clickBlockMs);
    now = SWIPE_CLOSE.clickBlockMs - 1;
    expect(blocker.blocked).toBe(true);
    now = SWIPE_CLOSE.clickBlockMs;
    expect(blocker.blocked).toBe(false);
  });
});

describe('media viewer swipe', () => {
  it('closes at 100 px, or 50 px when fast', () => {
    expect(viewerSwipeCloses(99, 0.1)).toBe(false);
    expect(viewerSwipeCloses(100, 0)).toBe(true);
    expect(viewerSwipeCloses(-120, 0)).toBe(true);
    expect(viewerSwipeCloses(50, 0.8)).toBe(true);
    expect(viewerSwipeCloses(49, 2)).toBe(false);
  });
});
