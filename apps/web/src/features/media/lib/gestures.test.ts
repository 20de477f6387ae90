import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { classifyCarouselSwipe, classifyFeedSwipe, createWheelStepper, dragAxis } from './gestures.ts';
import { TapGestures } from './tap-gestures.ts';

describe('feed swipe', () => {
  it('moves when over 50 px in under 300 ms, finger up goes forward', () => {
    expect(classifyFeedSwipe(-51, 299)).toBe(1);
    expect(classifyFeedSwipe(51, 100)).toBe(-1);
  });

  it('ignores short or slow drags', () => {
    expect(classifyFeedSwipe(-50, 100)).toBe(0);
    expect(classifyFeedSwipe(-200, 300)).toBe(0);
  });
});

describe('carousel swipe', () => {
  it('moves at 50 px', () => {
    expect(classifyCarouselSwipe(-50)).toBe(1);
    expect(classifyCarouselSwipe(60)).toBe(-1);
    expect(classifyCarouselSwipe(49)).toBe(0);
  });
});

describe('drag axis', () => {
  it('stays undecided inside the tap slop, then follows the larger component', () => {
    expect(dragAxis(3, 4)).toBeNull();
    expect(dragAxis(20, 5)).toBe('x');
    expect(dragAxis(5, -20)).toBe('y');
  });
});

describe('wheel stepper', () => {
  it('needs a delta of 10 and locks for 300 ms', () => {
    const step = createWheelStepper();
    expect(step(9, 0)).toBe(0);
    expect(step(10, 0)).toBe(1);
    expect(step(40, 100)).toBe(0);
    expect(step(-40, 299)).toBe(0);
    expect(step(-40, 300)).toBe(-1);
  });
});

describe('TapGestures', () => {
  beforeEach(() => vi.useFakeTimers());
  afterEach(() => vi.useRealTimers());

  function setup() {
    const calls: string[] = [];
    const taps = new TapGestures({
      onTap: () => calls.push('tap'),
      onDoubleTap: () => calls.push('double'),
      onHoldStart: () => calls.push('holdStart'),
      onHoldEnd: () => calls.push('holdEnd'),
    });
    return { calls, taps };
  }

  it('reports a single tap only after the double-tap window passed', () => {
    const { calls, taps } = setup();
    taps.down();
    vi.advanceTimersByTime(80);
    taps.up(80);
    vi.advanceTimersByTime(299);
    expect(calls).toEqual([]);
    vi.advanceTimersByTime(1);
    expect(calls).toEqual(['tap']);
  });

  it('two taps under 300 ms are a double tap and no single tap', () => {
    const { calls, taps } = setup();
    taps.down();
    taps.up(0);
    vi.advanceTimersByTime(150);
    taps.down();
    taps.up(200);
    vi.advanceTimersByTime(1000);
    expect(calls).toEqual(['double']);
  });

  it('two taps 300 ms apart are two single taps', () => {
    const { calls, taps } = setup();
    taps.down();
    taps.up(0);
    vi.advanceTimersByTime(300);
    taps.down();
    taps.up(300);
    vi.advanceTimersByTime(300);
    expect(calls).toEqual(['tap', 'tap']);
  });

  it('a press held 500 ms starts 2× until release, without a tap', () => {
    const { calls, taps } = setup();
    taps.down();
    vi.advanceTimersByTime(499);
    expect(calls).toEqual([]);
    vi.advanceTimersByTime(1);
    expect(calls).toEqual(['holdStart']);
    taps.up(900);
    vi.advanceTimersByTime(1000);
    expect(calls).toEqual(['holdStart', 'holdEnd']);
  });

  it('a drag cancels the press', () => {
    const { calls, taps } = setup();
    taps.down();
    taps.cancel();
    taps.up(50);
    vi.advanceTimersByTime(1000);
    expect(calls).toEqual([]);
  });
});
