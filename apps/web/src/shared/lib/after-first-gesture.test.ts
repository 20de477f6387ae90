import { afterEach, describe, expect, it, vi } from 'vitest';
import { afterFirstGesture } from './after-first-gesture.ts';

afterEach(() => vi.unstubAllGlobals());

describe('afterFirstGesture', () => {
  it('waits for the first press or key, runs once, and not after a cancel', () => {
    const run = vi.fn();
    afterFirstGesture(run);
    window.dispatchEvent(new Event('scroll'));
    expect(run).not.toHaveBeenCalled();
    window.dispatchEvent(new Event('pointerdown'));
    expect(run).toHaveBeenCalledTimes(1);
    window.dispatchEvent(new Event('keydown'));
    expect(run).toHaveBeenCalledTimes(1);

    const cancelled = vi.fn();
    afterFirstGesture(cancelled)();
    window.dispatchEvent(new Event('keydown'));
    expect(cancelled).not.toHaveBeenCalled();
  });

  it('runs at once when the page has already been used', () => {
    vi.stubGlobal('navigator', { ...navigator, userActivation: { hasBeenActive: true, isActive: false } });
    const run = vi.fn();
    afterFirstGesture(run);
    expect(run).toHaveBeenCalledTimes(1);
  });
});
